"""A server's price quoted in the first message ('8卡整机120万一台', 'an 8xH100 box is ~$300k', '一台服务器报价80万') prices
the buy plan of that server's cards, said as the user's quote (it was dropped: Ascend buy plans asked for a price, and
'an 8xH100 box is ~$300k' made the 8 H100s the user's own). The cards in the machine are the ones said, else the
card's usual server."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_conversation

QUOTES = [
    ("我们想买昇腾910B部署qwen2.5 72b给200人用，8卡整机120万一台", "ascend-910b", 8, 1_200_000 * 0.14),
    ("想买昇腾910B，8卡整机120万一台，部署qwen2.5 72b给200人用", "ascend-910b", 8, 1_200_000 * 0.14),
    ("想买服务器部署deepseek v3，H20，一台服务器报价80万", "h20", 8, 800_000 * 0.14),
    ("H20一台服务器报价80万，想买来部署deepseek v3", "h20", 8, 800_000 * 0.14),
    ("we want to buy H100s to serve llama 3.1 70b for 100 users; an 8xH100 box is ~$300k", "h100-sxm", 8, 300_000),
    ("an 8xH100 box costs about $300k; serve llama 3.1 70b for 100 users", "h100-sxm", 8, 300_000),
    ("serve llama 3.1 70b for 100 users, an 8x H100 server is quoted at $300k", "h100-sxm", 8, 300_000),
]


@pytest.mark.parametrize(("text", "gpu", "cards", "usd"), QUOTES)
def test_a_server_price_said_first_prices_its_cards(text, gpu, cards, usd):
    u = understand(text)
    quote = next(q for q in u.quotes if q["gpu"] == gpu)
    assert quote["machine_gpus"] == cards and quote["buy_usd_per_gpu"] == pytest.approx(usd / cards, rel=1e-3)
    assert "owned" not in u.updates, u.updates  # a machine priced is one to buy, not one had


def test_a_machine_had_is_still_owned():
    assert understand("we have an 8xH100 box, serve llama 3.1 70b for 100 users").updates["owned"] == ["8x h100-sxm"]


@pytest.mark.parametrize(("text", "said", "asked"), [
    ("我们想买昇腾910B部署qwen2.5 72b给200人用，8卡整机120万一台，电费0.6元一度",
     "按你给的 8 卡整机报价 ¥1,200,000 ($168,000) 折算", "的购买价；告诉我买一块要多少钱"),
    ("we want to buy H100s to serve llama 3.1 70b for 100 users; an 8xH100 box is ~$300k, power is $0.12/kWh",
     "your quote of $300,000 for a machine of 8 cards", "you own"),
])
def test_the_buy_plan_says_the_quote_was_used_and_asks_for_none(text, said, asked):
    reply = "\n".join(r.content for r in run_conversation([text, "工作时间" if "卡" in text else "working hours"]))
    assert said in reply and asked not in reply, reply
