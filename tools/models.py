"""Model resolution shared by the tools (names, HF ids, config.json paths, bare sizes, the Hub)."""

from __future__ import annotations

from functools import lru_cache

from gpu_advisor.knowledge.resolve import resolve_model as _resolve
from gpu_advisor.knowledge.schema import ModelArch


@lru_cache(maxsize=256)
def resolve_model(spec: str) -> ModelArch:
    """The catalog first, then a local config.json or folder, then a Hugging Face repo id through the
    Hub or its cache (the size in the name when neither answers; the model's notes say which)."""
    return _resolve(spec)


def name_only(model: ModelArch) -> str | None:
    """The warning a model sized from its name alone carries (a Hugging Face repo id the Hub did not answer for
    and its cache does not hold): said as a warning, never only among the assumptions. None for any other."""
    if model.resolved_from != "name":
        return None
    return f"{model.name} was sized from its name alone, not from its config.json: {model.notes.split('; ', 1)[0]}"


def _line(model_id: str) -> str:
    """A model's line: its id without the size ('gemma-3-27b' -> 'gemma-3', 'qwen3-30b-a3b' -> 'qwen3')."""
    parts = model_id.split("-")
    sized = [i for i, p in enumerate(parts) if p[:1].isdigit() and p.rstrip("b").replace(".", "").replace("x", "").isdigit()
             and p.endswith("b")]
    return "-".join(parts[:sized[0]]) if sized else model_id


def _shared_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def smaller_in_family(spec: str, prefer: str | None = None) -> list[str]:
    """The catalog's smaller models of the family of the one named, the closest first: its own line's smaller
    sizes ('gemma-3-27b' -> Gemma 3 12B, 4B, 1B), then the family's other lines by how much of the name they
    share ('llama-3.3-70b' -> Llama 3.1 8B), each largest first. Encoders and another family never. `prefer`: the
    model the user named before, when the size asked was only another line's ('换成72B' after Qwen3 32B sizes
    Qwen2.5 72B): that model's line comes first (Qwen3 32B, not Qwen2.5 32B)."""
    from gpu_advisor.knowledge import models

    asked = resolve_model(spec)
    line = _line(resolve_model(prefer).id) if prefer else _line(asked.id)
    found = [m for m in models() if m.family == asked.family and m.id != asked.id and not m.encoder
             and m.total_params_b < asked.total_params_b]
    return [m.id for m in sorted(found, key=lambda m: (_line(m.id) != line, -_shared_prefix(_line(m.id), line),
                                                        -m.total_params_b, m.id))]
