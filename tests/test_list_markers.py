"""Numbers that only number the questions ('1) … 2) …', '两个问题：1）…  2）…', '(1) … (2) …') are no quantity: the '2)'
after a card name is no rental price of it (review BB #16: '按你拿到的报价：H800 每卡每小时 ¥2.00')."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand

MARKS = [("1)", "2)"), ("1）", "2）"), ("(1)", "(2)"), ("（1）", "（2）")]
ASKS = {
    "zh": "两个问题：{a}qwen2.5 72b 部署要几张 {card}{sep}{b}顺便问下用 lora 微调它又需要几张",
    "en": "two questions: {a} how many {card} to serve qwen2.5 72b{sep}{b} and how many to lora it",
}
CARDS = ["h800", "a100", "h20", "l40s"]
SEPS = ["  ", " "]  # (after a comma, "顺便问下用 lora 微调它" is read as an aside: a separate, older gap)


@pytest.mark.parametrize(("lang", "marks", "card", "sep"), list(itertools.product(ASKS, MARKS, CARDS, SEPS)))
def test_a_list_marker_is_no_price(lang: str, marks: tuple[str, str], card: str, sep: str) -> None:
    u = understand(ASKS[lang].format(a=marks[0], b=marks[1], card=card, sep=sep), None)
    assert u.quotes == [] and not u.prices, (u.quotes, u.prices)
    assert u.updates.get("model") == "qwen2.5-72b" and u.updates.get("method") == "lora"


@pytest.mark.parametrize(("text", "price"), [("h800 一小时 2 块", 2.0), ("lambda has the h100 at 2.49/hr", 2.49)])
def test_a_price_after_a_card_stays(text: str, price: float) -> None:
    u = understand(text, None)
    assert u.quotes and u.quotes[0].get("usd_per_gpu_hour") is not None
