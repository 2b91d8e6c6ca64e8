"""Changes said in a follow-up: relative ones ('the prompt count doubles', '用户翻倍') and whether a message says a
value changes at all ('we grow to 2000 DAU'). The words are in words/changes.yaml."""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from gpu_advisor.assistant.reading.clauses import negated
from gpu_advisor.assistant.reading.message import Message
from gpu_advisor.assistant.reading.text import alternation, vocab, word_pattern
from gpu_advisor.knowledge.pattern_cache import compiled


def _words(items) -> re.Pattern[str]:
    """Literal words or phrases as one pattern, longest first, not inside a longer English word."""
    return compiled(rf"(?<![a-z])(?:{alternation(items)})(?![a-z])")


@cache
def _change_verb() -> re.Pattern[str]:
    """The verbs of change, without the short English words ('now', 'then') that say no change alone."""
    return _words(w for w in vocab()["change_verbs"] if len(w) > 3 or not w.isascii())


def said_as_change(text: str) -> bool:
    """Whether a message says a value changes ('we grow to 2000 DAU', '日活涨到五千')."""
    return bool(_change_verb().search(text.lower()))


def read_scale(m: Message) -> dict[str, float]:
    """Changes relative to what was said: 'double the users' (users x 2), 'half the context'."""
    found: dict[str, float] = {}
    factors, nouns = _relative_patterns()
    gap = int(vocab()["relative_gap"])
    # the Chinese words as typed too: the rewrites turn '并发' and '一倍' into other words
    for text in (m.masked, unicodedata.normalize("NFKC", m.raw).lower()):
        said = [(x.start(), x.end(), slot) for slot, pattern in nouns.items() for x in pattern.finditer(text)]
        # a slot named inside the load's noun is the slot ('数据量' is the data, '用户量' the users), not the load
        # (also as rewritten: 'data 量')
        said = [(s, e, slot) for s, e, slot in said if slot != "load"
                or not any(o != "load" and not text[min(e, oe):max(s, os)].strip() for os, oe, o in said)]
        for factor, pattern in factors.items():
            for x in pattern.finditer(text):
                if negated(text, x.start()):
                    continue
                near = [(x.start() - e if e <= x.start() else s - x.end(), slot) for s, e, slot in said
                        if (e <= x.start() and (_one_clause(text[e:x.start()], gap) or _hedged(text[e:x.start()], gap)))
                        or (s >= x.end() and _one_clause(text[x.end():s], gap))]
                if near:  # "double the users, halve the context": each factor takes the noun nearest to it
                    found.setdefault(min(near)[1], factor)
    return found


def _one_clause(between: str, gap: int) -> bool:
    """Whether the words between a factor and a noun keep them in one phrase (no punctuation, no number)."""
    return len(between) <= gap and not re.search(r"[.,;:!?，。；！？]|\d", between)


def _hedged(between: str, gap: int) -> bool:
    """'users than expected, like 10x': one comma, then only a hedge word before the factor; the noun's phrase goes on."""
    head, comma, tail = between.rpartition(",") if "," in between else between.rpartition("，")
    return bool(comma) and _one_clause(head, gap) and bool(word_pattern("relative_hedge").match(tail))


@cache
def _relative_patterns() -> tuple[dict[float, re.Pattern[str]], dict[str, re.Pattern[str]]]:
    """The factor words ('doubles', '翻倍', 'halve') and each slot's nouns ('prompt count', '用户') of a relative
    change, as patterns (words/changes.yaml); 'load' is the job's load, whichever slot holds it ('traffic', '量')."""
    v = vocab()
    return ({float(f): _words(ws) for f, ws in v["relative_factors"].items()},
            {**{slot: _words(ws) for slot, ws in v["relative_nouns"].items()}, "load": word_pattern("load_nouns")})
