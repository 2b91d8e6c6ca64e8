"""A volume said per day is used within the hours said (review BV #8): '每天大概一百万token' then '工作时间…在用' (or
'9-to-6', 'during office hours', '白天用') packs the day's tokens into those hours, so the rate sized is about 3× the
even spread over 24 h. Said in one message or in two turns, in both languages."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states

EVEN = 1_000_000 / 86400 / (4096 + 256)  # a day's million tokens spread round the clock, as requests of 4,096 + 256
VOLUMES = {"en": ["about 1M tokens a day", "roughly 1 million tokens per day"],
           "zh": ["每天大概一百万token", "一天大约100万token"]}
WINDOWS = {"en": [("during office hours", 8), ("in working hours", 8), ("used 9am to 6pm", 9), ("9-to-6", 9)],
           "zh": [("工作时间在用", 8), ("白天用", 8), ("上班时间用", 8), ("9点到18点用", 9)]}


@pytest.mark.parametrize(("lang", "volume", "window"),
                         [(lang, v, w) for lang in ("en", "zh") for v, w in itertools.product(VOLUMES[lang], WINDOWS[lang])])
def test_one_message_packs_the_day_into_its_hours(lang, volume, window) -> None:
    said, hours = window
    sep = ", " if lang == "en" else "，"
    u = understand(f"serve qwen2.5 32b{sep}{volume}{sep}{said}")
    assert u.updates["rate_day_hours"] == hours
    assert u.updates["requests_per_s"] == pytest.approx(EVEN * 24 / hours, rel=0.01)
    assert any(key == "usage.note_day_window" for key, _v in u.notes)


@pytest.mark.parametrize("volume", ["serve qwen2.5 32b, about 1M tokens a day", "部署qwen2.5 32b，每天大概一百万token"])
def test_a_day_volume_alone_is_spread_round_the_clock(volume) -> None:
    u = understand(volume)
    assert u.updates["rate_day_hours"] == 24
    assert u.updates["requests_per_s"] == pytest.approx(EVEN, rel=0.01)


@pytest.mark.parametrize(("first", "second", "hours"), [
    ("we want to serve qwen2.5 32b, about 1M tokens a day", "during office hours", 8),
    ("we want to serve qwen2.5 32b, about 1M tokens a day", "9-to-6", 9),
    ("预算50万人民币，想跑deepseek r1蒸馏32b的推理服务，每天大概一百万token，买卡还是租云划算？",
     "工作时间，主要是40个客服加5个产品经理在用", 8),
    ("部署qwen2.5 32b，每天大概一百万token", "白天用", 8),
])
def test_a_later_window_packs_the_day_said_before(first, second, hours) -> None:
    one, two = run_states([first, second])
    assert one["profile"]["rate_day_hours"] == 24
    assert two["profile"]["rate_day_hours"] == hours
    assert two["profile"]["requests_per_s"] == pytest.approx(one["profile"]["requests_per_s"] * 24 / hours, rel=0.01)
    reply = two["messages"][-1].content
    assert f"{24 / hours:.3g}" in reply


def test_a_window_said_again_packs_only_once() -> None:
    states = run_states(["we want to serve qwen2.5 32b, about 1M tokens a day", "during office hours", "working hours"])
    assert states[2]["profile"]["requests_per_s"] == pytest.approx(states[1]["profile"]["requests_per_s"])


def test_a_rate_said_per_second_is_never_packed() -> None:
    one, two = run_states(["serve qwen2.5 32b at 2 requests per second", "during office hours"])
    assert two["profile"]["requests_per_s"] == one["profile"]["requests_per_s"] == 2
