"""Goals said beside the job: the cheapest way asked for, and a computer the card goes into."""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING

from gpu_advisor.assistant.reading.text import word_pattern

if TYPE_CHECKING:
    from gpu_advisor.assistant.reading.intents import Understanding
    from gpu_advisor.assistant.reading.message import Message


def read_cheapest(m: Message) -> bool | None:
    """The cheapest way asked for ('cheapest way to get it done', '最省钱的方案', 'as cheap as possible'): the plan
    is the least paid option that meets every requirement (tools.recommend.decide), not a dearer, sooner one."""
    typed = unicodedata.normalize("NFKC", m.raw).lower()  # the Chinese patterns read the message as typed
    if word_pattern("availability.en").search(m.masked) or word_pattern("availability.zh").search(typed) \
            or word_pattern("cheapest_where").search(m.masked) or word_pattern("cheapest_where").search(typed):
        return None  # 'cheapest place to rent an h100', '哪家租a100最便宜': where to rent, no goal for the plan
    more = word_pattern("buy_box.cheap_more")  # '便宜点', '最划算' (words/buy_box.yaml)
    return True if m.live("cheapest_goal") or more.search(m.masked) or more.search(typed) else None


def read_has_host(m: Message) -> bool | None:
    """A computer for a card to go into: 'a GPU for my home PC', '装进我的电脑'."""
    named = bool(m.live("has_host"))
    card_only = bool(m.live("buy_card_only")) and not word_pattern("host_needed").search(m.masked)
    return True if named or card_only else None


def drop_lone_cheapest(u: Understanding) -> None:
    """'最便宜的方案是哪个' alone: a question about the plan on screen, no new goal."""
    if set(u.updates) == {"cheapest"} and "cheapest" in u.intents:
        u.updates.pop("cheapest")
