"""Lengths said in characters, words or bytes of text ('3000 字', '500 words', '40 MB of chat logs'): read as tokens
at the ratio words/units.yaml gives (text_units), the ratio said in the answer. Grammar only: the units and ratios
are data."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from gpu_advisor.assistant.reading.text import vocab, word_pattern

if TYPE_CHECKING:
    from gpu_advisor.assistant.reading.quantities import Quantity


def text_unit(after: str, masked: str, lang: str, before: str = "") -> tuple[str, float, int, str] | None:
    """A length said in characters, words, bytes or pages: (unit as said, units per token, its end, its kind: 'bytes'
    for a size of text data, 'page' for pages of each item, else ''). Characters of Chinese text are 1.4 a token and
    of English text about 4: the language said in the message ('the docs are english', '中文语料'), else the
    message's own. Pages count only as each item's length (a cue `before` the number or after it)."""
    for row in vocab()["text_units"]:
        x = re.match(row["pattern"], after)
        if x and row.get("page"):
            if not (word_pattern("page_each_after").match(after) or word_pattern("page_each_before").search(before)):
                continue  # '1M pages to OCR', '100万页扫描件': the job's items, not each one's length
            return row["unit"], 1 / float(vocab()["page_tokens"]["each"]), x.end(), "page"
        if x:
            per_token = float(row["per_token"])
            if "zh_per_token" in row:
                zh = word_pattern("text_lang_zh").search(masked)
                en = word_pattern("text_lang_en").search(masked)
                if (zh and not en) or (lang == "zh" and not en):
                    per_token = float(row["zh_per_token"])
            if "zh_text_per_token" in row and word_pattern("text_lang_zh").search(masked) \
                    and not word_pattern("text_lang_en").search(masked):  # '2GB的中文语料': 3 bytes a character
                per_token = float(row["zh_text_per_token"])
            return row["unit"], per_token, x.end(), "bytes" if row.get("bytes") else ""
    return None


def as_tokens(q: Quantity, masked: str, lang: str, base: str | None = None, shift: int = 0
              ) -> tuple[Quantity, str, str] | None:
    """The quantity in tokens, what was said ('3000|字|1.4', '40|MB|4e-06|bytes', '25|pages|0.00166667|page'), and the message with its unit read
    as tokens (for the role rules: `base`, the message with a range's low end cut out `shift` characters before the
    quantity, when it is the top of a range); None when no text unit follows it."""
    found = text_unit(masked[q.end:q.end + 24], masked, lang, masked[max(0, q.start - 24):q.start])
    if found is None:
        return None
    unit, per_token, end, kind = found
    base = masked if base is None else base
    view = base[:q.end - shift] + " tokens " + base[q.end - shift + end:]  # '2000字的摘要': 'tokens 的', a word apart
    said = f"{q.value:g}|{unit}|{per_token:g}" + (f"|{kind}" if kind else "")
    return replace(q, number=round(q.value / per_token, 3), scale=""), said, view


def text_role(role: str, said: str, masked: str, q: Quantity) -> str:
    """The role of a length said as text: a size of text data is a dataset however small (never a conversation's
    length); an item named before a bare length ('标题一般就 30 个字', 'titles are about 30 words') is its length."""
    if said.endswith("|bytes") and role in ("", "context"):
        return "train_tokens"
    if not role and word_pattern("text_item_before").search(masked[max(0, q.start - 40):q.start]):
        return "per_item_tokens"
    return role
