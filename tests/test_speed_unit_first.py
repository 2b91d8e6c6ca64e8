"""A per-user speed with its unit or label before the number ('tokens per sec at least 40 each', '每个用户速度不低于40')
is the speed target, as '40 tok/s each' is, and the plan meets it (review BJ #16: dropped, 28 tokens/s planned)."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states

EN = ["tokens per sec at least {n} each", "tokens per second at least {n}", "tok/s per user at least {n}",
      "tokens/s each >= {n}", "speed at least {n} each", "speed ≥{n} tokens/s per user", "at least {n} tok/s each",
      "tokens per second per user: {n}", "decode speed of {n} per user"]
ZH = ["每人至少{n} token/s", "每个用户速度不低于{n}", "速度至少{n}", "生成速度要达到{n}", "每人每秒至少{n}个token"]


@pytest.mark.parametrize("n", [25, 40])
@pytest.mark.parametrize("speed", EN)
@pytest.mark.parametrize("order", ["qwen2.5 14b, users 30, {speed}, context 16000. what gpu",
                                   "{speed}, qwen2.5 14b for 30 users, 16k context"])
def test_english_speed_unit_before_or_after(n: int, speed: str, order: str) -> None:
    u = understand(order.format(speed=speed.format(n=n)), None)
    assert u.updates.get("min_tokens_per_s") == n
    assert u.updates.get("users") == 30


@pytest.mark.parametrize("n", [25, 40])
@pytest.mark.parametrize("speed", ZH)
def test_chinese_speed_target(n: int, speed: str) -> None:
    u = understand(f"qwen2.5 14b，30个用户，{speed.format(n=n)}，上下文16k，用什么卡", None)
    assert u.updates.get("min_tokens_per_s") == n
    assert u.updates.get("users") == 30


@pytest.mark.parametrize("text", ["8x h100 with network speed 400", "we have a 100 gb link, speed 100 between nodes"])
def test_a_network_speed_is_no_token_rate(text: str) -> None:
    assert understand(text, None).updates.get("min_tokens_per_s") is None


@pytest.mark.parametrize("turns", [
    ["qwen2.5 14b, users 30, tokens per sec at least 40 each, context 16000. what gpu", "what if int4"],
    ["qwen2.5 14b，30个用户，每个用户速度不低于40，上下文16000，用什么卡"]])
def test_the_plan_meets_the_speed(turns: list[str]) -> None:
    for state in run_states(turns):
        assert state["profile"]["min_tokens_per_s"] == 40
        best = state["results"]["recommend"]["best"]
        assert best["decode_tokens_per_s"] >= 40 and best["ok"]
