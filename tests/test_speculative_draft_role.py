"""A model named as speculative decoding's draft is the draft, not the model to serve ('is speculative decoding w/
llama 3.1 8b as draft worth it for 70b on 2x a6000?' was sized as Llama 3.1 8B against 70B side by side), and 'why
does my tokens/s per user drop when more users hit vllm?' is a concept question answered in the user's language,
beside a sizing when both are asked (session 29, specdec)."""

from __future__ import annotations

import re

import pytest

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.reading.user_speed import TOPIC
from gpu_advisor.assistant.spec_verdict import draft_verdict_lines, verdict_code
from gpu_advisor.assistant.writers import glossary_reply
from gpu_advisor.knowledge import find_model, glossary
from gpu_advisor.knowledge.speculative import speculative_methods
from gpu_advisor.tools.common import ToolError
from gpu_advisor.tools.recommend import Recommendation, Workload, recommend
from gpu_advisor.tools.speculative import SpeculativeInput, speculative
from tests.conversation import run_states

CJK = re.compile(r"[\u4e00-\u9fff]")

# (draft as typed, draft id, target as typed, target id): drafts of 8B, 3B, 1B and 0.5B; targets of 70B and 32B, by
# full name and by a bare size the draft's family gives its line
PAIRS = [
    ("llama 3.1 8b", "llama-3.1-8b", "70b", "llama-3.1-70b"),
    ("Llama-3.1-8B", "llama-3.1-8b", "llama 3.1 70b", "llama-3.1-70b"),
    ("llama 3.2 1b", "llama-3.2-1b", "llama 3.3 70b", "llama-3.3-70b"),
    ("llama3.2 3b", "llama-3.2-3b", "Llama 3.1 70B", "llama-3.1-70b"),
    ("qwen2.5 0.5b", "qwen2.5-0.5b", "32b", "qwen2.5-32b"),
    ("Qwen2.5-1.5B", "qwen2.5-1.5b", "qwen2.5 32b", "qwen2.5-32b"),
]
# the draft before the target and after it, in English and Chinese; {cards}: none, cards to use, cards owned
EN = [
    "is speculative decoding w/ {d} as draft worth it for {t}{cards}?",
    "{t}{cards} with {d} as the draft model, worth it?",
    "draft model {d} for {t}{cards}",
    "serve {t}{cards}, {d} as a draft",
    "with {d} as the draft, how fast is {t}{cards}?",
]
ZH = [
    "用{d}做草稿模型给{t}加速{cards}，值得吗",
    "{t}{cards}用{d}当draft",
    "{t} 投机解码 {d} 草稿{cards}",
    "草稿模型用{d}，目标是{t}{cards}",
]
CARDS_EN = ["", " on 2x a6000", " on my two 4090s"]
CARDS_ZH = ["", "，2张A6000", "，我有两张4090"]


def _cases() -> list[tuple[str, str, str]]:
    out = []
    for d, d_id, t, t_id in PAIRS:
        for tpl in EN:
            out += [(tpl.format(d=d, t=t, cards=c), d_id, t_id) for c in CARDS_EN]
        for tpl in ZH:
            out += [(tpl.format(d=d, t=t, cards=c), d_id, t_id) for c in CARDS_ZH]
    return out


@pytest.mark.parametrize(("text", "draft", "target"), _cases())
def test_the_draft_is_recorded_as_the_draft_and_the_other_model_is_served(text: str, draft: str, target: str) -> None:
    u = understand(text, None)
    assert u.updates.get("model") == target, (text, u.updates)
    assert u.updates.get("draft_model") == draft, (text, u.updates)
    assert u.updates.get("speculative") == "draft"
    assert u.updates.get("phase") == "serve"


@pytest.mark.parametrize("text", [
    "is eagle3 as the draft worth it for llama 3.3 70b on 2x h100?",
    "llama 3.3 70b 用 eagle3 头当草稿，两张h100值不值",
    "llama 3.3 70b with an eagle head as the drafter",
    "EAGLE-3 as draft for Llama 3.3 70B",
])
def test_an_eagle_head_named_as_the_draft_is_the_eagle3_method_and_no_model(text: str) -> None:
    u = understand(text, None)
    assert u.updates.get("model") == "llama-3.3-70b"
    assert u.updates.get("speculative") == "eagle3"
    assert "draft_model" not in u.updates


@pytest.mark.parametrize("text", [
    "8b as draft for llama 3.1 70b",
    "用8B当草稿给llama 3.1 70b加速",
])
def test_a_draft_said_as_a_size_is_the_served_models_line_at_that_size(text: str) -> None:
    u = understand(text, None)
    assert (u.updates.get("model"), u.updates.get("draft_model")) == ("llama-3.1-70b", "llama-3.1-8b")


@pytest.mark.parametrize("text", [
    "serve llama 3.1 70b with speculative decoding, draft model",
    "compare llama 3.1 8b and llama 3.1 70b on 2x a6000",
    "llama 3.1 70b, I drafted a plan for 20 users",
])
def test_no_draft_named_no_draft_recorded(text: str) -> None:
    assert "draft_model" not in understand(text, None).updates


def _plan(draft: str, model: str = "llama-3.1-70b", cards: str = "2x rtx-a6000", users: int = 1) -> Recommendation:
    return recommend(Workload(phase="serve", model=model, users=users, context=8192, candidates=[cards],
                              speculative="draft", draft_model=draft))


@pytest.mark.parametrize(("draft", "smaller"), [
    ("llama-3.1-8b", "llama-3.2-1b"),  # 11% of the 70B: large, the family's 1B suggested
    ("llama-3.2-3b", None),  # 4.5%: within share_max
    ("llama-3.2-1b", None),  # the family's own draft
])
def test_the_named_draft_is_sized_at_one_request_with_and_without_it(draft: str, smaller: str | None) -> None:
    rec = _plan(draft)
    s = rec.speculative
    assert s is not None and s.refused is None and s.named == draft and s.one is not None
    assert s.one.draft == find_model(draft).name
    assert s.one.draft_share == pytest.approx(find_model(draft).total_params_b / find_model("llama-3.1-70b").total_params_b)
    assert s.tokens_per_s_one and s.tokens_per_s_one_with
    assert s.tokens_per_s_one_with == pytest.approx((s.tokens_per_s_one * s.one.speedup[0],
                                                     s.tokens_per_s_one * s.one.speedup[1]))
    assert s.one.acceptance == speculative_methods()["draft"].acceptance
    assert [b for b, _lo, _hi in s.one.speedup_by_batch] == [1, 8, 32, 128]
    assert s.one.speedup_by_batch[-1][1] < s.one.speedup_by_batch[0][1]  # the gain shrinks with the load
    assert (s.smaller.draft if s.smaller else None) == (find_model(smaller).name if smaller else None)
    if s.smaller is not None:
        assert s.smaller.speedup[0] > s.one.speedup[0] and s.smaller.draft_bytes < s.one.draft_bytes
        assert verdict_code(rec) == "smaller"


def test_the_8b_draft_for_70b_on_two_a6000_says_the_verdict_section_in_both_languages() -> None:
    rec = _plan("llama-3.1-8b")
    assert rec.best is not None and rec.best.engine in ("vllm", "sglang")  # one user, sized on an engine that runs it
    for lang in ("en", "zh"):
        lines = draft_verdict_lines(rec, lang)
        head = say(lang, "spec_verdict.head", draft="Llama 3.1 8B", model=rec.model_name,
                   cards=f"{rec.best.gpus:,} × {rec.best.gpu_name}")
        assert lines[0] == head
        text = "\n".join(lines)
        assert "Llama 3.2 1B" in text  # the smaller draft of the family
        assert bool(CJK.search(text)) == (lang == "zh")


def test_a_draft_that_does_not_fit_beside_the_model_says_so() -> None:
    rec = _plan("llama-3.1-8b", users=20)
    s = rec.speculative
    assert s is not None and s.fits is False
    assert verdict_code(rec) == "fits_not"


@pytest.mark.parametrize(("draft", "model"), [("llama-3.2-1b", "qwen2.5-32b"), ("qwen2.5-0.5b", "llama-3.1-70b"),
                                              ("llama-3.1-70b", "llama-3.1-8b")])
def test_a_draft_of_another_tokenizer_or_not_smaller_is_refused(draft: str, model: str) -> None:
    with pytest.raises(ToolError):
        speculative(SpeculativeInput(model=model, method="draft", gpu="h100-sxm", draft=draft))
    rec = _plan(draft, model=model, cards="2x h100-sxm")
    assert rec.speculative is not None and rec.speculative.refused == "tokenizer"


def test_the_same_tokenizer_padded_to_another_vocabulary_drafts() -> None:
    r = speculative(SpeculativeInput(model="qwen2.5-32b", method="draft", gpu="h100-sxm", draft="qwen2.5-0.5b"))
    assert r.draft == "Qwen2.5 0.5B"


# --- why each user's tokens/s drops as more users share the server

CONCEPT = [
    ("eli5 why does my tokens/s per user drop when more users hit vllm?", "en"),
    ("ELI5: why is each user slower when more people use the server at the same time?", "en"),
    ("why does per-user tokens/s drop when concurrency rises?", "en"),
    ("how come speed per request goes down with more concurrent requests in sglang", "en"),
    ("explain why throughput per user falls as the batch size increases", "en"),
    ("为什么并发一多每个用户的速度就掉", "zh"),
    ("人多了单用户 token/s 下降", "zh"),
    ("并发上去以后每个人的速度变慢是为什么", "zh"),
    ("用户多了，单个用户的输出速率下降，原因是什么？", "zh"),
]


@pytest.mark.parametrize(("text", "lang"), CONCEPT)
def test_the_per_user_speed_question_is_the_concept(text: str, lang: str) -> None:
    u = understand(text, None)
    assert u.topic == TOPIC and "explain" in u.intents, (text, u.topic, u.intents)
    assert not u.updates and u.also is None


@pytest.mark.parametrize("text", [
    "I need 20 tokens/s per user for 50 users on vllm",
    "serve llama 3.1 8b for more users, speed per user must not drop below 20 tok/s",
    "每个用户至少要 20 token/s，并发 50 人",
])
def test_a_speed_floor_with_many_users_is_no_concept_question(text: str) -> None:
    u = understand(text, None)
    assert u.topic != TOPIC and TOPIC not in (u.aside or "")


def test_the_glossary_entry_has_both_languages() -> None:
    entry = next(g for g in glossary() if g.id == TOPIC)
    assert entry.title_en and CJK.search(entry.zh) and not CJK.search(entry.en)


@pytest.mark.parametrize(("text", "lang"), [CONCEPT[0], CONCEPT[5]])
def test_the_concept_alone_is_answered_in_the_users_language(text: str, lang: str) -> None:
    state = run_states([text])[-1]
    reply = str(state["messages"][-1].content)
    assert glossary_reply(TOPIC, lang) in reply
    assert "vLLM**:" not in reply  # not the serving engines' list
    assert bool(CJK.search(reply)) == (lang == "zh")


COMBINED = [
    ("eli5 why does my tokens/s per user drop when more users hit vllm? and is speculative decoding w/ llama 3.1 8b "
     "as draft worth it for 70b on 2x a6000?", "en", "llama-3.1-70b", "llama-3.1-8b"),
    ("用户多了单个用户速度下降的原因是什么？另外用llama 3.2 1b当draft给llama 3.1 70b加速，2张A100值得吗", "zh",
     "llama-3.1-70b", "llama-3.2-1b"),
]


@pytest.mark.parametrize(("text", "lang", "target", "draft"), COMBINED)
def test_the_concept_and_the_draft_verdict_are_both_answered(text: str, lang: str, target: str, draft: str) -> None:
    u = understand(text, None)
    assert TOPIC in (u.aside or "").split("+")
    state = run_states([text])[-1]
    reply = str(state["messages"][-1].content)
    assert (state["profile"]["model"], state["profile"]["draft_model"]) == (target, draft)
    assert glossary_reply(TOPIC, lang) in reply
    rec = Recommendation.model_validate(state["messages"][-1].additional_kwargs["gpu_advisor"]["results"]["recommend"])
    assert rec.speculative is not None and rec.speculative.named == draft
    assert verdict_code(rec) is not None
    assert draft_verdict_lines(rec, lang)[0] in reply
    assert say(lang, f"spec_verdict.verdict.{verdict_code(rec)}", draft=find_model(draft).name, model=rec.model_name,
               small=rec.speculative.smaller.draft if rec.speculative.smaller else "") in reply
    assert bool(CJK.search(reply)) == (lang == "zh")  # a Chinese reply keeps the model names and commands
