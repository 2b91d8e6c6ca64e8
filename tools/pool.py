"""Cards you own of several kinds, sized as one pool: llama.cpp (and ollama, built on it) splits a model's
layers across unequal cards in proportion to their memory (`--tensor-split`), so a 3090 and a 3060 hold
24 + 12 GB of one model; vLLM's and SGLang's tensor parallelism cut every layer in equal parts, so they pool
only cards that are alike.

The pooled need is the weights and the KV cache once (each card holds its layers' share of both) and each
card's own compute buffers and CUDA context. When the pool falls short at the file asked, two ways are sized:
the rest of the layers in system RAM (`-ngl`), and the largest smaller GGUF file that the pool holds whole.
"""

from __future__ import annotations

import math

from pydantic import BaseModel, Field

from gpu_advisor.tools.common import GIB, ToolError
from gpu_advisor.tools.inference import InferenceMemoryInput, inference_memory
from gpu_advisor.tools.models import resolve_model

# Smaller GGUF files tried when the asked one overflows the pool, fewest bits lost first.
SMALLER_FILES = ("q6_k", "q5_k_m", "q4_k_m", "q3_k_m", "iq3_xxs", "q2_k", "iq2_s")


class PoolCard(BaseModel):
    gpu: str
    gpu_name: str
    count: int
    capacity_bytes: float = Field(description="usable memory of one such card")


class PoolResult(BaseModel):
    model: str
    precision: str = Field(description="the GGUF file asked (or the usual 4-bit one)")
    cards: list[PoolCard]
    capacity_bytes: float = Field(description="the pool: every card's usable memory added")
    needed_bytes: float = Field(description="weights + KV cache once, each card's buffers")
    fits: bool
    split: str = Field(description="llama.cpp --tensor-split proportions, by each card's memory")
    ram_bytes: float = Field(0.0, description="short of the pool at the file asked: the share kept in system RAM")
    gpu_layers: int | None = Field(None, description="-ngl: layers kept on the cards when part goes to RAM")
    layers: int
    smaller: str | None = Field(None, description="the largest smaller file that the pool holds whole")
    smaller_needed_bytes: float | None = None


def _need(model: str, precision: str, gpu: str, context: int, kv: str | None, cards: int,
          users: int) -> tuple[float, float, float]:
    """(pooled need, one card's capacity, weight bytes) for `cards` cards and `users` conversations at once."""
    mem = inference_memory(InferenceMemoryInput(model=model, precision=precision, gpu=gpu, engine="llama.cpp",
                                                context=context, batch=users, kv_precision=kv))
    buffers = mem.term("activation_bytes").value + mem.term("overhead_bytes").value
    need = mem.term("per_gpu_device_bytes").value + (cards - 1) * buffers
    return need, mem.term("gpu_capacity_bytes").value, mem.term("weights_bytes").value


def pool(owned: list[tuple[int, str, str]], model: str, precision: str = "q4_k_m", context: int = 8192,
         kv_precision: str | None = None, users: int = 1, offload: bool = True) -> PoolResult | None:
    """`owned`: (count, gpu id, gpu name) of each kind. None with fewer than two kinds (one kind is sized as is).
    `offload`: whether part of the model in system RAM is a way (one person's chat, not a service)."""
    if len({g for _, g, _ in owned}) < 2:
        return None
    arch = resolve_model(model)
    total = sum(n for n, _, _ in owned)
    cards: list[PoolCard] = []
    need = weights = 0.0
    for n, gpu, name in owned:
        need, cap, weights = _need(arch.id, precision, gpu, context, kv_precision, total, users)
        cards.append(PoolCard(gpu=gpu, gpu_name=name, count=n, capacity_bytes=cap))
    cards.sort(key=lambda c: -c.capacity_bytes)  # the largest card first (llama.cpp's main GPU), whatever order said
    capacity = sum(c.capacity_bytes * c.count for c in cards)
    split = ",".join(",".join([f"{c.capacity_bytes / GIB:.0f}"] * c.count) for c in cards)
    out = PoolResult(model=arch.name, precision=precision, cards=cards, capacity_bytes=capacity, needed_bytes=need,
                     fits=need <= capacity, split=split, layers=arch.num_layers)
    if out.fits:
        return out
    per_layer = weights / arch.num_layers
    out.ram_bytes = need - capacity
    on_cards = arch.num_layers - math.ceil(out.ram_bytes / per_layer)
    out.gpu_layers = on_cards if offload and on_cards > 0 else None
    asked = SMALLER_FILES.index(precision) if precision in SMALLER_FILES else SMALLER_FILES.index("q4_k_m")
    for fmt in SMALLER_FILES[asked + 1:]:
        try:
            smaller = _need(arch.id, fmt, cards[0].gpu, context, kv_precision, total, users)[0]
        except (ToolError, KeyError, ValueError):
            continue
        if smaller <= capacity:
            out.smaller, out.smaller_needed_bytes = fmt, smaller
            break
    return out
