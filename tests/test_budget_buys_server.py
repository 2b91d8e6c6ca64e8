"""A one-off budget against a card sold only as whole servers (review BX #4: '$250k budget… buy an 8x H200 box or
keep renting?' headlined 'Buy 2 × H200' at a $336,000 server and called it within a 10% leeway, 34% over), a server
bought for part of its cards headed as the server, and a rented card with no rental price (review BW #12)."""

from __future__ import annotations

import re

import pytest

from tests.conversation import run_conversation

BOX = [
    ("en", "budget is around {b}k usd. we want qwen3-235b-a22b running 24/7 for internal use, 7 people at the same "
           "time. power is 14 cents/kwh. buy an 8x H200 box or keep renting?"),
    ("en", "we have roughly ${b}k to spend. qwen3-235b-a22b for internal use around the clock, 7 people at once. "
           "should we buy an 8x H200 server or rent?"),
    ("zh", "预算大概{b}万美元，公司内部7x24跑qwen3-235b-a22b，同时7个人用，电费一块四一度，买一台8卡H200还是租？"),
]
BUDGETS = [(250, "34%"), (260, "29%")]  # $336,000 against each: well past the 10% leeway


def _rows(text: str) -> list[list[str]]:
    return [[c.strip() for c in line.strip("|").split("|")] for line in text.splitlines()
            if re.match(r"\| \d+ × ", line)]


@pytest.mark.parametrize(("lang", "text"), BOX)
@pytest.mark.parametrize(("budget", "over"), BUDGETS)
def test_budget_does_not_buy_the_server(lang: str, text: str, budget: int, over: str) -> None:
    said = text.format(b=budget if lang == "en" else budget // 10)  # 25万美元: $250k
    reply = run_conversation([said])[-1].content
    head = next(line for line in reply.splitlines() if line.startswith("## "))
    assert not head.startswith(("## Buy", "## 购买")), head  # the budget does not buy an H200 server
    assert head.startswith(("## Rent", "## 租用")), head
    plan = reply.split("**From what you said:**")[0].split("**你说的**")[0]  # (the profile line names the leeway)
    assert "counts as within" not in plan and "也算在预算内" not in plan
    assert ("34% over your budget" if over == "34%" else "29% over your budget") in reply if lang == "en" \
        else f"多出 {over}" in reply
    # what the budget does buy, sized and priced
    assert ("What $" in reply and "does buy for this job" in reply) if lang == "en" else "的预算能买到的" in reply
    # one price, one verdict: no two rows at the same price disagree on the budget
    seen: dict[str, str] = {}
    for row in _rows(reply):
        price, fits = row[-1], row[1]
        assert seen.setdefault(price, fits) == fits, (price, seen[price], fits)


@pytest.mark.parametrize("budget", [400, 450])
def test_budget_that_buys_it_keeps_the_purchase(budget: int) -> None:
    """A budget over the server's price: buying stays the headline, on the whole server."""
    reply = run_conversation([BOX[0][1].format(b=budget)])[-1].content
    assert "## Buy 8 × NVIDIA H200 SXM 141GB" in reply
    assert f"within your ${budget},000" in reply and "% over your budget" not in reply


WHOLE = [
    ("en", "rent H100s or buy H200s? qwen3-235b-a22b for 7 people at once, 24/7, over 3 years",
     "## Buy one 8 × NVIDIA H200 SXM 141GB server ($336,000) for serving; the plan runs on 2 of its 8 cards"),
    ("en", "should we rent h100 or buy h200 for qwen3-235b-a22b, 7 users at the same time, around the clock, 3 years",
     "## Buy one 8 × NVIDIA H200 SXM 141GB server ($336,000) for serving; the plan runs on 2 of its 8 cards"),
    ("zh", "租H100还是买H200划算？跑qwen3-235b-a22b，同时7个人用，7x24，用三年",
     "## 购买 1 台 8 卡 NVIDIA H200 SXM 141GB 服务器（¥2,400,000 ($336,000)），用于推理服务；方案用其中 2 张卡（共 8 张）"),
]


@pytest.mark.parametrize(("lang", "text", "head"), WHOLE)
def test_part_of_a_server_is_headed_as_the_server(lang: str, text: str, head: str) -> None:
    reply = run_conversation([text])[-1].content
    assert head in reply.splitlines()
    assert "sold only as whole" not in reply.splitlines()[0] and "只能整台" not in reply


ASCEND = [
    ("zh", "只能用国产卡 有五百万篇新闻要做摘要 每篇两千token左右 摘要两百token 模型用qwen2.5-14b 两周内要跑完 租昇腾的话要几张",
     "（没有租用价格记录：华为云按实例出租，请向其询价）"),
    ("zh", "只能用国产卡，三百万篇新闻做摘要，每篇两千token，摘要两百token，qwen2.5-14b，十天内跑完，租910B要几张",
     "（没有租用价格记录：华为云按实例出租，请向其询价）"),
    ("en", "domestic chinese cards only. 5 million news articles to summarise, about 2000 tokens each, 200 token "
           "summaries, qwen2.5-14b, must finish within two weeks, how many ascend 910b should we rent",
     " (no rental price on record: Huawei Cloud rents it by the instance; ask for a quote)"),
]


@pytest.mark.parametrize(("lang", "text", "note"), ASCEND)
def test_rented_ascend_says_how_it_is_rented(lang: str, text: str, note: str) -> None:
    reply = run_conversation([text])[-1].content
    head = next(line for line in reply.splitlines() if line.startswith("## "))
    assert "Ascend 910B" in head and head.endswith(note), head
    assert "只能整台" not in head and "sold only as whole" not in head
