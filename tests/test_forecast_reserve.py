"""A price forecast asked with a reservation offered (assistant/reading/forecast.py, assistant/forecast_reply.py):
the reply says it cannot forecast, then weighs the reserved price against on-demand at the typical price on
record, at the use said or assumed, with the use above which the reservation pays; no workload is invented."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import payload, run_conversation, unexplained_numbers

EN = ["will {card} rental prices keep dropping? should i lock in 1 year reserved at {p}/hr",
      "are {card} prices going to keep falling? we were offered {p}/hr reserved for a year",
      "should we commit to a 1 year reservation at ${p} per hour for {card}s or will rates keep going down?"]
ZH = ["{card}租金还会继续降吗？要不要签一年的包年，每小时{p}块", "{card}价格还会跌吗，包年每小时{p}元值不值",
      "{card}会不会继续降价？现在签一年预留，每卡每小时{p}元"]
CARDS = ["h100", "H200", "a100", "4090"]


@pytest.mark.parametrize("card, template", list(itertools.product(CARDS, EN + ZH)))
def test_a_forecast_with_a_reserved_price_keeps_the_price_and_sizes_nothing(card, template):
    price = 2.1 if template in EN else 15
    u = understand(template.format(card=card, p=price))
    assert "forecast" in u.intents and "availability" not in u.intents
    assert u.cards and not u.updates.get("model")
    assert u.prices.get("reserved_usd_per_hour")


@pytest.mark.parametrize("text", ["will h100 prices fall next year?", "H100明年会降价吗"])
def test_a_forecast_alone_keeps_its_reply(text):
    u = understand(text)
    assert "forecast" in u.intents and not u.prices


def test_the_reply_says_it_cannot_forecast_and_gives_the_break_even_use():
    reply = run_conversation(["will h100 rental prices keep dropping? should i lock in 1 year reserved at 2.10/hr"])[-1]
    data = payload(reply)
    assert data["topic"] == "forecast"
    text = reply.content
    assert text.startswith("I can't forecast prices")
    reserved = data["results"]["reserved"]
    assert reserved["reserved_usd_per_month"] == pytest.approx(2.1 * 730, rel=0.01)
    assert 0 < reserved["break_even_utilisation"] < 1
    assert "pays off above" in text and "Llama" not in text
    assert unexplained_numbers(text, data["results"]) == [], text


def test_the_chinese_reply_is_all_chinese():
    reply = run_conversation(["H100租金还会继续降吗？要不要签一年的包年，每小时15块"])[-1]
    assert "hours a month" not in reply.content and "prices you gave" not in reply.content
    assert "包年" in reply.content and "预留更划算" in reply.content
