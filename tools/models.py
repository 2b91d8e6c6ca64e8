"""Model resolution shared by the tools (names, HF ids, config.json paths, bare sizes, the Hub)."""

from __future__ import annotations

from functools import lru_cache

from knowledge.resolve import resolve_model as _resolve
from knowledge.schema import ModelArch


@lru_cache(maxsize=256)
def resolve_model(spec: str) -> ModelArch:
    """The catalog first, then a local config.json or folder, then a Hugging Face repo id through the
    Hub or its cache (the size in the name when neither answers; the model's notes say which)."""
    return _resolve(spec)
