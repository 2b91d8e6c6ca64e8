"""A subsidy raised as a factor ('不一定要国产，但是国产有补贴', 'domestic chips get a subsidy here'): the tools do
not model one, so the answer says so, and how it would count (it lowers the subsidised card's cost by its amount),
never ignores it silently. Said right after the verdict, or before the read-back when there is none. Words:
lang2_subsidy in reading/words/lang_share.yaml; lang2.subsidy* in the catalogs."""
from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say


def with_subsidy(text: str, extra: dict[str, Any], raw: str, lang: str) -> tuple[str, dict[str, Any]]:
    from gpu_advisor.assistant.reading.text import word_pattern

    if not raw or not word_pattern("lang2_subsidy").search(raw.lower()):
        return text, extra
    note = say(lang, "lang2.subsidy")
    paragraphs = text.split("\n\n")
    verdict = say(lang, "verdict.head", job="").partition("(")[0].partition("（")[0].strip()
    said = say(lang, "answer.you_said", said="").partition(" ")[0].partition("：")[0]
    at = next((i + 1 for i, p in enumerate(paragraphs) if p.startswith(verdict)), None)
    if at is None:
        at = next((i for i, p in enumerate(paragraphs) if p.startswith(said)), len(paragraphs))
    paragraphs.insert(at, note)
    return "\n\n".join(paragraphs), {**extra, "subsidy": "not_modelled"}
