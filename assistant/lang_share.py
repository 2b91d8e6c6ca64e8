"""The reply language by the share of the words: a message mostly in English with a few Chinese terms
('how many 昇腾 910B … go 国产化') is English, and a Chinese message naming English models, cards or
terms ('8卡H100一台能放下吗') is Chinese. Catalog names and shared technical terms count for neither."""

from __future__ import annotations

import re
from functools import cache

_CJK_RUN = re.compile(r"[\u3400-\u9fff]+")
_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9'.\-]*")  # a token with a digit ('405b', 'H100', '16k') is a name or figure
_NAME_TOKEN = re.compile(r"[a-z]{3,}")
_FUNCTION_WORDS = frozenset(
    ["the", "and", "for", "with", "what", "how", "which", "want", "need", "can", "should", "please", "about", "our"])
# A Chinese word is about 1.5 characters: a message is Chinese when its Chinese characters outweigh this many per
# English word.
CHARS_PER_WORD = 1.5


@cache
def _names() -> tuple[frozenset[str], tuple[str, ...]]:
    """Latin name words and Chinese name pieces from the catalogs (cards, models, vendors, engines)."""
    from gpu_advisor.knowledge import engines, frameworks, gpus, models, unsized_cards

    said: list[str] = []
    for g in gpus():
        said += [g.name, *g.aliases, g.vendor]
    for m in models():
        said += [m.name, *m.aliases, m.family]
    for e in engines():
        said += [e.id, e.name]
    for f in frameworks():
        said += [f.id, getattr(f, "name", f.id)]
    for u in unsized_cards():
        said += [u.name, u.name_zh, *u.aliases, u.vendor]
    latin = {w for s in said for w in _NAME_TOKEN.findall(s.lower())} - _FUNCTION_WORDS
    cjk = sorted({w for s in said for w in _CJK_RUN.findall(s)}, key=lambda w: (-len(w), w))
    return frozenset(latin), tuple(cjk)


@cache
def _neutral() -> re.Pattern[str]:
    from gpu_advisor.assistant.reading.text import vocab

    return re.compile(vocab()["lang_share"]["neutral_latin"])


def shares(message: str) -> tuple[int, int]:
    """(Chinese characters, English words) in the message, catalog names and shared terms left out."""
    latin_names, cjk_names = _names()
    for name in cjk_names:
        message = message.replace(name, " ")
    cjk = sum(len(run) for run in _CJK_RUN.findall(message))
    neutral = _neutral()
    words = [w for w in _TOKEN.findall(message.lower())
             if not any(c.isdigit() for c in w) and w.strip(".'-") not in latin_names and not neutral.match(w.strip(".'-"))]
    return cjk, len(words)


def share_language(message: str) -> str | None:
    """'zh' or 'en' by the share of the words of a message holding Chinese characters; None on a tie."""
    cjk, words = shares(message)
    if cjk > CHARS_PER_WORD * words:
        return "zh"
    if cjk < CHARS_PER_WORD * words:
        return "en"
    return None
