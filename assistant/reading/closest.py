"""A model named in a version or variant the catalog does not hold is never read silently as another one
(issues 21/23: 'Gemma 3n E4B' read as Gemma 3 4B, 'Mistral Small 3.2' as Mistral Small 3): the model sized is
said to be the closest on record. Three ways a name falls short of its record: a near-miss spelling whose
version words are not the record's ('gemma 3n e8b' near 'gemma 3 8b'), a version said after a name the
catalog holds ('mistral small 3.3'), and an unknown name that extends a catalog id or carries an expert
marker ('Qwen3-235B-A22B-Thinking-2507', 'llama-4-17b-128e': that layout; an expert marker with no catalog
model gives no total size, so the size is asked, never a dense model of the active size). Grammar only:
the words are in words/closest.yaml."""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

from gpu_advisor.assistant.reading.generation import text_model
from gpu_advisor.assistant.reading.hub_names import is_repo
from gpu_advisor.assistant.reading.hybrid import hybrid_name
from gpu_advisor.assistant.reading.names import family_words, same_shape
from gpu_advisor.assistant.reading.text import word_pattern
from gpu_advisor.knowledge import find_model
from gpu_advisor.knowledge.name_shapes import (
    catalog_line,
    catalog_moe,
    catalog_sibling,
    experts_in_name,
    family_record,
)
from gpu_advisor.knowledge.resolve import model_index, normalise

if TYPE_CHECKING:
    from gpu_advisor.assistant.reading.message import Message
    from gpu_advisor.knowledge.schema import ModelArch

_TOKEN = re.compile(r"[a-z0-9.]+")


def _said(raw: str, typed: str) -> str:
    """The words as the user typed them (case and separators), else as read."""
    found = re.search(re.escape(typed).replace(r"\ ", r"[\s\-_]*"), raw, re.IGNORECASE)
    return found.group() if found else typed


@cache
def _record_tokens(model_id: str) -> frozenset[str]:
    m = find_model(model_id)
    words = (m.id, m.name, *m.aliases, *(h.split("/", 1)[-1] for h in m.hf_ids))
    return frozenset(t.strip(".") for w in words for t in _TOKEN.findall(re.sub(r"[-_()/,]", " ", w.lower())))


def _versions_differ(typed: str, model_id: str) -> bool:
    """A name read by a near miss whose words carry a digit that none of the record's names has: another
    version or variant ('3n', 'e8b'), not a typo of the letters ('lama 3.1 8b'). A name the catalog holds as
    typed (an alias, a family and size), a release date ('2507') and a task variant ('qwen2.5-math 7b', said
    by variant_notes) are the record's own."""
    if normalise(typed) in model_index() or same_shape(typed):
        return False
    tokens = {t.strip(".") for t in _TOKEN.findall(re.sub(r"[-_/]", " ", typed.lower()))}
    return any(re.search(r"\d", t) and not re.fullmatch(r"\d{4}", t) and t not in _record_tokens(model_id)
               for t in tokens)


def _version_after(m: Message, end: int, model_id: str) -> str | None:
    """A version said right after a name the catalog holds ('mistral small 3.3'): its words, when the record
    is of another version."""
    after = word_pattern("version_after_name").match(m.text[end:end + 24])
    if after is None or after.group("version") in _record_tokens(model_id):
        return None
    return after.group(0)


def _say_closest(m: Message, typed: str, base: ModelArch) -> None:
    """The record sized in place of the name typed, said; a name that says a hybrid ('Phi-4-mini-flash': state-space
    layers beside a few attention layers) sized as a record with a KV cache in every layer is said to be one, and the
    memory an upper bound (the user's words kept, never dropped with the name)."""
    m.notes.append(("note.model_closest", {"typed": typed, "base": base.name}))
    if hybrid_name(typed) and base.attention != "hybrid":
        m.notes.append(("physics.hybrid_closest", {"name": typed, "base": base.name}))


def closest_names(m: Message) -> None:
    """Say the closest record for each name read short of its version; resolve an unknown name that extends a
    catalog id or carries a catalog expert marker to that model, said the same way."""
    for start, end, model_id in m.names:
        if is_repo(model_id):
            continue  # a repository this machine holds: sized as itself (reading.hub_names)
        typed = m.text[start:end]
        extra = _version_after(m, end, model_id)
        if extra is None and not _versions_differ(typed, model_id):
            continue
        said = _said(m.raw, typed + (extra or ""))
        sized = text_model(model_id, m.text)[0]  # the text model of a vision one when no image is said (as read_model)
        _say_closest(m, said, find_model(sized))
    _expert_markers(m)
    if not m.unknown and not m.names:
        _family_version(m)
    if not m.unknown:
        return
    name = m.unknown[0]
    base = catalog_sibling(name)
    marker = experts_in_name(name)
    if base is None and marker is not None:
        base = catalog_moe(*marker)
        if base is None:  # '20b-64e': the active size and the experts, no total: asked, never a dense 20B
            m.unknown = (name, None)
            return
    if base is None:
        return  # an unknown release of a family on record: family_stand_in, once the sizes said have their roles
    at = m.text.find(name.lower())
    at = max(at, 0)
    m.unknown = None
    m.names = sorted([*m.names, (at, at + len(name), base.id)])
    _say_closest(m, name, base)


def _expert_markers(m: Message) -> None:
    """'llama-4-17b-128e', 'foo-17b-16e' outside any catalog name: the catalog mixture of experts with that active
    size and expert count (said as the closest on record), else a name whose total size is not known (asked). The
    active size in it is never read as a dense model's size."""
    for x in word_pattern("experts_marker").finditer(m.text):
        if any(s <= x.start() < e for s, e, _ in m.names):
            continue  # inside a catalog name: 'llama-4-scout-17b-16e-instruct'
        start = max(m.text.rfind(" ", 0, x.start()) + 1, 0)
        end = x.end() + len(re.match(r"[\w\-./]*", m.text[x.end():]).group().rstrip("."))  # type: ignore[union-attr]
        word = m.text[start:end]
        m.qty = [q for q in m.qty if not start <= q.start < end]  # '17b' is the active size, no model size
        base = catalog_moe(float(x["active"]), int(x["experts"]))
        if base is None:
            m.unknown = (_said(m.raw, word), None)
            continue
        m.names = sorted([*m.names, (start, end, base.id)])
        _say_closest(m, _said(m.raw, word), base)


@cache
def _family_word() -> re.Pattern[str]:
    words = sorted(family_words(), key=lambda w: (-len(w), w))
    return re.compile(r"(?<![a-z0-9])(?:" + "|".join(map(re.escape, words)) + ")")


def _family_version(m: Message) -> None:
    """'deepseek-v5', 'llama 5': a family word the catalog holds followed by a version no record has is an unknown
    release (words/closest.yaml family_version_after), never a message with no model."""
    if any(code in ("note.line_no_size", "note.family_which") for code, _v in m.notes):
        return  # 'gemma 3', 'qwen': a line or family the catalog holds, asked which one (reading.families)
    for x in _family_word().finditer(m.text):
        after = word_pattern("family_version_after").match(m.text[x.end():x.end() + 24])
        if after is not None and not catalog_line(x.group(), after.group("version")):  # 'llama 4': a line on record
            end = x.end() + after.end("size" if after.group("size") else "version")
            m.unknown = (_said(m.raw, m.text[x.start():end]), None)
            m.qty = [q for q in m.qty if not x.start() <= q.start < end]  # '70b' in 'llama-5-70b': the name's size
            return


def family_stand_in(m: Message) -> None:
    """The unknown name left by closest_names, resolved to its family's record when no size was said for it (read
    after the sizes' roles: 'Kimi K3, the 1T MoE' is sized as said)."""
    if m.unknown:
        _family_stand_in(m, m.unknown[0])


def _family_stand_in(m: Message, name: str) -> None:
    """An unknown release of a family the catalog holds ('minimax-m3', 'deepseek-v5', 'qwen4-8b'): sized as the
    family's record of the size named (said as the closest on record), or with no size named as the family's largest
    record, said as a stand-in whose size the user may give; never a model of another family or a default."""
    tail = name.lower().rsplit("/", 1)[-1]
    head = re.match(r"[a-z]+", tail)
    version = word_pattern("family_version_after").match(tail[head.end():]) if head else None
    if head is None or version is None:
        return  # 'kimi dev', 'moonshotai/Kimi-Dev': another line of the maker, no release of the family: asked
    if catalog_line(head.group(), version.group("version")):
        return  # 'phi-4-mini-flash': a variant of a line on record, whose size is asked (catalog_sibling)
    if any(q.role.startswith("model_") for q in m.qty):
        return  # 'Kimi K3, the 1T MoE, 20B active': sized from the size said, never a record's
    found = family_record(name)
    if found is None:
        return
    base, same_size = found
    at = max(m.text.find(name.lower()), 0)
    m.unknown = None
    m.names = sorted([*m.names, (at, at + len(name), base.id)])
    if same_size:
        _say_closest(m, name, base)
    else:
        m.notes.append(("note.model_family_stand_in", {"typed": name, "base": base.name}))
