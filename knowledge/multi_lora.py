"""Many LoRA adapters served on one base model (data/multi_lora.yaml): the throughput a batch of mixed adapters
gives up against the base model alone, and how long an adapter takes to load from CPU memory or from disk."""

from __future__ import annotations

from functools import cache

from pydantic import Field

from gpu_advisor.knowledge.loader import DATA_DIR, load_records
from gpu_advisor.knowledge.schema import Record

PATH = DATA_DIR / "multi_lora.yaml"


class MultiLoraCost(Record):
    id: str
    engine: str
    label: str = Field(min_length=3)
    throughput_cost: tuple[float, float] = Field(description="share of decode throughput lost, (low, high)")
    max_rank_in_band: int = Field(gt=0, description="the band holds up to this rank; above it, the high end")
    cpu_load_ms: tuple[float, float]
    disk_load_ms: tuple[float, float]
    measured: bool = False


@cache
def multi_lora_costs() -> dict[str, MultiLoraCost]:
    return {r.id: r for r in load_records(PATH, MultiLoraCost)}


def multi_lora_cost(engine: str = "vllm") -> MultiLoraCost:
    return next(r for r in multi_lora_costs().values() if r.engine == engine)
