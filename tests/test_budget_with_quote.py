"""A hard budget said beside a quoted server is kept and applied (review CJ #6: '供应商报了一台8卡4090服务器二十八万，预算
三十万以内 … 两百人同时在线' planned 32 x 4090, ¥1.12M, with no word of the ¥300k budget): the reader keeps the budget with
the quote (generated spellings, both languages), and the reply says the plan is over the budget and what the budget
does buy -- the one quoted server -- with the people at once it holds (tools.capacity)."""

from __future__ import annotations

import itertools
import re

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states

ZH_QUOTES = ["供应商报了一台8卡4090（24G）服务器二十八万", "供应商给的报价是8卡4090整机28万", "一台8卡4090服务器报价28万"]
ZH_BUDGETS = ["预算三十万以内", "预算不超过30万", "预算30万"]
EN_QUOTES = ["the vendor quoted an 8x4090 server at $40k", "we got a quote of $40,000 for an 8x 4090 box",
             "an 8x RTX 4090 server is quoted at 40k usd"]
EN_BUDGETS = ["budget under $45k", "our budget is $45k max", "we can spend at most $45,000", "budget of 45k usd"]

ZH = [f"老板让我算算买还是租：{q}，{b}，跑qwen2.5-32b给我们app用，高峰大概两百人同时在线，电费八毛一度，用三年的话哪个划算"
      for q, b in itertools.product(ZH_QUOTES, ZH_BUDGETS)]
EN = [f"{q}, {b}, we serve qwen2.5-32b in our app to about 200 concurrent users at peak, power is $0.12/kWh, "
      "buy or rent over 3 years?" for q, b in itertools.product(EN_QUOTES, EN_BUDGETS)]
CJ6 = ZH[0]
CJ6_EN = EN[0]


@pytest.mark.parametrize(("text", "budget", "machine"), [(t, 42000.0, 39200.0) for t in ZH] + [(t, 45000.0, 40000.0) for t in EN])
def test_budget_kept_beside_a_quoted_server(text: str, budget: float, machine: float):
    u = understand(text)
    assert u.updates.get("budget_usd") == budget, text
    assert u.prices.get("buy_usd_machine") == machine, text
    assert u.updates.get("users") == 200


@pytest.mark.parametrize("text", ["供应商报了一台8卡4090服务器二十八万，跑qwen2.5-32b给200人同时用，买还是租",
                                  "an H100 is $30k to buy or $2.50 an hour to rent, which for llama 3.1 8b?",
                                  "租的话一个月2800一张4090，买整机6万，用两年"])
def test_prices_alone_are_no_budget(text: str):
    u = understand(text)
    assert "budget_usd" not in u.updates and "budget_usd_per_month" not in u.updates, text
    assert u.prices


def _reply(turns: list[str]) -> tuple[str, dict]:
    state = run_states(turns)[-1]
    return state["messages"][-1].content, state["profile"]


def test_cj6_over_budget_said_with_what_the_quoted_server_holds():
    reply, profile = _reply([CJ6, "全天候"])
    assert profile["budget_usd"] == 42000.0
    assert "预算 ¥300,000 ($42,000)" in reply  # in what was read from the user
    assert "超出了你的 ¥300,000 ($42,000)" in reply  # the plan rented over 36 months: over it, said
    held = re.search(r"\*\*预算买得到的\*\*：8 × NVIDIA GeForce RTX 4090 24GB（¥280,000 \(\$39,200\)，在 ¥300,000 \(\$42,000\) "
                     r"以内）能同时服务约 (\d+) 人.*；200 人同时使用需要 (\d+) × NVIDIA GeForce RTX 4090 24GB，约 ¥([\d,]+) .*超出预算。",
                     reply)
    assert held, reply
    assert 0 < int(held[1]) < 200
    assert int(held[2]) > 8 and int(held[3].replace(",", "")) > 300_000


def test_cj6_english_over_budget_said_with_what_the_quoted_server_holds():
    reply, profile = _reply([CJ6_EN, "24/7"])
    assert profile["budget_usd"] == 45000.0
    held = re.search(r"\*\*What the budget buys\*\*: 8 × NVIDIA GeForce RTX 4090 24GB \(\$40,000, within \$45,000\) serves about "
                     r"(\d+) people at once .*; 200 at once takes (\d+) × NVIDIA GeForce RTX 4090 24GB, about \$([\d,]+), over the budget\.",
                     reply)
    assert held, reply
    assert 0 < int(held[1]) < 200
    assert int(held[2]) > 8 and int(held[3].replace(",", "")) > 45_000


def test_a_larger_budget_buys_whole_servers_of_the_quote():
    reply, _ = _reply([CJ6.replace("预算三十万以内", "预算六十万以内"), "全天候"])
    held = re.search(r"\*\*预算买得到的\*\*：16 × NVIDIA GeForce RTX 4090 24GB（¥560,000 \(\$78,400\)，在 ¥600,000 \(\$84,000\) "
                     r"以内）能同时服务约 (\d+) 人", reply)
    assert held, reply
    assert 8 < int(held[1]) < 200


def test_a_budget_that_buys_the_plan_says_no_shortfall():
    reply, _ = _reply([CJ6.replace("两百人", "五十人"), "全天候"])
    assert "预算买得到的" not in reply
    assert "购买 8 × NVIDIA GeForce RTX 4090 24GB 约需 ¥280,000 ($39,200)，没有超出预算" in reply
