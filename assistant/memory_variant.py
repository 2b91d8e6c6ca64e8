"""A card's memory put right in a later turn (the reader's assistant/reading/memory_variant.py): 'sorry, they're the
80GB ones not 40', '80G的', '是80G版本' after a plan on 8 × A100 40GB, and 'actually they're A100 80GB' (the card named
with its other memory): the card held (owned, or the plan held to it) becomes its variant of that memory, its count
kept, as a card put right (assistant/replaced.py applies it)."""

from __future__ import annotations

import re
from typing import Any

from gpu_advisor.assistant.premise import SLOTS, counted
from gpu_advisor.assistant.reading.message import Understanding
from gpu_advisor.knowledge import gpus

_MEMORY = re.compile(r"-\d+gb")
_FORM = re.compile(r"-(?:sxm\d?|pcie|nvl)$")


def _family(card: str, loose: bool) -> str:
    base = _MEMORY.sub("", card)
    return _FORM.sub("", base) if loose else base


def sibling(card: str, memory: float) -> str | None:
    """The catalog's variant of the card with that memory (the same form factor first), or None. A Mac: the same
    chip with that memory, from the Apple chip table (an M3 Max 64GB -> the M3 Max 128GB)."""
    if card.startswith("apple-"):
        return _mac_sibling(card, memory)
    for loose in (False, True):
        same = [g.id for g in gpus() if g.id != card and _family(g.id, loose) == _family(card, loose)
                and abs(g.memory_gb - memory) < 1]
        if same:
            return same[0]
    return None


def _mac_sibling(card: str, memory: float) -> str | None:
    from gpu_advisor.knowledge import BadValue, find_gpu
    from gpu_advisor.knowledge.apple import parse_apple

    family = find_gpu(card).name.split(",")[0].split("(")[0].strip()  # 'Apple M3 Max'
    try:
        mac = parse_apple(f"{family} {memory:g}gb")
    except BadValue:
        return None
    return mac.id if mac is not None and mac.id != card else None


def apply_memory_variant(u: Understanding, profile: Any, updates: dict[str, Any]) -> None:
    """u.ask['replaced'] for a memory put right: the held card's variant of that memory in its place."""
    said, named = u.ask.get("memory_variant"), u.ask.get("memory_variant_card")
    held = {counted(e)[1] for slot in SLOTS for e in getattr(profile, slot, None) or []}
    if named and (not said or not any(h != named and sibling(h, said[0]) == named for h in held)):
        return  # '是M2 Max 64GB的' answering which Mac: that card named, no other memory of it held to put right
    if named and updates.get("owned") == [f"1x {named}"]:
        updates.pop("owned")  # "my bad, they're A100 80GB": the cards held, their memory put right
    if not said or u.ask.get("replaced") or updates.get("owned") or updates.get("only"):
        return
    if named:  # 'actually they're A100 80GB' after 8 × A100 40GB
        twin = [h for h in held if h != named and sibling(h, said[0]) == named]
        new, old = (named, twin[0]) if len(twin) == 1 else (None, None)
    else:
        old = next(iter(held)) if len(held) == 1 else None
        new = sibling(old, said[0]) if old else None
    if new and old:
        u.ask = {**u.ask, "replaced": (new, old, None)}
        u.compare_gpus = [c for c in u.compare_gpus if c != new]
