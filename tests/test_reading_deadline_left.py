"""A vague deadline restated as the time left ('月底前（还剩三周）', 'by end of month, so about 3 weeks') is the
time left, not the vague word's default (a month)."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand

EN = [(f"full finetune qwen3 32b on 1B tokens {due}{sep}{n} {unit}", hours)
      for due, sep, (n, unit, hours) in itertools.product(
          ["by end of month", "before the end of the month"], [", so about ", " (only ", ", i.e. "],
          [("3", "weeks", 504.0), ("10", "days", 240.0)])]
ZH = [(f"全参微调qwen3 32b，十亿token，{due}（{left}{n}{unit}）", hours)
      for due, left, (n, unit, hours) in itertools.product(
          ["月底前", "月底之前"], ["还剩", "只剩", "还有"], [("三", "周", 504.0), ("10", "天", 240.0)])]


@pytest.mark.parametrize(("text", "hours"), EN + ZH)
def test_the_time_left_said_after_a_vague_deadline_wins(text, hours):
    assert understand(text).updates.get("deadline_hours") == hours, text


def test_a_vague_deadline_alone_keeps_its_stated_default():
    assert understand("月底前跑完，lora qwen3 8b").updates.get("deadline_hours") == 730.0
