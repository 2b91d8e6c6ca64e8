"""Cards already paid for are owned and what they cost is no budget; money still to spend on cards is a
budget and those cards are not owned yet. Generated over subjects, verbs, counts, cards, amounts and jobs."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand

CARDS = [("3090s", "rtx-3090"), ("rtx 4090s", "rtx-4090"), ("a6000s", "rtx-a6000")]
COUNTS = [("two", 2), ("2", 2), ("four", 4)]
JOBS = ["want to run qwen2.5 32b", "serve llama 3.1 8b to 5 people", ""]

PAID_EN = ["{who} bought {n} {card} for {amount}", "{who} spent {amount} on {n} {card}",
           "{who} already bought {n} {card} for {amount} total", "{who} paid {amount} for {n} {card}"]
PAID_ZH = ["去年花了{amount}买了{n}张{card}", "{who}买了{n}张{card}，花了{amount}"]
AMOUNTS_EN = ["$1400", "$2,800", "1400 dollars"]
AMOUNTS_ZH = ["3万", "两万五", "¥20000"]
ZH_CARDS = [("3090", "rtx-3090"), ("4090", "rtx-4090")]
ZH_COUNTS = [("两", 2), ("4", 4)]


def _en():
    for form, who, (nw, n), (cw, card), amount, job in itertools.product(
            PAID_EN, ["I", "we"], COUNTS, CARDS, AMOUNTS_EN, JOBS):
        yield (form.format(who=who, n=nw, card=cw, amount=amount) + (f", {job}" if job else "")), card, n


def _zh():
    for form, who, (nw, n), (cw, card), amount, job in itertools.product(
            PAID_ZH, ["我们", "我"], ZH_COUNTS, ZH_CARDS, AMOUNTS_ZH, ["想跑qwen2.5 32b", ""]):
        yield (form.format(who=who, n=nw, card=cw, amount=amount) + (f"，{job}" if job else "")), card, n


@pytest.mark.parametrize(("text", "card", "count"), [*_en(), *_zh()])
def test_cards_paid_for_are_owned_and_their_price_is_no_budget(text, card, count):
    u = understand(text)
    assert u.updates.get("owned") == [f"{count}x {card}"], (text, u.updates)
    assert "budget_usd" not in u.updates and "budget_usd_per_month" not in u.updates, (text, u.updates)
    assert u.updates.get("preference") != "buy", (text, u.updates)


@pytest.mark.parametrize(("text", "card"), [
    (f"{lead} {amount} to spend on {n} {cw}{job}", card)
    for lead, amount, n, (cw, card), job in itertools.product(
        ["I have", "we have", "got"], ["$5k", "$5000"], ["2", "two"], CARDS, ["", ", want to run qwen2.5 32b"])])
def test_money_to_spend_on_cards_is_a_budget_and_the_cards_are_not_owned_yet(text, card):
    u = understand(text)
    assert u.updates.get("budget_usd") == 5000.0, (text, u.updates)
    assert not u.updates.get("owned"), (text, u.updates)


@pytest.mark.parametrize("text", ["what if we bought 2 rtx 6000 ada, would that work for llama 70b",
                                  "should we buy 2 4090s for qwen2.5 32b", "想买两张4090跑qwen2.5 32b"])
def test_a_card_still_to_buy_is_not_owned(text):
    assert not understand(text).updates.get("owned")
