"""China street prices (data/china_prices.yaml): what a buyer in mainland China pays for a card sold there only
through grey channels, one figure a card, used by every answer priced in China so that one card has one price."""

from __future__ import annotations

from functools import cache

from pydantic import Field

from gpu_advisor.knowledge.loader import DATA_DIR, KnowledgeError, load_records, rules
from gpu_advisor.knowledge.resolve import find_gpu
from gpu_advisor.knowledge.schema import Record


class ChinaPrice(Record):
    """One card's street price in mainland China, in yuan."""

    gpu: str = Field(description="Gpu.id")
    cny: float = Field(gt=0)


@cache
def china_prices() -> dict[str, ChinaPrice]:
    out: dict[str, ChinaPrice] = {}
    for i, p in enumerate(load_records(DATA_DIR / "china_prices.yaml", ChinaPrice)):
        find_gpu(p.gpu)  # an unknown id fails here
        if p.gpu in out:
            raise KnowledgeError(f"china_prices.yaml: record {i}: GPU '{p.gpu}' appears twice")
        out[p.gpu] = p
    return out


def china_price_usd(gpu_id: str) -> float | None:
    """The China street price of one card in USD (at the rules' yuan rate), None when none is on record."""
    p = china_prices().get(gpu_id)
    return p.cny * rules().usd_per_cny if p else None
