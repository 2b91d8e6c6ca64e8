"""The user's own setup said to be slow: 'we run a 4x A6000 box … users are complaining its slow. should we buy another
box or upgrade?', '我们4张A6000跑70B，大家嫌慢，加一台还是换卡？'. Read as u.ask['slow'] (with u.ask['no_link'] when the
message says there is no NVLink); assistant/owned_slow.py answers why, on their cards, before the options."""

from __future__ import annotations

from gpu_advisor.assistant.reading.message import Understanding
from gpu_advisor.assistant.reading.text import clean, word_pattern


def read_slow(raw: str, u: Understanding) -> None:
    """'its slow', '大家嫌慢' beside cards owned: the speed of their own setup is the first question."""
    if not u.updates.get("owned"):
        return
    said, other = word_pattern("owned_slow.complaint"), word_pattern("owned_slow_other")
    if not any(not other.search(t[max(0, x.start() - 24):x.start()]) for t in (clean(raw), raw.lower())
               for x in said.finditer(t)):
        return  # ('the network between them is slow': not their answers)
    text = clean(raw)
    no_link = bool(word_pattern("no_link").search(text))
    quant = bool(word_pattern("fleet.quant").search(text) or word_pattern("fleet.quant").search(raw.lower()))
    u.ask = {**u.ask, "slow": True, **({"no_link": True} if no_link else {}), **({"quant": True} if quant else {})}


def read_count_owned(raw: str, u: Understanding) -> None:
    """'wait we actually have 2 of them in the box', '我们其实有两张': that many of the card named before, the user's own
    (the engine's count of the card just named, with the cards named made theirs)."""
    if u.updates.get("owned"):
        return
    said = word_pattern("owned_count_said").search(clean(raw))
    if said and 0 < int(said.group(1)) <= 4096 and u.card_count in (None, int(said.group(1))):
        u.card_count = int(said.group(1))
        u.owns_named = u.owns_named or "said"
