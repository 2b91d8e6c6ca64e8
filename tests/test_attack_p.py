"""The third attack: a message naming many cards ('8x h100 8x a100 8x l40s 8x 4090 8x h20') made one vocabulary pattern
(only_after: masked card names joined by 'and' / '、' / '/') backtrack exponentially: 10 cards took over a minute and
blocked `serve`. The pattern now takes each run of masked text whole (possessive), so its work grows with the text.
A regression here hangs these tests rather than failing them slowly."""
from __future__ import annotations

import pytest

from assistant.reading import understand
from assistant.reading.text import word_pattern

CARDS = ["h100", "a100", "l40s", "4090", "h20", "h200", "b200", "a800", "l20", "3090"]


@pytest.mark.parametrize("n", [6, 12, 40])
def test_many_cards_in_one_message_are_read(n):
    text = " ".join(f"8x {CARDS[i % len(CARDS)]}" for i in range(n))
    u = understand(text)
    assert u.whatif_gpus or u.compare_gpus or u.updates.get("only")


@pytest.mark.parametrize("joins", [" ", " and ", "、", " / ", ", "])
def test_the_joined_runs_pattern_on_long_masked_text(joins):
    masked = joins.join(["▒▒▒▒▒▒▒"] * 60)
    assert word_pattern("only_after").match(masked + " are all we can get")
    assert not word_pattern("only_after").match(masked + " are cheap")


@pytest.mark.parametrize("text, want", [("L40S和A100都能用", ["a100-80gb-sxm", "l40s"]),
                                        ("a100 / h100 are all we can get", ["a100-80gb-sxm", "h100-sxm"])])
def test_cards_allowed_together_are_still_read(text, want):
    assert understand(text).updates.get("only") == want
