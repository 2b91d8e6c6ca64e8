"""A model's variant named relative to it ('the air version' of GLM-4.5, 'the coder one' of Qwen3 30B-A3B, 'the
scout one' of Llama 4 Maverick, 'a smaller one'): the catalog model it means, found from the catalog's ids and
families, never from a phrase per family. Pure: the catalog in, a model id out."""

from __future__ import annotations

import math
import re

from gpu_advisor.knowledge.loader import models
from gpu_advisor.knowledge.resolve import find_model, line_models
from gpu_advisor.knowledge.schema import ModelArch


def _parts(model_id: str) -> list[str]:
    return re.split(r"[-_]", model_id)


def _stems(word: str) -> set[str]:
    """'distilled' -> distilled, distill; 'coders' -> coders, coder."""
    word = word.lower().strip(" -_.")
    return {word, re.sub(r"(?:ed|d|s)$", "", word)} - {""}


def variant_named(model_id: str, word: str) -> str | None:
    """The catalog model of `model_id`'s family whose id holds `word` as a part ('air' -> glm-4.5-air after
    glm-4.5): the one sharing the longest start of its id with the current model, then the nearest in size.
    The current model itself when its own id holds the word; None when no model of the family does."""
    current = find_model(model_id)
    stems = _stems(word)
    if stems & set(_parts(current.id)):
        return current.id
    found = [m for m in models() if _kin(m.family, current.family) and m.id != current.id and stems & set(_parts(m.id))]
    if not found:
        return None

    def rank(m: ModelArch) -> tuple[int, float]:
        return -len(_common_start(current.id, m.id)), abs(math.log(m.total_params_b / current.total_params_b))

    return min(found, key=rank).id


def _kin(family: str, current: str) -> bool:
    """One family, or a branch of it ('qwen-coder', 'qwen-vl' of 'qwen')."""
    return family == current or family.startswith(f"{current}-") or current.startswith(f"{family}-")


def _common_start(a: str, b: str) -> str:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return a[:n]


def neighbour_size(model_id: str, larger: bool) -> str | None:
    """The next smaller (or larger) model of the current model's line ('qwen2.5-14b' -> qwen2.5-7b), else of its
    family by total parameters (GLM-4.5 -> GLM-4.5-Air); None when it is already the smallest (largest)."""
    current = find_model(model_id)
    line = [find_model(x) for x in line_models(current.id)]
    pool = line if len(line) > 1 else [m for m in models() if m.family == current.family and m.encoder == current.encoder
                                              and m.modality == current.modality]
    pool = sorted(pool, key=lambda m: m.total_params_b)
    if larger:
        bigger = [m for m in pool if m.total_params_b > current.total_params_b]
        return bigger[0].id if bigger else None
    smaller = [m for m in pool if m.total_params_b < current.total_params_b]
    return smaller[-1].id if smaller else None
