"""A count of cards the user will buy, no card named: 'we want to buy two cards for qlora of qwen2.5-72b', '我们想买
两张卡做 qwen2.5-72b 的 qlora 微调 … 买啥卡？' (review AL 20). The slot buy_count is the count (the plan weighs cards
bought that many at a time, tools.recommend); the wish to buy is a preference to buy, even where the same message
asks which card to buy ('买啥卡', read as a question, not as the way to have them). Words in words/buy_count.yaml."""

from __future__ import annotations

from gpu_advisor.assistant.reading.clauses import negated
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern
from gpu_advisor.assistant.reading.vague_buy import one_card_bought

MAX_BOUGHT = 16  # a count beyond a server's worth is no card count said to buy


def read_buy_count(m: Message) -> int | None:
    """The count in 'buy N cards' said with no card (a card named with its count is a setup named: 'only')."""
    for x in word_pattern("buy_count").finditer(m.masked):
        n = int(x.group(1) or x.group(2))
        if 1 <= n <= MAX_BOUGHT and not negated(m.masked, x.start()) and "▒" not in x.group():
            return n
    return one_card_bought(m)  # 'buy a card', '想买张卡': one (reading/vague_buy.py)


def buy_count_kept(u: Understanding) -> None:
    """With cards owned the count is theirs (reading.owned), not one to buy; else buying them is the preference."""
    if "buy_count" not in u.updates:
        return
    if u.updates.get("owned"):
        u.updates.pop("buy_count")
    elif u.updates.get("preference") is None:
        u.updates["preference"] = "buy"
