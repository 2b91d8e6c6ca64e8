"""Two-part questions where each part must get its answer (words/asks_parts.yaml).

'how many L40S for …, and would a single H100 be cheaper per month?', '需要几张L40S？换成一张H100每月会不会更便宜':
the count of one card is asked and another card with a count is put beside it. The first card is the plan
(as many as the job needs: the count asked), the second is compared with it at the fewest that hold the load
(the compare_cards reply weighs the month of each); the card with a count is no what-if that replaces the plan."""

from __future__ import annotations

import unicodedata

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


def _typed(m: Message) -> str:
    return unicodedata.normalize("NFKC", m.raw).lower()


def _switch_target(m: Message) -> tuple[int, str] | None:
    """The model or bare size said right after a switch word ('换成72B', 'switch to llama 3.3 70b'), as the model
    reader writes it (a catalog id, or '72B')."""
    said = [(s, model_id) for s, _e, model_id in m.names]
    said += [(q.start, f"{q.value / 1e9:g}B") for q in m.qty if q.role == "model" and not q.negated]
    for start, spec in sorted(said):
        before = m.text[max(0, start - 24):start]
        if any(word_pattern(f"asks_parts.switch_to.{lang}").search(before) for lang in ("en", "zh")):
            return start, spec
    return None


def read_model_switched(m: Message, u: Understanding) -> None:
    """'算了还是换成72B吧，效果差太多了，其他不变', 'switch to 72b, the 14b quality is too poor, keep the rest': a switch
    of model with the old one's quality as the reason. The model switched to is the model (the rest of the plan
    kept), not the one called poor; no question about quality is asked."""
    if u.intents & {"reset", "help", "empty", "explain"} or u.choice is not None:
        return
    complaint = any(word_pattern(f"asks_parts.complaint.{lang}").search(text)
                    for lang in ("en", "zh") for text in (m.text, _typed(m)))
    target = _switch_target(m)
    if target is None or not (complaint or "quality" not in u.intents):
        return
    if "quality" not in u.intents and u.updates.get("model") in (None, target[1]):
        return
    if "quality" in u.intents and not complaint:
        return
    u.intents -= {"quality"}
    u.subject = None
    u.updates["model"] = target[1]
    u.ask = {**u.ask, "model_switched": target[1]}
