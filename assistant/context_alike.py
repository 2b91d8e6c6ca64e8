"""Models of about the same size that read a context the model asked cannot (review AG #9: Gemma 2 27B reads 8k, 32k
asked: Gemma 3 27B, Qwen2.5 32B read it). Used by assistant.context_beyond when no model of the same family, size
and layout reads that far; from the model records (knowledge/data/models.yaml): dense for a dense model, a mixture
of experts for one, the same family first, then the nearest size."""

from __future__ import annotations

from typing import Any

MAX_ALIKE = 2
ALIKE_SIZE = 0.2  # total parameters within 20% are about the same size


def _moe(m: Any) -> bool:
    return bool(m.active_params_b) and m.active_params_b < m.total_params_b


def alike(model_id: str, tokens: int) -> list[Any]:
    """Catalog models of about the size of `model_id`, of its kind (dense or MoE), that read at least `tokens`."""
    from gpu_advisor.knowledge import models

    base = next(m for m in models() if m.id == model_id)
    found = [m for m in models() if m.id != base.id and m.max_context >= tokens and _moe(m) == _moe(base)
             and abs(m.total_params_b - base.total_params_b) <= ALIKE_SIZE * base.total_params_b]
    found.sort(key=lambda m: (m.family != base.family, abs(m.total_params_b - base.total_params_b), m.id))
    return found[:MAX_ALIKE]
