"""What a model name that the catalog does not hold says about its shape, read before any layout is borrowed
by size: a catalog model it extends ('Qwen3-235B-A22B-Thinking-2507' is a Qwen3-235B-A22B checkpoint: the same
layout, said as the closest on record), and a mixture-of-experts marker that gives the active size and the
expert count but no total ('17B-16E', '17b-128e'): the catalog model with that layout, else no size at all
(never a dense 17B)."""

from __future__ import annotations

import re
from functools import cache

from gpu_advisor.knowledge.loader import models, rules
from gpu_advisor.knowledge.schema import ModelArch

# '17b-16e', '17B-128E': active billions, then the number of experts
_EXPERTS = re.compile(r"(?<![a-z0-9.])(\d+(?:\.\d+)?)b[-_ ](\d{1,4})e(?![a-z0-9])")
ACTIVE_NEAR = 0.1  # a catalog model whose active size is within 10% of the one named, with as many experts


def _tail(name: str) -> str:
    return name.rsplit("/", 1)[-1].strip().lower()


@cache
def _ids_longest_first() -> list[str]:
    return sorted((m.id for m in models()), key=len, reverse=True)


def catalog_sibling(name: str) -> ModelArch | None:
    """The catalog model whose id the name extends with more words ('qwen3-235b-a22b-thinking-2507' ->
    qwen3-235b-a22b): the same release line and size, so the same layout. None when no id starts it, or when the
    words added name a size variant the id does not (rules.size_variant_words: 'phi-4-mini-flash' is no phi-4)."""
    tail = re.sub(r"[\s_]+", "-", _tail(name))
    by_id = {m.id: m for m in models()}
    sizes = set(rules().size_variant_words)
    for model_id in _ids_longest_first():
        if tail.startswith(model_id + "-") and re.search(r"\d", model_id):
            added = set(tail[len(model_id) + 1:].split("-"))
            if added & sizes and not set(model_id.split("-")) & sizes:
                return None  # 'phi-4-mini-…' is a smaller model than phi-4, not a checkpoint of it: its size is asked
            return by_id[model_id]
    return None


def experts_in_name(name: str) -> tuple[float, int] | None:
    """(active billions, experts) from a '17B-16E' marker in the name, else None."""
    m = _EXPERTS.search(_tail(name))
    return (float(m[1]), int(m[2])) if m else None


def catalog_moe(active_b: float, experts: int) -> ModelArch | None:
    """The one catalog mixture of experts with that active size (within ACTIVE_NEAR) and expert count."""
    same = [m for m in models() if m.num_experts == experts and abs(m.active_params_b - active_b) <= ACTIVE_NEAR * active_b]
    layouts = {(m.total_params_b, m.num_layers) for m in same}
    return min(same, key=lambda m: (m.as_of, m.id)) if len(layouts) == 1 else None


_SIZE = re.compile(r"(?<![a-z0-9.])(\d+(?:\.\d+)?)b(?![a-z0-9])")
SIZE_NEAR = 0.1  # a family record whose total size is within 10% of the size in the name


def family_record(name: str) -> tuple[ModelArch, bool] | None:
    """A catalog record for an unknown release of a family the catalog holds ('minimax-m3', 'deepseek-v5',
    'qwen4-8b'): with a size in the name, the family's newest record of that size (True: the same size); with
    none, the family's newest record, the largest of its release (False: its size is a stand-in, to be said:
    'deepseek-v5' as DeepSeek-V3.2, 'llama 5' as Llama 4 Maverick, 'minimax-m3' as MiniMax-M2). None when the name's first word
    is no catalog family, or no record of the family has the size named."""
    tail = _tail(name)
    head = re.match(r"[a-z]+", tail)
    if head is None:
        return None
    family = [m for m in models() if m.family == head.group()]
    variant = set(re.split(r"[\s_\-]+", tail)) & set(rules().size_variant_words)
    family = [m for m in family if variant <= set(m.id.split("-"))]  # 'magistral medium': no small record for it
    if not family:
        return None
    size = _SIZE.search(re.sub(r"[_\-]", " ", tail))
    if size is None:
        return max(family, key=lambda m: (m.as_of, m.total_params_b, m.id)), False
    near = [m for m in family if abs(m.total_params_b - float(size[1])) <= SIZE_NEAR * float(size[1])]
    return (max(near, key=lambda m: (m.as_of, m.id)), True) if near else None


def catalog_line(family: str, version: str) -> bool:
    """Whether the catalog holds a release line of the family with that version ('llama' '4': llama-4-scout)."""
    stems = (f"{family}-{version}", f"{family}{version}", f"{family}-{version.lstrip('v')}")
    return any(m.id in stems or m.id.startswith(tuple(f"{s}-" for s in stems)) for m in models())
