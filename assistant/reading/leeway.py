"""What the user lets go of and what they wish for, with no number said (words/leeway.yaml): "quantised is
fine", "量化也行" (4-bit weights allowed: the usual file at home, faster and with room for context) and "not too
slow", "速度别太慢" (a speed wish: sized as a comfortable per-user decode speed, said as an assumption). "It's my
own card" is reading/owned.py's."""

from __future__ import annotations

from gpu_advisor.assistant.reading.clauses import negated
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern
from gpu_advisor.tools.recommend import COMFORTABLE_TOKENS_PER_S


def _said(m: Message, key: str) -> bool:
    return any(not negated(m.masked, x.start()) for x in word_pattern(key).finditer(m.masked))


def _wish_asked(m: Message) -> bool:
    """The speed wish is inside a question whether it runs ('can i run 70b at q4 with decent speed?'): asked."""
    return any(word_pattern("speed_wish_question_before").search(m.masked[:x.start()])
               and word_pattern("speed_wish_question_after").match(m.masked[x.end():])
               for x in word_pattern("speed_wish").finditer(m.masked))


def read_leeway(m: Message, u: Understanding) -> None:
    """'quantised is fine' with no format named: 4-bit weights (int4: Q4_K_M in llama.cpp, AWQ in vLLM).
    'not too slow' with no speed said: at least COMFORTABLE_TOKENS_PER_S per user, and the note says so."""
    if _said(m, "quant_ok") and "precision" not in u.updates:
        u.updates["precision"] = "int4"
        u.notes.append(("note.quant_ok", {}))
    if _said(m, "speed_wish") and "min_tokens_per_s" not in u.updates and not word_pattern("speed_asked").search(m.masked) \
            and not _wish_asked(m):
        # ('will it be usable speed wise?', 'can i run it with decent speed?' ask the speed: the answer says it, no
        # target is set for them)
        u.updates["min_tokens_per_s"] = COMFORTABLE_TOKENS_PER_S
        u.notes.append(("note.speed_wish", {"tps": f"{COMFORTABLE_TOKENS_PER_S:g}"}))
