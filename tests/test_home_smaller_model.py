"""A model too big for the card at home, asked after a smaller one ran on it ('换成72B呢' after Qwen2.5 32B on a 4090):
the largest of the family that runs on the card leads, at half the assumed context when that is what it takes, never a
model smaller than the one the user runs (review BS #14: the 14B in Q8_0 led)."""

from __future__ import annotations

import pytest

from tests.conversation import run_conversation

FIRST = {"en": "i have a 4090 at home and want to run qwen2.5 32b locally for coding, how fast",
         "zh": "我自己有张4090 想本地跑qwen2.5 32b 写代码用 能跑多快"}
BIGGER = {"en": ["what about 72b", "and the 72b?", "ok what if i try qwen2.5 72b"],
          "zh": ["换成72B呢", "72b呢", "那qwen2.5 72b能跑吗"]}


@pytest.mark.parametrize(("lang", "text"), [(lang, t) for lang, ts in BIGGER.items() for t in ts])
def test_the_largest_model_the_card_runs_leads(lang: str, text: str) -> None:
    _first, then = run_conversation([FIRST[lang], text])
    heading = next(line for line in then.content.splitlines() if line.startswith("## "))
    assert "Qwen2.5 32B" in heading and "q4_k_m" in heading.lower(), heading
    assert "Qwen2.5 72B" in then.content  # the model asked about is answered (it does not fit), not dropped
