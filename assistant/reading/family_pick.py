"""A family named with no size but with a word for its largest or smallest model: "its qwen, the big one",
"千问最大的", "the smallest llama". The pick is the first or last model of the family's current line
(assistant/reading/words/family_pick.yaml), so "the big one" is today's flagship, never an old checkpoint."""

from __future__ import annotations

import re
import unicodedata

from assistant.reading.message import Message, Understanding
from assistant.reading.text import vocab


def _names_family(word: str, typed: str) -> bool:
    if word.isascii():
        return re.search(rf"(?<![a-z0-9]){re.escape(word)}(?![a-z0-9.\-]*\d)", typed) is not None
    return word in typed


def family_pick(raw: str) -> str | None:
    """The catalog id the message picks by family and extreme, or None."""
    words = vocab()["family_pick"]
    typed = unicodedata.normalize("NFKC", raw).lower()
    big = re.search(words["largest"], typed) is not None
    small = re.search(words["smallest"], typed) is not None
    if big == small:
        return None  # neither, or both ("the big one or the small one?"): nothing picked
    named = [f for f, entry in words["families"].items() if any(_names_family(w, typed) for w in entry["words"])]
    if len(named) != 1:
        return None
    line = words["families"][named[0]]["line"]
    return str(line[-1] if big else line[0])


def read_family_pick(m: Message, u: Understanding) -> None:
    if u.updates.get("model") or m.names:
        return  # a model or size already named wins: "qwen 72b, the big one" is qwen 72b
    pick = family_pick(m.raw)
    if pick is not None:
        u.updates["model"] = pick
