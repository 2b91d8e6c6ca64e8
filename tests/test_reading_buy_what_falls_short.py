"""Buying what the user's cards fall short of is a wish to buy (review BW #13: '手上有两张4090 够不够 不够的话买啥' was read
as 'rent or buy, either', and the plan rented two more 4090s in the cloud beside the owned pair). 'if not enough, what
should we buy', '不够的话还要买几台', 'otherwise what do we buy': the plan beyond the owned cards is bought. Renting named,
or rent against buy asked ('不够的话是买还是租'), stays no preference to buy."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states

OWNED_EN = ["we have 2 4090s for qwen2.5 72b, 30 users", "got two rtx 4090s already; qwen2.5 72b for 30 people",
            "qwen2.5 72b for 30 users on our own 2x 4090"]
BUY_EN = ["if not enough, what should we buy", "if it's not enough, which cards do we buy?",
          "enough? otherwise what do we buy", "if that isn't enough what would we need to buy",
          "is it enough? if not, how many more should we buy?", "what do we buy if they aren't enough"]
OWNED_ZH = ["手上有两张4090，跑qwen2.5 72b，三十个人用", "公司有2张4090，部署qwen2.5 72b给30个人用", "我们自己有两块4090跑qwen2.5 72b"]
BUY_ZH = ["够不够，不够的话买啥", "不够的话该买啥", "不够的话买什么卡", "要是不够用的话买哪个", "不够的话还要买几张", "不够就买"]


@pytest.mark.parametrize(("owned", "buy"), [*itertools.product(OWNED_EN, BUY_EN), *itertools.product(OWNED_ZH, BUY_ZH)])
def test_buying_what_the_owned_cards_lack_is_buying(owned: str, buy: str) -> None:
    sep = "，" if buy[0] > "\u3000" else ". "
    u = understand(f"{owned}{sep}{buy}", None)
    assert u.updates.get("preference") == "buy", u.updates
    assert "rent_buy" not in u.intents


@pytest.mark.parametrize(("owned", "ask"), [*itertools.product(OWNED_ZH, ["不够的话是买还是租", "不够的话买还是租",
                                                                          "不够的话租啥"]),
                                            *itertools.product(OWNED_EN, ["if not enough, should we rent or buy more?",
                                                                          "if not enough, what should we rent?"])])
def test_renting_named_beside_it_is_no_wish_to_buy(owned: str, ask: str) -> None:
    sep = "，" if ask[0] > "\u3000" else ". "
    assert understand(f"{owned}{sep}{ask}", None).updates.get("preference") != "buy"


@pytest.mark.parametrize("text", ["if prices drop we might buy, qwen2.5 72b for 30 users",
                                  "想买8卡H20还是租云上的划算？", "should we buy an 8x h100 box, or rent in the cloud?"])
def test_other_conditions_and_rent_or_buy_questions_state_no_preference(text: str) -> None:
    assert "preference" not in understand(text, None).updates


def test_review_bw_13_buys_the_cards_beyond_the_owned_pair() -> None:
    states = run_states(["想部署腾讯的Hunyuan-A13B（总共80B参数 激活13B）给公司内部三十来个人用 手上有两张4090 够不够 不够的话买啥"])
    assert states[-1]["profile"]["preference"] == "buy"
    reply = states[-1]["messages"][-1].content
    assert "再购买" in reply and "再租用" not in reply and "租或买都可以" not in reply
