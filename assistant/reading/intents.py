"""What a message asks beside slot values: intents, concept topics, choices, relative changes."""

from __future__ import annotations

import re

import knowledge
from assistant.reading.message import Message, Understanding
from assistant.reading.names import family_words
from assistant.reading.quantities import negated
from assistant.reading.text import CHOICE_SLOTS_WITH_NUMBERS, pattern_rows, vocab, word_pattern
from knowledge.resolve import BadValue, check_size


def read_intents(m: Message) -> set[str]:
    """What the message asks beside slot values: reset, help, greet, thanks, not sure, math,
    rent or buy, injection."""
    found = set()
    for name in ("reset", "help", "greet", "thanks", "not_sure", "math", "rent_buy", "injection"):
        if word_pattern(f"intents.{name}").search(m.text):
            found.add(name)
    if "reset" in found and re.search(r"\bfrom scratch\b", m.text) and not re.search(
            r"\b(start (over|again)|reset|new (conversation|chat|session))\b", m.text):
        found.discard("reset")
    return found


def read_topic(m: Message) -> str | None:
    """The glossary topic of a concept question ('what is a KV cache?', 'explain int8',
    '什么是KV缓存'), or None when the message is no such question."""
    finder = getattr(knowledge, "find_topic", None)
    if finder is None:
        return None
    asks = any(re.search(p, m.text) for p in vocab()["explain_patterns"]) \
        or word_pattern("explain_bare").search(m.text)
    if not (asks or word_pattern("best_gpu").search(m.text) or re.search(r"\b(best|which|what)\b", m.text)):
        return None
    try:
        if word_pattern("compare_concepts").search(m.text):
            both = knowledge.find_topics(m.raw)
            if len(both) >= 2:
                return "+".join(both[:3])  # "lora vs qlora?": both entries, side by side
        return finder(m.raw)
    except Exception:  # noqa: BLE001 - a glossary that cannot be read answers no concept question
        return None


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
        from assistant.catalog import text

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
                and not u.intents and not u.topic and looks_like_a_name and key not in family_words():
            u.unknown_model = m.raw.strip()


def read_scale(m: Message) -> dict[str, float]:
    """Changes relative to what was said: 'double the users' (users x 2), 'half the context'."""
    found: dict[str, float] = {}
    for pattern, (slot, factor) in pattern_rows("relative"):
        hit = pattern.search(m.masked)
        if hit and not negated(m.masked, hit.start()):
            found.setdefault(slot, float(factor))
    return found

