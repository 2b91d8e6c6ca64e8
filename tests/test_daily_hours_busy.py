"""Hours a day the cards train ('每天训练大概十个小时', 'we train about 10 hours a day') are how busy the cards are (their
share of the day), never a daily run of a made-up 20M-token job; buying the box is weighed against renting it for those
hours, with the month's rent and the payback said; and a model named in answer to 'which model?' is no change from a
default model never said (review BK #19)."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states

DAILY = [
    ("我们每天训练大概十个小时", 10), ("每天训练8小时", 8), ("每天微调差不多12个小时", 12), ("一天训练六个小时", 6),
    ("we train about 10 hours a day", 10), ("we train 8 hours a day", 8), ("daily we train roughly 12 hours", 12),
    ("we fine-tune around 6 hours per day", 6),
]


@pytest.mark.parametrize(("text", "hours"), DAILY)
def test_daily_training_hours_are_how_busy_the_cards_are(text: str, hours: int) -> None:
    u = understand(text, None)
    assert u.updates.get("utilisation") == pytest.approx(round(hours / 24, 4))
    assert "runs_per_month" not in u.updates  # no daily run of a default size


@pytest.mark.parametrize("text", ["nightly finetune on 20M tokens", "每天晚上跑一次微调 2000万token"])
def test_a_daily_run_with_its_data_keeps_its_runs(text: str) -> None:
    assert understand(text, None).updates.get("runs_per_month") == 30.0


def test_review_bk19_buy_or_rent_for_ten_hours_a_day() -> None:
    first, second = run_states(["纠结买8卡h100服务器还是租云 我们每天训练大概十个小时 要持续一年 预算两百万左右",
                                "主要是70b的lora微调"])
    assert first["profile"]["utilisation"] == pytest.approx(0.4167) and first["profile"].get("runs_per_month") is None
    reply = second["messages"][-1].content
    assert "3,650 个使用小时 = **¥832,267" in reply  # 8 × H100 rented 42% of 12 months at ¥28.50 a card-hour
    assert "租金每月约 ¥69,356" in reply and "约 37 个月（约 3.1 年）才能抵回" in reply
    assert "**结论**（买还是租）：租" in reply
    assert "这次改了" not in reply and "Llama 3.1 8B" not in reply  # no change from a model never said
    assert "426 个月" not in reply and "每月重复" not in reply
