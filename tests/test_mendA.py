"""Merge mend A: 'used' as a verb ('what if we used B200s') is no used card, while a card said used still is, in
both languages; a China street price beside a card priced only at its US list is no buy-price comparison."""
from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.verdict import _cheaper


@pytest.mark.parametrize("text", ["what if we used B200s instead?", "if i used 4090s instead, how many?",
                                  "what if they used H100s for it", "suppose we used two A100s"])
def test_used_as_a_verb_is_no_used_card(text):
    u = understand(text)
    assert not u.updates.get("used_ok") and not u.ask.get("used")


@pytest.mark.parametrize("text", ["used 3090 or new 4070 ti super, which is better", "a second-hand 3090 or a 4090?",
                                  "二手3090还是新的4090", "4060ti 16g 和 二手3090 买哪个"])
def test_a_card_said_used_is_still_used(text):
    assert understand(text).ask.get("used") == ["rtx-3090"]


def test_a_us_list_price_in_china_is_not_weighed_against_a_street_price():
    a = {"id": "rtx-4090", "buy_price_usd": 3158.0, "china_street": True, "rent": {"usd_per_gpu_hour_typical": 0.27}}
    b = {"id": "rtx-5090", "buy_price_usd": 1999.0, "list_only": True, "rent": {"usd_per_gpu_hour_typical": 0.40}}
    kind, lo, _hi = _cheaper([a, b], "local") or ("", {}, {})
    assert (kind, lo.get("id")) == ("rent", "rtx-4090")
    kind, lo, _hi = _cheaper([dict(a, china_street=False), dict(b, list_only=False)], "local") or ("", {}, {})
    assert (kind, lo.get("id")) == ("buy", "rtx-5090")
