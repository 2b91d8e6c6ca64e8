"""Money is never a user count: a number read as people right beside money words ('预算一万五左右人民币' once read
'budget 15000 people 民币') is refused as people. A part priced in passing ('桥要七八百块') is no budget.
Grammar only: the words are in words/money_said.yaml."""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

from gpu_advisor.assistant.reading.clauses import clause_bounds
from gpu_advisor.assistant.reading.text import alternation, vocab, word_pattern

if TYPE_CHECKING:
    from gpu_advisor.assistant.reading.message import Message, Understanding
    from gpu_advisor.assistant.reading.quantities import Quantity

PEOPLE_SLOTS = ("users", "concurrency")


def beside_money(m: Message, start: int, end: int) -> bool:
    """Whether the number at start:end is said as money: a budget or currency right before it or a currency after."""
    before, after = m.text[max(0, start - 40):start], m.text[end:end + 30]
    return bool(word_pattern("money_beside_before").search(before) or word_pattern("money_beside_after").match(after))


def refuse_money_people(m: Message, u: Understanding) -> None:
    """Drop a user count that was only ever read from money ('budget 15k rmb' is never 15,000 users)."""
    people = [q for q in m.qty if q.role in ("users", "concurrent_users", "daily_users", "population")]
    money_people = {q.value for q in people if beside_money(m, q.start, q.end)}
    kept = {q.value for q in people if not beside_money(m, q.start, q.end)}
    for slot in PEOPLE_SLOTS:
        if u.updates.get(slot) in money_people - kept:
            del u.updates[slot]


@cache
def _item_price_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    items = alternation(vocab()["priced_items"])
    before = re.compile(rf"(?:(?<![a-z])(?:{items})(?:s|es)?(?![a-z]))" + vocab()["priced_item_verb"])
    after = re.compile(vocab()["priced_item_for"] + rf"(?:nvlink\s*)?(?:{items})(?![a-z])")
    return before, after


def item_priced(m: Message, q: Quantity) -> bool:
    """Whether the amount is the price of a part said in passing ('桥要七八百块', 'the bridge is like $80', '$150 for a
    psu'): that item's price, never a budget."""
    before, after = _item_price_patterns()
    return bool(before.search(m.masked[max(0, q.start - 40):q.start]) or after.match(m.masked[q.end:q.end + 40]))


def item_bought(m: Message, pos: int) -> bool:
    """Whether a 'buy' at pos is about a part, not the cards ('nvlink到底有没有必要买', 'should I buy the bridge?'): its
    clause names a part and no card, so it says no preference to buy cards."""
    left, right = clause_bounds(m.masked, pos, pos + 1)
    if any(left <= s < right for s, _e, _g, _n in m.gpus):
        return False
    items = alternation(vocab()["priced_items"])
    return bool(re.search(rf"(?<![a-z])(?:{items})(?:s|es)?(?![a-z])", m.masked[left:right]))
