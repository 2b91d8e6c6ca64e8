"""'二手' is second-hand, not a count: '两张二手3090' is two used 3090s, read as '两张3090' is (h-versus found the
count lost: 二手 became '2 手')."""
from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand

COUNTS = [("两张", 2), ("2张", 2), ("四张", 4), ("8张", 8)]
CARDS = [("3090", "rtx-3090"), ("4090", "rtx-4090"), ("v100", "v100-sxm2-32gb")]
FRAMES = ["{count}二手{card}跑70b，能跑吗", "{count}二手的{card}，部署 qwen2.5 32b 给5个人用", "手上有{count}二手{card}"]


@pytest.mark.parametrize("count, card, frame", list(itertools.product(COUNTS, CARDS, FRAMES)))
def test_used_cards_keep_their_count(count, card, frame):
    said, n = count
    name, card_id = card
    used = understand(frame.format(count=said, card=name))
    plain = understand(frame.replace("二手的", "").replace("二手", "").format(count=said, card=name))
    assert used.updates.get("only") == plain.updates.get("only")
    assert used.updates.get("owned") == plain.updates.get("owned")
    cards = repr(used.updates.get("only") or used.updates.get("owned"))
    assert card_id in cards and (f"{n}x" in cards or f"'count': {n}" in cards), cards


@pytest.mark.parametrize("text", ["二手3090还是全新4070 ti super", "买二手3090划算吗"])
def test_used_alone_is_no_number(text):
    u = understand(text)
    assert not u.updates.get("users") and not u.updates.get("owned")
