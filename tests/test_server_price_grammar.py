"""A server's price is asked when a card is named in the message (with a count or as a server) and its price asked;
a price-only ask ('就是问个价格', 'just want the price') with no card named is a server's price only where the
conversation holds a server and no plan (on a plan, 'just want the hourly price per provider' lists the plan card's
offers); the price asked first is said first ('买一台8卡A800整机大概多少钱，和租比多久回本': the server's price)."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import payload, run_conversation

PLANS = {"en": "serve qwen2.5 72b to 50 users with 8k context, around the clock",
         "zh": "给50个人部署qwen2.5 72b，上下文8k，全天候"}
PER_PROVIDER = {"en": ["just want the hourly price per provider", "i just want the price per hour from each provider"],
                "zh": ["就是问个价格，各家每小时多少", "只问个价，每家每小时租金多少"]}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("i", [0, 1])
def test_a_price_only_ask_on_a_plan_is_the_plans_not_a_servers(lang, i):
    question = PER_PROVIDER[lang][i]
    reply = run_conversation([PLANS[lang], question])[-1]
    p = payload(reply)
    assert p.get("topic") != "server_price", reply.content[:300]
    assert "server_price" not in (p.get("results") or {})


@pytest.mark.parametrize("text", ["just want the price", "就是问个价格", "just the numbers", "你先把租金和买价告诉我就行"])
def test_a_price_only_ask_with_no_card_named_is_no_servers_price_by_itself(text):
    u = understand(text)
    assert "server_price" not in u.intents and u.ask.get("price_only")


@pytest.mark.parametrize(("text", "gpu"), [("just want the price of an 8x h100 server, rent and buy", "h100-sxm"),
                                           ("就是问个价格：8卡H800整机，租和买各多少", "h800-sxm"),
                                           ("just asking the price to rent or buy an 8x h200 box", "h200")])
def test_a_price_only_ask_naming_a_server_is_its_price(text, gpu):
    u = understand(text)
    assert "server_price" in u.intents and u.cards == [gpu]


BUY_FIRST = ["考虑买一台8卡H100整机大概多少钱，和租比多久回本", "打算买一台8卡H800服务器要多少钱？跟租比几个月回本",
             "买还是租？考虑买一台8卡A800整机大概多少钱，和租比多久回本"]
RENT_FIRST = ["现在租一台8卡H800一个月要多少钱？和直接买一台比，两年满负荷跑哪个划算",
              "what does renting an 8x H100 box cost per month vs buying one, running flat out for 2 years?",
              "how much to rent an 8x h100 server per month, and how much to buy one? 24/7 for 2 years"]


def _order(text: str) -> tuple[int, int]:
    reply = run_conversation([text])[-1]
    assert payload(reply).get("topic") == "server_price", reply.content[:300]
    lines = [x for x in reply.content.splitlines() if x.strip()]
    rent = next(i for i, x in enumerate(lines) if x.startswith("**租**") or x.startswith("**Rent**"))
    buy = next(i for i, x in enumerate(lines) if "整机大概" in x or x.startswith("A whole "))
    return buy, rent


@pytest.mark.parametrize("text", BUY_FIRST)
def test_the_servers_price_asked_first_is_said_first(text):
    buy, rent = _order(text)
    assert buy < rent


@pytest.mark.parametrize("text", RENT_FIRST)
def test_the_rent_asked_first_is_said_first(text):
    buy, rent = _order(text)
    assert rent < buy
