"""A model family said without a size ('its qwen, the big one', '用千问最小的'): the catalog model it is taken to
mean, with a note that names it and the family's other sizes, so the pick is said and can be changed. Grammar
only: the families, their picks and the size words are in words/families.yaml."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from gpu_advisor.assistant.reading.names import model_index
from gpu_advisor.assistant.reading.text import alternation, vocab, word_pattern
from gpu_advisor.assistant.reading.weigh import sibling
from gpu_advisor.knowledge import find_model
from gpu_advisor.knowledge.resolve import normalise

if TYPE_CHECKING:
    from gpu_advisor.assistant.reading.message import Message

SIZE_KINDS = ("biggest", "smallest", "big", "small")


def _families_said(text: str) -> list[str]:
    found = []
    for family, words in vocab()["family_aliases"].items():
        if re.search(rf"(?<![a-z0-9.\-])(?:{alternation(words)})(?![a-z0-9\-]|\.cpp)", text):
            found.append(family)
    return found


def families_named(m: Message) -> list[str]:
    """The model families named in the message (words/families.yaml keys: 'qwen', 'deepseek')."""
    return _families_said(m.text)


def family_pick(m: Message) -> str | None:
    """The model of the one family said with a size word ('the big one', '最小的'), said back with the others;
    a family alone is asked about (a note listing its sizes). None when no family, or several, are said."""
    families = _families_said(m.text)  # unmasked: an unknown family word is masked
    if len(families) != 1:
        return None
    if m.unknown:
        typed = m.unknown[0].lower()
        if m.unknown[1] or re.search(r"\d", typed) or not _families_said(typed):
            return None  # 'glm-5': a name the catalog lacks, said and asked about, never a sibling
        m.unknown = None  # 'its glm', 'its Qwen': the family word alone, taken below
    family = families[0]
    picks = vocab()["family_picks"][family]
    name = vocab()["family_names"][family]
    kind = next((k for k in SIZE_KINDS if word_pattern(f"family_size_words.{k}").search(m.masked)), None)
    distill = word_pattern("distill_asked").search(m.masked)  # 'deepseek r1 distill': a distill of it, asked which
    version = _version_said(m, family) if kind is None and not distill else None
    if version:
        return version  # 'off the deepseek api to self hosting v3': DeepSeek-V3, the family's version said apart
    if kind is None:  # 'qwen' alone: which one is asked, with the family's sizes, never guessed
        m.notes.append(("note.family_which", {"family": name, "sizes": _names_by_size(picks.values()), "family_key": family}))
        return None
    chosen = picks[kind]
    m.notes.append(("note.family_pick", {"family": name, "chosen": find_model(chosen).name,
                                         "others": _names_by_size(v for v in picks.values() if v != chosen)}))
    return chosen


def _version_said(m: Message, family: str) -> str | None:
    """A version said apart from the family's name ('deepseek api … self hosting v3', 'deepseek… 用r1'): the catalog
    model of that family and version, or None."""
    for x in word_pattern("family_version").finditer(m.masked):
        found = model_index().get(normalise(f"{vocab()['family_aliases'][family][0]} {x.group(0)}"))
        if found:
            return str(found)
    return None


def _names_by_size(model_ids: Iterable[str]) -> str:
    """The models' names, smallest first, each once: how a family's sizes are listed back."""
    return ", ".join(find_model(x).name for x in sorted(set(model_ids), key=lambda x: find_model(x).total_params_b))


def either_size(m: Message, model_id: str, sizes: list[str]) -> str:
    """Two sizes of one line left to the assistant ('qwen2.5 14b or 32b, you pick', '14b 或者 32b 都行，你推荐一个'):
    the larger (the better answers), with a note naming the smaller as the cheaper choice. Without such words the
    first model named is sized and the others are said."""
    options = [model_id] + [x for x in (sibling(model_id, float(s.split("B")[0])) for s in sizes) if x]
    if len(set(options)) < 2:
        return model_id
    if not word_pattern("either_cue").search(m.masked):  # 'qwen2.5 14b 32b 哪个': the first sized, the others said
        others = [find_model(x).name for x in dict.fromkeys(options) if x != model_id]
        m.notes.append(("note.model_other", {"chosen": find_model(model_id).name, "others": ", ".join(others),
                                             "first": others[0]}))
        return model_id
    chosen = max(options, key=lambda x: find_model(x).total_params_b)
    others = [find_model(x).name for x in dict.fromkeys(options) if x != chosen]
    m.notes.append(("note.model_either", {"chosen": find_model(chosen).name, "others": ", ".join(others),
                                          "first": others[0]}))
    return chosen


def family_size(family: str, spec: str) -> str | None:
    """The answer to 'which Llama?' given as a bare size ('70b' -> llama-3.3-70b): the newest catalog model of the
    family asked about with that size, or None (no such size: the size stays as said)."""
    if family not in vocab()["family_aliases"] or not spec[:1].isdigit() or "-A" in spec:
        return None
    return model_index().get(normalise(f"{vocab()['family_aliases'][family][0]} {spec.lower()}"))


def family_asked(notes: list[tuple[str, dict[str, str]]]) -> str | None:
    """The family this message was asked about ('qwen' alone -> 'which Qwen?'), to read a bare size said next."""
    return next((params["family_key"] for code, params in notes if code == "note.family_which"), None)
