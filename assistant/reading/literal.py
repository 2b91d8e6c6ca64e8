"""The literal question a sizing message asks, as a typed code: 'fits' (a yes/no question about fitting or
running, 'is it enough'), 'more' (whether more cards must be bought: '要买新卡吗', answered on the cards owned), 'daily' (good enough for one person's everyday use), 'count' (how many cards), 'duration' (how long), 'monthly' (what per month), 'speed' (how fast for one user), 'memory' (how much
GPU memory) or 'versus' (X or Y). The reply's first line owes an answer of that kind before the plan; writers turn
the code and the tool's figure into a sentence.

The words are assistant/reading/words/literal.yaml's; the kinds are tried in LITERAL_KINDS order and the first
that matches is the message's (a duration or monthly question often contains 'or': those come first)."""

from __future__ import annotations

import unicodedata

from gpu_advisor.assistant.reading.text import readable, word_pattern

# Kinds of literal question, in the order tried.
LITERAL_KINDS = ("duration", "monthly", "daily", "count", "speed", "more", "fits", "memory", "versus")


def _asks(kind: str, typed: str) -> bool:
    """Whether the (normalised, lower-case) message asks a question of this kind."""
    if kind != "monthly":
        return bool(word_pattern(f"literal_question.{kind}").search(typed))
    # month words inside a budget or a price said are no question ('预算一个月5000块')
    said = [m.span() for m in word_pattern("literal_said.monthly").finditer(typed)
            if not word_pattern("money_enough_after").match(typed[m.end():])]  # '5000块/月够不够': asked
    return any(not any(a <= m.start() and m.end() <= b for a, b in said)
               for m in word_pattern("literal_question.monthly").finditer(typed))


def literal_kind(raw: str) -> str | None:
    """The kind of answer the message's own question asks for, or None when it asks for none of them
    ('will qwen3-32b fit on 2x3090?' -> 'fits', '要训练多久' -> 'duration', 'a100 or 4090?' -> 'versus')."""
    typed = unicodedata.normalize("NFKC", readable(raw)).lower()  # cut first: no message costs more than a full one
    return next((kind for kind in LITERAL_KINDS if _asks(kind, typed)), None)


def literal_kinds(raw: str) -> list[str]:
    """Every literal question the message asks, in the order asked ('does it fit on 2x 4090? and what per month?'
    -> fits and monthly: the reply owes both); 'versus' only when it is the one ('or' is in many questions)."""
    typed = unicodedata.normalize("NFKC", readable(raw)).lower()  # cut first: no message costs more than a full one
    if word_pattern("literal_context_asked").search(typed):
        return []  # 'how long a context can it fit?': the longest context, a figure of its own
    kinds = [kind for kind in LITERAL_KINDS if _asks(kind, typed)]
    kinds = kinds if len(kinds) < 2 else [k for k in kinds if k != "versus"] if kinds[0] != "versus" else kinds[:1]
    return sorted(kinds, key=lambda kind: _at(kind, typed))  # in the order asked: each answer where it was asked


def _at(kind: str, typed: str) -> int:
    """Where the message first asks a question of this kind."""
    x = word_pattern(f"literal_question.{kind}").search(typed)
    return x.start() if x else len(typed)
