"""The user's own cards first (reviews CUB #1, CUA #5, CUA #2).

- Summarising short items (shift notes, messages, emails, tickets) is timed at a short prompt, not a long report's
  24,576 tokens: '250 nurses and 80 physicians ... summarize shift notes ... we already own 4x L40S' stays on the
  owned cards; a long-report job the owned cards miss on the first token is a 'No', never 'Yes' above a rent plan.
- A correction of the memory of the user's own machine ('记错了，是24g内存的', 'actually it's the 24gb one',
  'oh wait mine has 36gb') puts that machine's variant of the memory in its place, with a new question beside it.
- A small team named by job in chat shorthand ('3 backend engs + 6 sales ppl') is counted, not asked for again."""

from __future__ import annotations

import pytest
from conversation import run_states

from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.reading.message import prepare
from gpu_advisor.assistant.reading.use_case import read_use_case
from gpu_advisor.knowledge.use_cases import use_case

# --- what is summarised decides the prompt ------------------------------------------------------------------------

EN_VERB = ["summarize", "summarise", "make summaries of", "write a summary of"]
EN_SHORT = ["shift notes", "nursing notes", "patient notes", "customer emails", "support tickets", "slack messages",
            "the team's chat logs", "sales call notes", "handoff notes"]
EN_LONG = ["long reports", "contracts", "research papers", "pdfs", "whole documents", "court transcripts"]
ZH_SHORT = ["交班记录", "护理记录", "病历", "客户邮件", "工单", "聊天记录", "每天的消息"]
ZH_LONG = ["长文档", "合同全文"]


@pytest.mark.parametrize("verb", EN_VERB)
@pytest.mark.parametrize("thing", EN_SHORT)
def test_summarising_short_items_is_a_short_prompt(verb: str, thing: str) -> None:
    text = f"200 nurses will use gemma-3-27b to {verb} {thing}"
    assert read_use_case(prepare(text, None)) == "summarise_short", text


@pytest.mark.parametrize("text", ["email summaries for 40 people with qwen2.5-32b", "ticket summarisation on llama 3.1 8b",
                                  "notes summarization for our clinicians"])
def test_the_item_before_the_summary_is_short_too(text: str) -> None:
    assert read_use_case(prepare(text, None)) == "summarise_short"


@pytest.mark.parametrize("verb", EN_VERB)
@pytest.mark.parametrize("thing", EN_LONG)
def test_summarising_long_documents_stays_long(verb: str, thing: str) -> None:
    text = f"12 paralegals will use llama 3.1 70b to {verb} {thing}"
    assert read_use_case(prepare(text, None)) == "summarise", text


@pytest.mark.parametrize("thing", ZH_SHORT)
@pytest.mark.parametrize("template", ["200个护士用 gemma-3-27b 总结{t}", "用qwen2.5-32b给{t}做摘要", "{t}摘要，50人同时用"])
def test_chinese_short_items_are_short(template: str, thing: str) -> None:
    text = template.format(t=thing)
    assert read_use_case(prepare(text, None)) == "summarise_short", text


@pytest.mark.parametrize("thing", ZH_LONG)
def test_chinese_long_documents_stay_long(thing: str) -> None:
    assert read_use_case(prepare(f"律师用 qwen2.5-72b 做{thing}总结", None)) == "summarise"


def test_the_short_use_is_sized_short() -> None:
    short, long = use_case("summarise_short"), use_case("summarise")
    assert short is not None and long is not None
    assert short.prompt_tokens <= 4096 < long.prompt_tokens and short.context <= 8192 < long.context


HOSPITAL = ("hospital network here - 250 nurses and 80 physicians will use gemma-3-27b to summarize {what}. "
            "need p95 ttft under 1.5s. we already own 4x L40S, is that enough or do we need to rent more?")


def _profile(state) -> dict:
    p = state["profile"]
    return p.model_dump(exclude_defaults=True) if hasattr(p, "model_dump") else dict(p)


def _lines(state) -> list[str]:
    return [x for x in str(state["messages"][-1].content).split("\n") if x.strip()]


def test_shift_notes_stay_on_the_owned_cards() -> None:
    lines = _lines(run_states([HOSPITAL.format(what="shift notes")])[0])
    assert lines[0].startswith("**Yes**") and "4 × NVIDIA L40S" in lines[0], lines[0]
    head = next(x for x in lines if x.startswith("## "))
    assert head.startswith("## Use your 4 × NVIDIA L40S"), head
    serving = next(x for x in lines if x.startswith("**Serving**"))
    assert "3,072-token prompts" in serving and "8,192 tokens" in serving, serving
    assert not any(x.startswith("## Rent") for x in lines)


def test_a_long_report_missed_on_the_first_token_is_no_yes_above_a_rent_plan() -> None:
    lines = _lines(run_states([HOSPITAL.format(what="long reports")])[0])
    head = next(x for x in lines if x.startswith("## "))
    assert not head.startswith("## Use your"), head  # the owned cards miss the first token at 24,576 tokens
    assert lines[0].startswith("**No, not as asked**") and "4 × NVIDIA L40S" in lines[0], lines[0]
    assert "24,576-token prompts" in lines[0] and "1,500 ms" in lines[0]


def test_a_long_report_missed_is_said_no_in_chinese() -> None:
    text = "医院里250个护士用gemma-3-27b总结长文档，p95首token要在1.5秒内，我们已经有4张L40S，够不够"
    lines = _lines(run_states([text])[0])
    assert lines[0].startswith("**按要求不够**") and "L40S" in lines[0], lines[0]
    assert "first token" not in lines[0] and "prompts" not in lines[0] and "target" not in lines[0], lines[0]


# --- a correction of the owned machine's memory -------------------------------------------------------------------

ZH_FIX = ["不好意思记错了，是{m}g内存的", "记错了，是{m}g的", "我记错了，是{m}G内存的", "说错了，是{m}G的", "搞错了，是{m}g内存的",
          "不好意思记错了，是{m}g内存的，那能上14b吗"]
EN_FIX = ["actually it's the {m}gb one", "oh wait mine has {m}gb", "sorry, mine is {m}gb", "my bad, it's the {m}gb version",
          "oops actually its {m}gb of unified memory", "oh wait mine has {m}gb, can it run 14b?"]


@pytest.mark.parametrize("memory", [24, 36])
@pytest.mark.parametrize("template", ZH_FIX + EN_FIX)
def test_a_memory_put_right_is_read(template: str, memory: int) -> None:
    u = understand(template.format(m=memory))
    assert u.ask.get("memory_variant") == (float(memory), None), (u.ask, u.updates)
    assert not u.updates.get("owned")


MAC = {"zh": "我有台macbook air m2 16g的，想跑 deepseek-r1-distill-qwen-7b 写代码",
       "en": "i have a macbook air m2 16gb, want to run deepseek-r1-distill-qwen-7b for coding"}


@pytest.mark.parametrize(("lang", "fix"), [("zh", "不好意思记错了，是24g内存的，那能上14b吗"), ("zh", "记错了，是24g的"),
                                           ("en", "oh wait mine has 24gb, can it do 14b?"),
                                           ("en", "actually it's the 24gb one")])
def test_the_owned_mac_becomes_its_other_memory(lang: str, fix: str) -> None:
    states = run_states([MAC[lang], fix])
    assert _profile(states[0]).get("owned") == ["1x apple-m2-10c-16gb"]
    assert _profile(states[1]).get("owned") == ["1x apple-m2-10c-24gb"], _profile(states[1])
    head = next(x for x in _lines(states[1]) if x.startswith("## "))
    assert "24GB" in head and "16GB" not in head, head
    if "14b" in fix:
        assert _profile(states[1]).get("model") == "deepseek-r1-distill-qwen-14b"
        assert "q2_k" not in head.lower(), head  # 24 GB holds the 14B at 4 bits


# --- a small team named by job, in chat shorthand -----------------------------------------------------------------

@pytest.mark.parametrize(("said", "groups"), [
    ("3 backend engs + 6 sales ppl", [("engineer", 3), ("sales", 6)]),
    ("4 engs and 2 sales ppl", [("engineer", 4), ("sales", 2)]),
    ("2 ml engs, 5 sales people", [("engineer", 2), ("sales", 5)]),
])
@pytest.mark.parametrize("lead", ["we're a small startup, ", "we're a 9 person startup, ", ""])
def test_a_team_by_job_in_shorthand_is_counted(lead: str, said: str, groups: list) -> None:
    u = understand(f"{lead}{said}, want a self-hosted chat assistant on Qwen3-Next-80B-A3B. budget ~35k usd. rent or buy?")
    assert u.ask.get("user_groups") == groups, (u.ask, u.updates)
    total = sum(n for _j, n in groups)
    assert (u.updates.get("users") or u.updates.get("population")) == total, u.updates


def test_the_startup_is_not_asked_how_many_at_once() -> None:
    state = run_states(["we're a 9 person startup, 3 backend engs + 6 sales ppl, want a self-hosted chat assistant on "
                        "Qwen3-Next-80B-A3B. budget ~35k usd. rent or buy?"])[0]
    reply = str(state["messages"][-1].content)
    assert "How many people will chat with it at the same time" not in reply and "3 + 6 = 9" in reply, reply
    assert reply.startswith("## "), reply  # a plan, sized from the nine (tools.traffic's share at once, said)
