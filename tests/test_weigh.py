"""Candidates weighed on one card (assistant/reading/weigh.py, assistant/weigh.py): two formats of one model,
two sizes or two models, or "which model?" for a card. Generated in both languages: the reader finds the
question and its candidates whatever the order, spelling and connector; the reply compares them on the
card with the tools' figures, leads with the comparison (no sizing headline, no options table) and picks
one."""

from __future__ import annotations

import itertools
import re

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.reading.weigh import formats_weighed, sibling
from tests.conversation import payload, run_conversation, unexplained_numbers

HEADLINE = re.compile(r"^## (Rent|Buy|Use your|租用|购买|使用你)", re.MULTILINE)
TABLE = re.compile(r"^\| (option|方案) \|", re.MULTILINE)
CJK = re.compile(r"[\u3400-\u9fff]")

# (as typed, precision id)
FORMATS = [("fp8", "fp8"), ("FP8", "fp8"), ("awq int4", "awq"), ("AWQ", "awq"), ("q4", "q4_k_m"), ("Q4_K_M", "q4_k_m"),
           ("q8", "q8_0"), ("int8", "int8"), ("int4", "int4"), ("4-bit", "int4"), ("8bit", "int8"), ("bf16", "bf16"),
           ("gptq", "gptq-int4")]
PAIRS = [(a, b) for a, b in itertools.permutations(FORMATS, 2) if a[1] != b[1]][::3]
EN_CARDS = [("on my rtx 4090", "owned"), ("on an H20", "named"), ("i have 2x a100 80gb", "owned"), ("on my m3 ultra 256gb", "owned")]
ZH_CARDS = [("H20上", "named"), ("我有一张4090，", "owned"), ("两张A100上", "named"), ("mac studio m3 ultra 256g上", "named")]
MODELS = [("qwen3 32b", "qwen3-32b"), ("llama 3.1 70b", "llama-3.1-70b"), ("Qwen3-235B-A22B", "qwen3-235b-a22b")]
EN_ASK = ["serve {model} {card}: {a} or {b}?", "{a} vs {b} for {model} {card}, which is better?",
          "{card}, running {model} — how much quality do i lose with {b} vs {a}?", "{model} {card}. {a} or {b}"]
ZH_ASK = ["{card}跑{model}，用{a}好还是{b}好？", "{card}部署{model}，{a}和{b}哪个好", "{model} {card} {a}还是{b}",
          "{card}跑{model}用{b}会不会比{a}损失很多"]


def _format_cases():
    for (a, a_id), (b, b_id) in PAIRS:
        for template, (card, _kind), (model, _mid) in itertools.product(EN_ASK, EN_CARDS, MODELS):
            yield template.format(model=model, card=card, a=a, b=b), {a_id, b_id}
        for template, (card, _kind), (model, _mid) in itertools.product(ZH_ASK, ZH_CARDS, MODELS):
            yield template.format(model=model, card=card, a=a, b=b), {a_id, b_id}


FORMAT_CASES = list(_format_cases())


def test_the_generated_corpus_is_large():
    assert len(FORMAT_CASES) > 1000


@pytest.mark.parametrize("chunk", range(8))
def test_two_formats_on_a_card_are_weighed(chunk: int):
    wrong = []
    for text, expected in FORMAT_CASES[chunk::8]:
        u = understand(text)
        found = set((u.ask.get("weigh") or {}).get("precisions") or [])
        if "weigh" not in u.intents or found != expected or "precision" in u.updates:
            wrong.append((text, sorted(u.intents), found, u.updates.get("precision")))
    assert wrong == []


@pytest.mark.parametrize("text, expected", [
    ("用fp8量化好还是awq int4好", ["fp8", "awq"]),
    ("q4 vs fp8", ["q4_k_m", "fp8"]),
    ("4-bit or 8-bit", ["int4", "int8"]),
    ("Q4_K_M还是Q8_0", ["q4_k_m", "q8_0"]),
    ("deepseek r1 q4 or q2?", ["q4_k_m", "q2_k"]),
    ("qwen2.5 7b in bf16", ["bf16"]),
])
def test_formats_are_read_in_the_order_written_each_once(text: str, expected: list[str]):
    assert formats_weighed(text.lower()) == expected


SIZES_EN = ["{model} {a}b or {b}b on {card}, which one?", "{card}: {model} {a}b vs {b}b", "which is better on {card}, {model} {a}b or {b}b?"]
SIZES_ZH = ["{card} {model} {a}b和{b}b哪个合适", "{card}跑{model} {a}b还是{b}b", "{model}的{a}b跟{b}b，{card}上选哪个"]
FAMILIES = [("qwen3", "qwen3-{n}b", (8, 14, 32)), ("qwen2.5", "qwen2.5-{n}b", (7, 14, 32, 72)),
            ("llama 3.1", "llama-3.1-{n}b", (8, 70))]
SIZE_CARDS = ["my rtx 4090", "an L40S", "mac mini m4 24g", "我的3090"]


def _size_cases():
    for (family, pattern, sizes), card in itertools.product(FAMILIES, SIZE_CARDS):
        for a, b in itertools.permutations(sizes, 2):
            for template in SIZES_EN + SIZES_ZH:
                yield template.format(model=family, a=a, b=b, card=card), [pattern.format(n=a), pattern.format(n=b)]


SIZE_CASES = list(_size_cases())


def test_two_sizes_of_one_model_on_a_card_are_weighed():
    wrong = []
    for text, expected in SIZE_CASES:
        u = understand(text)
        found = (u.ask.get("weigh") or {}).get("models")
        if "weigh" not in u.intents or found != expected or u.updates.get("model") != expected[0]:
            wrong.append((text, found, u.updates.get("model")))
    assert len(SIZE_CASES) > 200
    assert wrong == []


def test_a_size_the_line_lacks_is_its_base_line_and_said():
    assert sibling("qwen2.5-coder-7b", 32) == "qwen2.5-coder-32b"
    assert sibling("qwen2.5-coder-7b", 14) == "qwen2.5-14b"
    u = understand("mac mini m4 24g lm studio qwen2.5-coder 14b和32b哪个合适")
    weigh = u.ask["weigh"]
    assert weigh["models"] == ["qwen2.5-14b", "qwen2.5-coder-32b"]
    assert weigh["stand_in"] == {"qwen2.5-14b": "Qwen2.5-Coder 14B"}


WHICH_EN = ["which model should i use on my {card}?", "what model should i run on {card}", "best model for {card}?",
            "{card} — what can i run?"]
WHICH_ZH = ["{card} 用什么模型好", "{card}跑什么模型", "我有{card}，推荐个模型", "{card}能跑哪个模型"]


@pytest.mark.parametrize("card", ["rtx 4090", "rtx 3060 12gb", "rtx 3090", "mac mini m4 24g", "L20"])
def test_which_model_for_a_card_is_weighed_in_both_languages(card: str):
    for text in [t.format(card=card) for t in WHICH_EN + WHICH_ZH]:
        u = understand(text)
        assert "weigh" in u.intents and u.ask["weigh"]["which_model"], text


@pytest.mark.parametrize("text", [
    "serve qwen3 32b in fp8 to 40 users on H20",
    "H20上部署qwen3-32b，fp8，并发45",
    "int4 or int8?",
    "what's the difference between fp8 and int8?",
    "serve llama 3.1 8b to 20 users",
    "which model is best for legal drafting?",
    "can i fine-tune qwen 7b with 4-bit qlora on my 4090 and serve it in bf16?",
    "4张4090 微调qwen2.5 7b还是14b",
    "serve llama 3.1 70b on 2 a100 in int8, not int4",
])
def test_a_sizing_request_or_a_question_with_no_card_is_not_weighed(text: str):
    assert "weigh" not in understand(text).intents


# ---------------------------------------------------------------- replies, through the graph


def _reply(text: str):
    reply = run_conversation([text])[-1]
    data = payload(reply)
    assert data["kind"] == "info" and data.get("topic") == "weigh", reply.content
    assert not HEADLINE.search(reply.content) and not TABLE.search(reply.content), reply.content
    assert unexplained_numbers(reply.content, data["results"]) == [], reply.content
    return reply.content, data["results"]


def test_q4_against_fp8_on_an_m3_ultra_says_8_bit_does_not_fit():
    text, results = _reply("how much quality do you actually lose running qwen3 235b a22b at q4 vs fp8? "
                           "i have an m3 ultra 256gb")
    rows = {r["precision_asked"]: r for r in results["weigh"]}
    assert rows["q4_k_m"]["ok"] and rows["fp8"]["serves"] is False
    assert rows["fp8"]["precision"] == "q8_0"  # the 8-bit format the Mac runs
    assert "does not fit" in text and "close to lossless" in text and "loses a little" in text
    assert results["pick"]["precision"] == "q4_k_m"
    assert not CJK.search(text)


def test_fp8_against_awq_on_h20_for_45_users_keeps_the_card_and_picks_fp8():
    text, results = _reply("H20上跑qwen3-32b，用fp8量化好还是awq int4好？并发四五十，框架sglang")
    assert {r["precision_asked"] for r in results["weigh"]} == {"fp8", "awq"}
    assert all(r["engine"] == "sglang" for r in results["weigh"])
    assert results["pick"] == {"model": "qwen3-32b", "precision": "fp8", "gpus": 2}
    assert "H20" in text and "A800" not in text
    assert "几乎无损" in text and "少量损失" in text


def test_14b_against_32b_on_a_24_gb_mac_mini_picks_the_14b_and_names_the_coder():
    text, results = _reply("mac mini m4 24g lm studio qwen2.5-coder 14b和32b哪个合适")
    assert [r["model"] for r in results["weigh"]] == ["qwen2.5-14b", "qwen2.5-coder-32b"]
    assert results["pick"]["model"] == "qwen2.5-14b"
    assert "Qwen2.5-Coder 14B" in text and "Qwen2.5-Coder 32B" in text
    assert "iq2" not in text.lower()


def test_which_model_on_a_12_gb_card_suggests_models_that_fit_and_says_speech_is_not_sized():
    text, results = _reply("3060 12g 陪我练英语口语 用什么模型好")
    assert results["weigh"] and all(r["ok"] for r in results["weigh"])
    assert all(r["serve_per_gpu_bytes"] < r["capacity_bytes"] for r in results["weigh"])
    assert "语音识别" in text and "Whisper" in text
    assert "RTX 3060" in text


def test_which_model_in_english_ends_with_an_offer_not_a_slot_question():
    reply = run_conversation(["which model should i run on my rtx 3090?"])[-1]
    data = payload(reply)
    assert data["topic"] == "weigh" and not data.get("slot")
    assert "Say which one to size in full" in reply.content


def test_a_format_between_the_two_asked_is_offered_when_the_larger_does_not_fit():
    # (DeepSeek R1's Q4_K_M now fits a 512 GB M3 Ultra, sized by its real tensors: a 70B on 64 GB is the case)
    text, results = _reply("on my macbook pro m3 max 64gb, llama 3.3 70b q8 or q2?")
    rows = {r["precision"]: r for r in results["weigh"]}
    assert not rows["q8_0"]["ok"] and rows["q2_k"]["ok"] and rows["q3_k_m"]["ok"]
    assert results["pick"]["precision"] == "q3_k_m"
    assert "below 4 bits the loss is noticeable" in text
