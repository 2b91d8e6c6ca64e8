"""Model names kept when the catalog holds them only in another form: a fine-tuned variant sized as its base's
shape ('Qwen2.5-Math 7B' as Qwen2.5 7B, said), and a model line named with no size ('qwen2.5', 'llama 3': its
sizes said, the model asked). The words live in words/names.yaml (same_shape_variant)."""

from __future__ import annotations

import re
from functools import cache

from gpu_advisor.assistant.reading.names import _ngrams, family_words
from gpu_advisor.assistant.reading.text import word_pattern
from gpu_advisor.knowledge import find_model, models
from gpu_advisor.knowledge.resolve import normalise


def variant_notes(text: str, names: list[tuple[int, int, str]], raw: str) -> list[tuple[str, dict[str, str]]]:
    """'Qwen2.5-Math 7B' read as Qwen2.5 7B: said, never silently (the variant's weights differ, its shape not)."""
    notes = []
    for start, end, model_id in names:
        typed = text[start:end]
        name = find_model(model_id).name
        if word_pattern("same_shape_variant").search(typed) and not word_pattern("same_shape_variant").search(name.lower()):
            as_typed = re.search(re.escape(typed).replace(r"\ ", r"[\s\-_]*"), raw, re.IGNORECASE)
            notes.append(("note.model_variant", {"typed": as_typed.group() if as_typed else typed, "base": name}))
    return notes


@cache
def _line_index() -> dict[str, tuple[str, tuple[str, ...]]]:
    """Normalised name of a model line ('qwen2.5', 'llama3.1') -> (its name, its models smallest first)."""
    from gpu_advisor.knowledge.resolve import line_models

    out: dict[str, tuple[str, tuple[str, ...]]] = {}
    for m in models():
        line = line_models(m.id)
        name = re.sub(r"\s*\d+(?:\.\d+)?B\b.*$", "", m.name).strip()  # "Qwen2.5 7B" -> "Qwen2.5"
        key = normalise(name)
        if len(line) > 1 and name != m.name and key not in family_words() and re.search(r"\d", key):
            out.setdefault(key, (name, tuple(line)))
    return out


def line_said(text: str) -> tuple[str, tuple[str, ...]] | None:
    """The model line named in the text ('llama2', 'qwen2.5'): (its name, its models smallest first), or None."""
    for _s, _e, gram in _ngrams(text, 3):
        hit = _line_index().get(normalise(gram))
        if hit:
            return hit
    return None


def line_named(text: str, names: list[tuple[int, int, str]]) -> tuple[str, dict[str, str]] | None:
    """'serve qwen2.5 for 10 users', 'llama 3': a model line named with no size and no model named; the note
    that says which sizes it comes in (the model is then asked, the line never dropped)."""
    if names:
        return None
    for _s, _e, gram in _ngrams(text, 3):
        hit = _line_index().get(normalise(gram))
        if hit:
            sizes = [find_model(x).name.removeprefix(hit[0]).strip() for x in hit[1]]
            return "note.line_no_size", {"line": hit[0], "sizes": "/".join(sizes)}
    return None
