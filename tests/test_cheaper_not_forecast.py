"""'L20 会不会更便宜' asks whether another card costs less for this job (a comparison), not a price forecast; a
question about prices later ('明年会不会降价', '等5090出来4090会不会便宜') stays a forecast (review BC #20)."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand

COMPARE = ["另外 {c} 会不会更便宜？", "{c}会不会更便宜", "{c}会更便宜吗", "换成{c}会不会更便宜一点", "那{c}会不会更贵"]
FORECAST = ["{c}明年会不会便宜", "{c}明年会不会降价", "{c}租金还会降吗", "B200出来后{c}会不会更便宜", "等新卡出来{c}会不会便宜",
            "{c}租金以后会不会更便宜"]
CARDS = ["L20", "H20", "4090", "A800"]


@pytest.mark.parametrize("text", [t.format(c=c) for t in COMPARE for c in CARDS])
def test_cheaper_card_is_no_forecast(text: str) -> None:
    assert "forecast" not in understand(text, None).intents


@pytest.mark.parametrize("text", [t.format(c=c) for t in FORECAST for c in CARDS])
def test_prices_later_are_a_forecast(text: str) -> None:
    assert "forecast" in understand(text, None).intents
