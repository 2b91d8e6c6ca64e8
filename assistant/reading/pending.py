"""A bare answer to the question just asked: a quick reply's number ('2', 'option 2'), its words ('both',
'cheapest'), a bare size at the model question ('70' -> 70B), or a name the catalog does not know."""

from __future__ import annotations

import re

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.names import family_words
from gpu_advisor.assistant.reading.text import CHOICE_SLOTS_WITH_NUMBERS, vocab, word_pattern
from gpu_advisor.knowledge.resolve import BadValue, check_size


def read_choice(m: Message) -> int | None:
    """A choice number typed at a question ('2', 'option 2'): 1-based, for the engine to map."""
    if not m.pending or m.pending in CHOICE_SLOTS_WITH_NUMBERS:
        return None
    x = word_pattern("choice").match(m.text)
    if not x:
        return None
    n = int(x.group(1))
    count = _choice_count(m.pending)
    if 1 <= n <= count or m.pending not in ("model", "utilisation", "batch_items"):
        return n if n >= 1 else None
    return None


def _choice_count(slot: str) -> int:
    """How many quick replies the question for a slot offers (the catalog's, else 9)."""
    try:
        from gpu_advisor.assistant.catalog import text

        return len(text("en", f"slot.{slot}.choices"))
    except Exception:  # noqa: BLE001 - no catalog entry: the fallback count
        return 9


def pending_value(m: Message, u: Understanding) -> None:
    """A bare answer to the question just asked: a quick reply's words ('both', 'cheapest'), a bare
    size at the model question ('70' -> 70B), a bare number at the items question, or a name the
    catalog does not know."""
    pending = m.pending
    if not pending or pending in u.updates or u.choice is not None or "not_sure" in u.intents:
        return
    key = m.text.strip(" .!?")
    table = vocab()["choice_words"].get(pending, {})
    if key in table:
        u.updates[pending] = table[key]
        return
    if pending == "model":
        bare = re.fullmatch(r"(?:about |around |~)?(\d+(?:\.\d+)?)", key)
        if bare and float(bare.group(1)) > 0:
            spec = f"{float(bare.group(1)):g}B"
            try:
                check_size(float(bare.group(1)), float(bare.group(1)))
                u.updates["model"] = spec
            except BadValue as e:
                u.problems.append((e.code or "bad_value", e.params))
            return
        looks_like_a_name = re.search(r"[\d\-/]", key) or re.search(r"[A-Z]", m.raw)
        if not u.updates and not u.unknown_model and re.search(r"[a-z]", key) and len(key.split()) <= 4 \
                and not u.intents and not u.topic and looks_like_a_name and key not in family_words() \
                and not any(code == "note.family_which" for code, _p in u.notes):  # 'its Qwen': asked which
            u.unknown_model = m.raw.strip()
