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
    plan = s["results"]["options"][0]
    assert plan["gpu"] == "l40s" and plan["gpus"] >= 2 and plan["serves"]
    assert "h100-sxm" in (s["results"]["choice"] or [])
    assert s["lang"] == ("zh" if any("\u4e00" <= c <= "\u9fff" for c in text) else "en")
