"""How fast cards of several kinds generate as one llama.cpp layer split (tools.pool): each card holds a share of
the layers in proportion to its memory (`--tensor-split`), and a token passes the cards one after the other, so
its time is each card's share of the layers at that card's own speed, added: the slower card's per-layer time over
its share of the layers, plus the faster one's over the rest. One sequence (one person's chat): llama.cpp's layer
split runs the cards in turn, not at once. The all-on-card speed of each card is tools.throughput's.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from gpu_advisor.tools.pool import PoolResult
from gpu_advisor.tools.throughput import SpeedInput, speed


class PoolCardSpeed(BaseModel):
    gpu: str
    gpu_name: str
    layers: int = Field(description="layers this kind of card holds (all its cards together)")
    all_on_card_tokens_per_s: float = Field(description="the whole model on cards like this one: its own pace")


class PoolSpeedResult(BaseModel):
    model: str
    precision: str
    layers: int
    cards: list[PoolCardSpeed]
    decode_tokens_per_s: float = Field(description="one sequence, the layers split by memory: 1 / sum(share / speed)")


def pool_speed(p: PoolResult, model_id: str, context: int = 8192) -> PoolSpeedResult | None:
    """The pool's decode speed for one sequence, None when the pool does not hold the model whole."""
    if not p.fits or p.capacity_bytes <= 0:
        return None
    seconds = 0.0
    cards: list[PoolCardSpeed] = []
    left = p.layers
    for i, c in enumerate(p.cards):
        share = c.capacity_bytes * c.count / p.capacity_bytes
        own = speed(SpeedInput(model=model_id, precision=p.precision, gpu=c.gpu, engine="llama.cpp", batch=1,
                               context=context)).decode_tokens_per_s
        seconds += share / own
        n = left if i == len(p.cards) - 1 else round(share * p.layers)
        left -= n
        cards.append(PoolCardSpeed(gpu=c.gpu, gpu_name=c.gpu_name, layers=n, all_on_card_tokens_per_s=own))
    return PoolSpeedResult(model=p.model, precision=p.precision, layers=p.layers, cards=cards,
                           decode_tokens_per_s=1 / seconds)
