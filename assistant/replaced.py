"""A card put right in a later turn, and cards said to be had with no count (the reader's assistant/reading/replaced.py):

- 'sorry, I meant H200s not H100s', '不是H100，是H200', '我说错了，是H200': the card said wrong is replaced by the
  right one where the profile holds it (the cards owned, or the cards the plan is held to), its count kept unless a new
  one is said; with no such card held, the plan is held to the right card. Neither is ruled out;
- 'we only have 40gb A100s', '我们只有40G的A100': the count said before for that card is kept; with none, the plan
  takes the count needed on that card and a note asks how many there are."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.premise import SLOTS, counted
from gpu_advisor.assistant.reading.message import Understanding
from gpu_advisor.knowledge import find_gpu


def _entry(n: int | None, card: str) -> str:
    return f"{n}x {card}" if n else card


def apply_replaced(u: Understanding, profile: Any, updates: dict[str, Any]) -> bool:
    """Put the right card in place of the one said wrong (updates); True when the message put a card right."""
    said = u.ask.get("replaced")
    if not said:
        return False
    card, old, n = said
    held = {counted(e)[1] for slot in SLOTS for e in getattr(profile, slot, None) or []}
    wrong = {old} if old else held if len(held) == 1 else set()
    done = False
    for slot in SLOTS:
        entries = updates.get(slot, getattr(profile, slot, None)) or []
        if any(counted(e)[1] in wrong for e in entries):
            updates[slot] = [_entry(n or (counted(e)[0] if "x " in e else None), card) if counted(e)[1] in wrong else e
                             for e in entries]
            done = True
    if not done:
        updates["only"] = [_entry(n, card)]
    if old and old in (profile.exclude or []):
        updates["exclude"] = [c for c in profile.exclude if c != old] or None
    return True


def apply_owned_uncounted(u: Understanding, profile: Any, updates: dict[str, Any], lang: str, notes: list[str]) -> None:
    """Cards had with no count: the count said before for that card, else the count needed and a question."""
    loose = u.ask.get("owned_uncounted") or []
    if not loose or u.recount or not updates.get("owned"):
        return
    before = {c: n for slot in SLOTS for e in getattr(profile, slot, None) or [] if "x " in e
              for n, c in [counted(e)]}
    kept, free = [], []
    for e in updates["owned"]:
        card = counted(e)[1]
        if card not in loose:
            kept.append(e)
        elif card in before:
            kept.append(f"{before[card]}x {card}")
        else:
            free.append(card)
    updates["owned"] = kept or None
    if free:
        updates["only"] = free
        names = say(lang, "list_sep").join(find_gpu(c).name for c in free)
        notes.append(say(lang, "note.owned_count_unsaid", card=names))
