"""A Chinese amount written with digits between its units is one number ('2万1千元' is 21,000 yuan, was read as 1,000:
session 29's rent-or-buy check), whichever of digits and numerals each part uses, with or without a currency word."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.reading.text import clean

ZH = {1: "一", 2: "两", 3: "三", 4: "四", 5: "五", 6: "六", 7: "七", 8: "八", 9: "九"}
CURRENCY = ["元", "块", "块钱", "人民币", ""]


def _spell(n: int, numerals: bool) -> str:
    return ZH[n] if numerals else str(n)


CASES = [(w, k, big_zh, small_zh, cur) for (w, k), big_zh, small_zh, cur in itertools.product(
    [(2, 1), (3, 5), (1, 2), (8, 8), (12, 3)], [False, True], [False, True], CURRENCY) if not (big_zh and w > 9)]


@pytest.mark.parametrize(("wan", "qian", "big_zh", "small_zh", "currency"), CASES)
def test_wan_then_qian_is_one_budget(wan: int, qian: int, big_zh: bool, small_zh: bool, currency: str) -> None:
    said = f"{_spell(wan, big_zh)}万{_spell(qian, small_zh)}千{currency}"
    total = wan * 10_000 + qian * 1_000
    assert str(total) in clean(f"预算{said}").split()
    plain = understand(f"预算{total}元").updates["budget_usd"]
    assert understand(f"预算{said}，部署 qwen2.5 7b").updates["budget_usd"] == pytest.approx(plain)


@pytest.mark.parametrize(("text", "numbers"), [
    ("预算1亿2千万", ["120000000"]), ("3千5百块", ["3500"]), ("1万2千一张", ["12000", "1"]),
    ("H20十七万", ["h20", "170000"]), ("8卡2万1千", ["8", "gpus", "21000"]),
])
def test_the_run_stops_where_the_amount_does(text: str, numbers: list[str]) -> None:
    words = clean(text).split()
    assert all(n in words for n in numbers), words
