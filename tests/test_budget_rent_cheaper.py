"""A company's one-off budget with 'buy or rent?' is no wish to buy: where the reply's own arithmetic shows renting
cheaper over the horizon at the utilisation said, renting is the headline (review BR C6: '购买 8 × 3090' above '36 个月
租用共 ¥80,858，购买共 ¥144,913'). A home user's budget still buys the card."""

from __future__ import annotations

import pytest

from tests.conversation import run_conversation

COMPANY = {
    "zh": ["预算五十万 买卡还是租卡划算 qwen2.5 72b 公司内部 一百来号人", "同时用的估计十几个吧", "工作时间"],
    "en": ["budget 70k usd, buy or rent? qwen2.5 72b for internal use at our company, ~100 staff",
           "maybe 15 at once"],
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_renting_leads_where_the_reply_shows_it_cheaper(lang: str) -> None:
    reply = run_conversation(COMPANY[lang])[-1].content
    heading = next(line for line in reply.splitlines() if line.startswith("## "))
    assert heading.startswith(("## 租用", "## Rent")), heading


def test_a_home_budget_still_buys_the_card() -> None:
    reply = run_conversation(["i have $2000 to spend on a gpu to run llama 3.1 8b at home"])[-1].content
    heading = next(line for line in reply.splitlines() if line.startswith("## "))
    assert heading.startswith("## Buy"), heading
