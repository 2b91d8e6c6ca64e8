"""Two-part questions where each part must get its answer (words/asks_parts.yaml).

'how many L40S for …, and would a single H100 be cheaper per month?', '需要几张L40S？换成一张H100每月会不会更便宜':
the count of one card is asked and another card with a count is put beside it. The first card is the plan
(as many as the job needs: the count asked), the second is compared with it at the fewest that hold the load
(the compare_cards reply weighs the month of each); the card with a count is no what-if that replaces the plan."""

from __future__ import annotations

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern


def _count_asked(m: Message, start: int, end: int) -> bool:
    """Whether the card named at text[start:end] is the one whose count is asked."""
    before, after = m.text[max(0, start - 30):start], m.text[end:end + 30]
    return any(word_pattern(f"asks_parts.{key}.{lang}").search(text)
               for key, text in (("count_before", before), ("count_after", after)) for lang in ("en", "zh"))


def read_count_and_other(m: Message, u: Understanding) -> None:
    """'how many A …, or would N × B be cheaper': plan A at the count the job needs, compare B beside it."""
    if u.intents & {"reset", "help", "empty", "explain"} or u.choice is not None or u.updates.get("owned"):
        return
    asked = {g for s, e, g, _n in m.gpus if s not in m.counted and _count_asked(m, s, e)}
    counted = {g for s, _e, g, _n in m.gpus if s in m.counted} - asked
    other = u.whatif_gpus[1] if u.whatif_gpus else next(iter(counted), None) if len(counted) == 1 else None
    if len(asked) != 1 or other is None or other in asked:
        return
    card = next(iter(asked))
    u.updates["only"] = [card]
    u.compare_gpus, u.cards, u.whatif_gpus = [card, other], [card, other], None
    u.intents -= {"whatif"}
    u.updates.pop("fewest_owned", None)  # "how many would I need": no cards of theirs to count down
    u.also = u.also or "compare_cards"
    u.ask = {**u.ask, "count_asked": card}
