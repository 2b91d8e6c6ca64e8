"""Monthly token volumes are written the way a reader says them: millions, then billions in English (never '2,500
million'); 万, then 亿 in Chinese (never '250,000 万')."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.usage_api import _millions


@pytest.mark.parametrize(("millions", "en", "zh"), [
    (1.5, "1.5 million", "150 万"),
    (15, "15 million", "1,500 万"),
    (250, "250 million", "2.5 亿"),
    (999, "999 million", "10 亿"),
    (1000, "1 billion", "10 亿"),
    (2500, "2.5 billion", "25 亿"),
    (12_000, "12 billion", "120 亿"),
    (150_000, "150 billion", "1,500 亿"),
])
def test_volume_words(millions: float, en: str, zh: str) -> None:
    assert _millions(millions, "en") == en
    assert _millions(millions, "zh") == zh
