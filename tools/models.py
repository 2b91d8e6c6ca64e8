"""Model resolution shared by the tools (names, HF ids, config.json paths, bare sizes)."""

from __future__ import annotations

from functools import lru_cache

from knowledge import find_model
from knowledge.schema import ModelArch


@lru_cache(maxsize=256)
def resolve_model(spec: str) -> ModelArch:
    return find_model(spec)
