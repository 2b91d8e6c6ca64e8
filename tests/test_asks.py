"""Every question asked gets its answer (reviews AX #15, AY #17, AY #8, AY #19, AX #4, AZ #19): a count asked of
one card beside a price asked of another, a model switch that keeps the rest, the quality of a format, the choice
of an engine, the main model of two, an occasional fine-tune beside a home chat."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conversation import run_states


def _state(turns: list[str]) -> dict[str, Any]:
    return run_states(turns)[-1]


# 1. 'how many L40S …, and would a single H100 be cheaper per month?': the L40S count is the plan, the H100 is
# weighed beside it (AX #15).

@pytest.mark.parametrize("text", [
    "two questions: 1) how many L40S to serve qwen2.5 14b for 100 concurrent chat users, 4k ctx and 2) would a "
    "single H100 be cheaper per month for the same thing?",
    "how many L40S do we need for qwen2.5-14b with 100 concurrent users? also, is a single H100 cheaper per month?",
    "would one H100 be cheaper per month than L40S? and how many L40S would I need for qwen2.5 14b, 100 users",
    "用qwen2.5 14b服务100个并发用户，需要几张L40S？换成一张H100每月会不会更便宜",
    "两个问题：qwen2.5 14b，100个并发，4k上下文，要多少张L40S？一张H100每个月会不会更省钱？",
    "一张H100每月会不会比L40S便宜？qwen2.5 14b 100并发要几张L40S",
])
def test_count_asked_of_one_card_and_price_of_another(text: str) -> None:
    s = _state([text])
    plan = s["results"]["recommend"]["best"]
    assert plan["gpu"] == "l40s" and plan["gpus"] >= 2 and plan["serves"]
    assert "h100-sxm" in (s["results"]["choice"] or [])
    assert s["lang"] == ("zh" if any("\u4e00" <= c <= "\u9fff" for c in text) else "en")


# 2. A model switch with the old model's quality as its reason ('算了还是换成72B吧，效果差太多了，其他不变'): re-planned on
# the model switched to, everything else kept, no quality refusal (AY #17).

ZH_17 = "我们做医疗问答，准备用qwen2.5 14b部署，大概并发30，想用4090还是直接上A800？租的话一个月多少钱"
EN_17 = "we run medical QA, planning qwen2.5 14b for about 30 concurrent users, 4090s or A800? what does renting cost a month"


@pytest.mark.parametrize("first, switch", [
    (ZH_17, "算了还是换成72B吧，效果差太多了，其他不变"),
    (ZH_17, "还是换72B吧，14B效果不行"),
    (ZH_17, "14b效果太差了，换成qwen2.5 72b，别的不变"),
    (ZH_17, "嗯，效果不够好，改成72B，其他照旧"),
    (EN_17, "ok let's switch to 72b instead, 14b quality is just too poor. everything else the same"),
    (EN_17, "actually switch to 72B, the 14b quality is too poor, keep everything else"),
    (EN_17, "lets go with 72b instead, 14b is not good enough. rest the same"),
    (EN_17, "the answers are too weak, make it the 72b, keep the rest"),
])
def test_model_switch_for_quality_keeps_the_rest(first: str, switch: str) -> None:
    s = _state([first, switch])
    p = s["profile"]
    assert (p["model"], p["users"], p["phase"]) == ("qwen2.5-72b", 30, "serve")
    assert "quality" not in s["turn"]["intents"]
    plan = s["results"]["recommend"]["best"]
    assert plan["serves"] and plan["gpu"] in ("rtx-4090", "a800-80gb-sxm")


@pytest.mark.parametrize("text", ["is qwen2.5 72b good enough for medical QA?", "换成72B效果会好多少？"])
def test_a_quality_question_stays_a_question(text: str) -> None:
    s = _state([text])
    assert "quality" in s["turn"]["intents"]
