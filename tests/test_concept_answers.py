"""Questions that are no sizing request, answered from knowledge (review s13 concept3): whether a card runs a number
format ('A100上能跑FP8吗'), how two cards differ and why some cannot be bought in China ('H20和H800到底有啥区别？为啥
国内买不到H100'), a question asked out of curiosity ('just curious, not buying anything': answered, nothing asked
back, no wish to rent read), and a context beyond what the model reads ('llama 3 70b at 32k')."""

from __future__ import annotations

import re

import pytest

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.context_beyond import siblings
from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import find_gpu
from gpu_advisor.knowledge.export_rules import china_status, export_rules
from tests.conversation import payload, run_conversation, run_states, unexplained_numbers

CJK = re.compile(r"[\u4e00-\u9fff]")

# ---------------------------------------------------------------- can card X run format Y

RUN_EN = ["can the {card} run {fmt}?", "does the {card} support {fmt}", "is {fmt} supported on the {card}?",
          "{fmt} on a {card}, does that work?"]
RUN_ZH = ["{card}上能跑{fmt}吗", "{card}能不能跑{fmt}", "{card}支持{fmt}吗", "{fmt}能在{card}上跑吗"]
CASES = [  # (card as typed, format as typed, card id, the support code)
    ("A100", "FP8", "a100-80gb-sxm", "weight_only"),
    ("H100", "fp8", "h100-sxm", "native"),
    ("4090", "FP8", "rtx-4090", "native"),
    ("L40S", "fp8", "l40s", "native"),
    ("V100", "fp8", "v100-sxm2-32gb", "none"),
    ("V100", "bf16", "v100-sxm2-32gb", "none"),
    ("B200", "FP4", "b200", "native"),
    ("H100", "fp4", "h100-sxm", "weight_only"),
    ("3090", "int4", "rtx-3090", "weight_only"),
    ("A100", "INT8", "a100-80gb-sxm", "native"),
]


@pytest.mark.parametrize("template", RUN_EN + RUN_ZH)
@pytest.mark.parametrize("card,fmt,gpu_id,code", CASES)
def test_can_a_card_run_a_format_is_answered_from_the_card_data(template, card, fmt, gpu_id, code):
    """'A100上能跑FP8吗', 'can the 3090 run int4?': the card's support answer with its code (native, weight_only,
    none), in the language asked, never a question for the model."""
    text = template.format(card=card, fmt=fmt)
    p = payload(reply := run_conversation([text], thread="run-" + text)[0])
    assert p["kind"] == "info" and p["topic"] == "card_support", reply.content
    rows = p["results"]["support"]
    assert [(r["gpu"], r["code"]) for r in rows] == [(gpu_id, code)], reply.content
    assert bool(CJK.search(reply.content)) == bool(CJK.search(template))


@pytest.mark.parametrize("text,lang", [
    ("FP8和INT4量化有啥区别？部署72b模型选哪个好，精度损失大概多少，A100上能跑FP8吗", "zh"),
    ("部署72b，fp8还是int4好？A100能不能跑fp8？", "zh"),
    ("fp8 vs int4 for a 72b model, which loses less quality? and can the a100 even run fp8?", "en"),
])
def test_a_run_question_beside_a_format_choice_is_answered_too(text, lang):
    """The support question asked beside a format comparison is answered in the same reply (no FP8 math on the
    A100), not dropped."""
    assert understand(text).ask["support"] == {"formats": ["fp8"], "cards": ["a100-80gb-sxm"]}
    reply = run_conversation([text], thread="beside-" + text)[0]
    assert say(lang, "fup.support.fp8_no_math", gpu=find_gpu("a100-80gb-sxm").name) in reply.content


@pytest.mark.parametrize("text", ["A100能跑llama 70b吗", "can a 4090 run a 70b model in int4?", "4090能跑qwen 32b int4吗"])
def test_a_model_on_a_card_stays_a_fit_check(text):
    assert "card_support" not in understand(text).intents


# ---------------------------------------------------------------- how two cards differ, and the export rules

DIFF_EN = ["what's the difference between the {a} and the {b}?", "how does the {a} differ from the {b}",
           "{a} vs {b}, whats the diffrence"]
DIFF_ZH = ["{a}和{b}有啥区别", "{a}跟{b}差在哪", "{a}和{b}的区别是什么？问问而已"]
PAIRS = [("H20", "H800", "h20", "h800-sxm"), ("A100", "A800", "a100-80gb-sxm", "a800-80gb-sxm"),
         ("L40S", "L20", "l40s", "l20"), ("4090", "4090D", "rtx-4090", "rtx-4090d"), ("H100", "H200", "h100-sxm", "h200")]


@pytest.mark.parametrize("template", DIFF_EN + DIFF_ZH)
@pytest.mark.parametrize("a,b,a_id,b_id", PAIRS)
def test_a_difference_question_gets_the_spec_table_with_china_status_and_no_prices(template, a, b, a_id, b_id):
    text = template.format(a=a, b=b)
    p = payload(reply := run_conversation([text], thread="diff-" + text)[0])
    assert p["kind"] == "info" and p["topic"] == "compare_cards", reply.content
    assert [c["id"] for c in p["results"]["cards"]] == [a_id, b_id]
    assert p["results"]["market"] == {a_id: china_status(a_id), b_id: china_status(b_id)}
    assert "$" not in reply.content and "¥" not in reply.content, reply.content  # no prices unless asked
    assert unexplained_numbers(reply.content, p["results"]) == [], reply.content


@pytest.mark.parametrize("text", ["H20和H800到底有啥区别？为啥国内买不到H100，问问而已",
                                  "what's the difference between the h20 and the h800? and why cant china buy the h100"])
def test_a_difference_and_an_export_question_are_both_answered(text):
    """The original review turn: the H20/H800 table, then the dated export rules behind H100, H800 and H20."""
    p = payload(reply := run_conversation([text], thread="both-" + text)[0])
    assert p["topic"] == "compare_cards", reply.content
    assert [c["id"] for c in p["results"]["cards"]] == ["h20", "h800-sxm"]
    export = p["results"]["export"]
    assert export["rules"] == ["us-2022-10", "us-2023-10", "us-2025-04"]
    # the H20 stands under its licence requirement (uncertain, said once), never 'barred' (round G advice item 1)
    assert export["status"] == {"h20": "licence", "h800-sxm": "barred", "h100-sxm": "barred"}
    assert "$" not in reply.content and "¥" not in reply.content
    assert unexplained_numbers(reply.content, p["results"]) == [], reply.content


@pytest.mark.parametrize("text,card", [
    ("为什么国内买不到H100", "h100-sxm"), ("H100为啥禁售", "h100-sxm"), ("is the h100 banned in china?", "h100-sxm"),
    ("why cant china buy the h100", "h100-sxm"), ("H20出口管制是怎么回事", "h20"), ("what are the export rules for the a800?",
                                                                               "a800-80gb-sxm"),
])
def test_why_a_card_cannot_be_bought_in_china_gets_the_export_rules(text, card):
    p = payload(reply := run_conversation([text], thread="export-" + text)[0])
    standing = "licence" if card == "h20" else "barred"  # (round G advice item 1: the H20's licence caveat)
    assert p["topic"] == "availability" and p["results"]["export"]["status"] == {card: standing}, reply.content
    assert p["results"]["export"]["rules"], reply.content
    assert set(p["results"]["export"]["sold"]) >= {"l20", "rtx-4090d"}
    assert unexplained_numbers(reply.content, p["results"]) == [], reply.content


@pytest.mark.parametrize("text", ["compare L40S and A100", "h20 vs h800"])
def test_a_plain_comparison_still_weighs_prices(text):
    """'compare X and Y', 'X vs Y': a comparison that weighs prices (the price rows stay), not a difference question."""
    reply = run_conversation([text], thread="cmp-" + text)[0]
    assert "market" not in payload(reply)["results"] and "$" in reply.content


def test_export_rules_are_dated_sourced_and_name_cards_on_record():
    for rule in export_rules():
        assert rule.source.startswith("https://") and rule.as_of
        for gpu_id in rule.barred + rule.made_for_china:
            find_gpu(gpu_id)
    assert china_status("h800-sxm") == "barred" and china_status("l20") == "made_for"


# ---------------------------------------------------------------- just curious: answered, nothing asked back

CURIOUS = [
    "whats the actual diffrence between HBM3 and GDDR6X, why does it matter for llms? just curious not buying anything",
    "just curious, what is a kv cache?",
    "what is tensor parallelism? just wondering, not buying anything",
    "not buying anything, whats the difference between lora and qlora",
    "no plans to buy, what is fp8?",
    "not planning to buy anything, what does quantization do?",
    "out of curiosity, why does HBM matter for llms?",
    "why is nvlink important? just curious",
    "HBM3和GDDR6X有啥区别，问问而已",
    "问问而已，KV cache是啥",
    "只是好奇，显存带宽是什么意思",
    "LoRA和QLoRA有什么区别？纯粹好奇",
    "FP8是什么？就问问",
    "为什么NVLink重要？只是问问",
    "量化是干嘛的，单纯问问",
]


@pytest.mark.parametrize("text", CURIOUS)
def test_a_question_asked_out_of_curiosity_is_answered_with_nothing_asked_back(text):
    state = run_states([text], thread="curious-" + text)[0]
    p = payload(reply := state["messages"][-1])
    assert p["kind"] == "info", reply.content
    assert not state["profile"].get("preference"), reply.content  # 'not buying anything' is no wish to rent
    assert not state["profile"].get("phase"), reply.content
    assert bool(CJK.search(reply.content)) == bool(CJK.search(text))


# ---------------------------------------------------------------- a context beyond what the model reads

@pytest.mark.parametrize("turns,lang", [
    (["serve llama 3 70b at 32k context"], "en"),
    (["I want to run Llama-3-70B with a 32k context window"], "en"),
    (["serve llama 3 70b", "32k context"], "en"),
    (["32k context", "llama 3 70b"], "en"),
    (["部署llama 3 70b，上下文32k"], "zh"),
    (["用 Llama 3 70B 做长文档问答，上下文 32k，20 个人用"], "zh"),
])
def test_a_context_beyond_the_model_is_said_with_the_sibling_that_reads_it(turns, lang):
    reply = run_conversation(turns, thread="ctx-" + turns[-1])[-1]
    expected = say(lang, "note.context_beyond", model="Llama 3 70B", limit="8,192", asked="32,768",
                   others=say(lang, "list_sep").join(["Llama 3.1 70B", "Llama 3.3 70B"]), reach="131,072")
    assert expected in reply.content, reply.content


def test_a_context_within_the_model_gets_no_such_note():
    reply = run_conversation(["serve llama 3.1 70b at 32k context"], thread="ctx-ok")[0]
    assert "8,192" not in reply.content


def test_siblings_are_the_same_size_and_layout():
    assert [m.id for m in siblings("llama-3-70b", 32768)] == ["llama-3.1-70b", "llama-3.3-70b"]
    assert [m.id for m in siblings("llama-3-8b", 65536)] == ["llama-3.1-8b"]
    assert siblings("llama-2-13b", 16384) == []
