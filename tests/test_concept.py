"""Concept questions about one's own card or a model, no load given (session 15, helper 'concept'): answered from
the knowledge data and the tools on what was named; no model the user never named is sized, none is picked."""

from __future__ import annotations

import pytest

from tests.conversation import run_conversation

CARDS = {"a100": ("a100", False), "A100 80GB": ("a100", False), "4090": ("rtx-4090", True), "H100": ("h100", True)}

FORMATS_EN = [
    "can someone explain fp8 vs int4 (awq/gptq) for serving? like quality and speed wise, and does my {card} even support fp8",
    "does my {card} support fp8? and fp8 vs int4, quality and speed wise?",
    "i have a {card}. awq or fp8 for serving, which is better?",
    "so um, int4 vs fp8 on my {card} - how do they compare speed and quality",
]
FORMATS_ZH = [
    "fp8和int4量化有啥区别，我的{card}支持fp8吗",
    "我的{card}支持fp8吗？fp8和awq选哪个",
    "我有一张{card}，int4跟fp8在速度和质量上差多少",
]


def _result(msg):
    return ((msg.additional_kwargs or {}).get("gpu_advisor") or {}).get("results") or {}


@pytest.mark.parametrize("card", list(CARDS))
@pytest.mark.parametrize("text", FORMATS_EN + FORMATS_ZH)
def test_formats_on_own_card_size_no_unnamed_model(text: str, card: str) -> None:
    msg = run_conversation([text.format(card=card)])[0]
    data = _result(msg)
    concept = data.get("format_concept")
    assert concept, msg.content
    gpu_id, fp8 = CARDS[card]
    assert concept["gpu"].startswith(gpu_id)
    assert concept["fp8_native"] is fp8
    assert concept["models_sized"] == []
    assert "pick" not in data
    assert set(concept["formats"]) & {"fp8"} and any(f in concept["formats"] for f in ("int4", "awq", "gptq-int4"))
    verdict = data.get("precision_verdict") or {}
    assert verdict.get("loses_more") in ("int4", "awq", "gptq-int4")
    zh = any("\u4e00" <= ch <= "\u9fff" for ch in text)
    assert any("\u4e00" <= ch <= "\u9fff" for ch in msg.content) is zh
    if not fp8:
        assert concept["fp8_path"] == "weight_only" and concept["int8_native"]


@pytest.mark.parametrize("text", [
    "can someone explain fp8 vs int4 (awq/gptq) for serving? like quality and speed wise",
    "int4 vs fp8, how do they compare speed and quality?",
    "FP8和INT4在速度和质量上差多少",
    "awq、gptq和fp8在速度和质量上有啥不同",
])
def test_formats_without_card_weighed(text: str) -> None:
    msg = run_conversation([text])[0]
    data = _result(msg)
    assert (data.get("precision_verdict") or {}).get("loses_more") in ("int4", "awq", "gptq-int4"), msg.content
    assert "pick" not in data


def test_formats_with_model_still_sized() -> None:
    msg = run_conversation(["fp8 vs int4 for llama 3.1 70b on my H100, which is better?"])[0]
    data = _result(msg)
    assert "format_concept" not in data
    assert isinstance(data.get("weigh"), list) and data["weigh"]


MOE_WHY = [
    "why does a MoE need memory for all params but runs at the speed of the active ones? how fast is qwen3 30b a3b on {card}",
    "how fast is qwen3-30b-a3b on {card}? and why is a moe fast when it needs so much vram, only 3b active",
    "想问下 MoE 模型部署的时候，为什么显存要按总参数算，但速度按激活参数算？那 qwen3-30b-a3b 用{card_zh}跑大概多快",
    "qwen3-30b-a3b 用{card_zh}跑多快？为啥显存按总参数算速度却按激活参数算",
]
MOE_CARDS = [("a 4090", "一张 4090", "rtx-4090"), ("one RTX 3090", "一张3090", "rtx-3090"), ("my 4090", "我的4090", "rtx-4090")]


@pytest.mark.parametrize("card,card_zh,gpu_id", MOE_CARDS)
@pytest.mark.parametrize("text", MOE_WHY)
def test_moe_why_answered_with_speed_on_card(text: str, card: str, card_zh: str, gpu_id: str) -> None:
    msg = run_conversation([text.format(card=card, card_zh=card_zh)])[0]
    data = _result(msg)
    moe = data.get("moe")
    assert moe and moe["model"] == "qwen3-30b-a3b", msg.content
    assert moe["active_params_b"] < moe["total_params_b"] / 5
    ref = data["reference"]
    assert ref["asked"] and ref["gpu_id"] == gpu_id and ref["gpus"] == 1 and ref["ok"]
    assert ref["precision"] == "q4_k_m" and ref["tokens_per_s"] > 50
    zh = any("\u4e00" <= ch <= "\u9fff" for ch in text)
    assert any("\u4e00" <= ch <= "\u9fff" for ch in msg.content) is zh


@pytest.mark.parametrize("text", [
    "why does R1 run like a 37B model but need 671B of memory?",
    "why does R1 run like a 37B model but need 671B of memory? what speed on 8x H100",
    "deepseek v3 只激活37b，为什么要8张H200才放得下？速度按多少算",
])
def test_moe_why_big_model(text: str) -> None:
    msg = run_conversation([text])[0]
    data = _result(msg)
    assert (data.get("moe") or {}).get("model", "").startswith("deepseek"), msg.content
    assert data["reference"]["gpus"] == 8 and data["reference"]["tokens_per_s"] > 0
    assert "pick" not in data


def test_moe_why_no_full_finetune_misread() -> None:
    states_msg = run_conversation(["why does qwen3 30b a3b need memory for all params but runs at the speed of the active ones?"])[0]
    assert _result(states_msg).get("moe"), states_msg.content
    assert "full fine-tuning" not in states_msg.content


LOOSE = ["i have a 4090 16gb, run qwen 14b?", "got a 4090 16gb here, can it run qwen14b", "run Qwen 14B on my 4090 16gb?",
         "我有一张4090 16g，能跑qwen 14b吗", "qwen 14b 在我的 4090 16g 上能跑吗"]


@pytest.mark.parametrize("text", LOOSE)
def test_loose_family_name_resolved_and_named_in_headline(text: str) -> None:
    from tests.conversation import run_states

    state = run_states([text])[0]
    assert state["profile"]["model"] == "qwen3-14b"  # the newest Qwen line with a 14B
    assert state["profile"]["owned"] == ["1x rtx-4090-laptop"]
    heading = next(line for line in state["messages"][-1].content.splitlines() if line.startswith("## "))
    assert "Qwen3 14B" in heading  # the headline says which Qwen it took


@pytest.mark.parametrize("text", ["i have a v100, awq or fp8 which is better?", "我有张V100，awq和fp8选哪个",
                                  "q4 vs fp8 on my M3 Ultra?", "my m3 ultra: fp8 or q4, quality and speed?"])
def test_formats_on_card_without_fp8_path(text: str) -> None:
    msg = run_conversation([text])[0]
    concept = _result(msg).get("format_concept")
    assert concept and concept["fp8_native"] is False and concept["fp8_path"] in (None, "none"), msg.content
    assert concept["models_sized"] == [] and "pick" not in _result(msg)
