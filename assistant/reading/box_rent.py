"""A monthly rent said with its month apart from the amount: '每月租一台8卡H100要12万', '每个月花12万租一台8卡H100服务器',
'we pay 18k every month to rent an 8x h100 box'. The month is said earlier in the clause and renting anywhere in it:
the amount is a rent per month (of the machine or cards said with it; reading/prices.py shares it over them), never a
purchase. Grammar only: the words are in words/box_rent.yaml."""

from __future__ import annotations

from gpu_advisor.assistant.reading.clauses import clause_bounds
from gpu_advisor.assistant.reading.message import Message, Quantity
from gpu_advisor.assistant.reading.text import word_pattern


def rent_month_apart(m: Message, q: Quantity) -> bool:
    """The amount is a rent per month said apart from its month, in one comma-free clause."""
    left, right = clause_bounds(m.masked, q.start, q.end)
    before = m.masked[left:q.start].split(",")[-1]
    after = m.masked[q.end:right].split(",")[0]
    return bool(word_pattern("rent_month_said").search(before)
                and word_pattern("rent_word_said").search(before + " " + after))
