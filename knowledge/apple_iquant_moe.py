"""A MoE model in a 1-2-bit i-quant on llama.cpp's Metal backend (data/apple_iquant_moe.yaml): the share its
routed experts' decode reaches of the Metal MoE record's, with the band it is stated in and the rows it rests on.
The i-quants decode their weights through codebook lookups, so a 1.6-bit file of DeepSeek R1 on an M2 Ultra
decodes at 10-15 tokens/s, not the ~36 the bytes alone would give."""

from __future__ import annotations

from functools import cache

from pydantic import Field

from gpu_advisor.knowledge.loader import DATA_DIR, load_records
from gpu_advisor.knowledge.schema import LlamaCppBackend, Record

PATH = DATA_DIR / "apple_iquant_moe.yaml"


class IQuantMoe(Record):
    """The routed decode share of MoE experts in these i-quant formats on these backends."""

    id: str
    backends: list[LlamaCppBackend] = Field(min_length=1)
    formats: list[str] = Field(min_length=1)
    routed_share: float = Field(gt=0, le=1)
    routed_share_range: tuple[float, float]
    measured: bool
    rows: list[str] = Field(min_length=1)


@cache
def iquant_moe_records() -> tuple[IQuantMoe, ...]:
    return tuple(load_records(PATH, IQuantMoe))


def iquant_moe_for(backend: str, precision_id: str) -> IQuantMoe | None:
    """The record of a MoE in this i-quant format on this llama.cpp backend, None when none applies."""
    return next((r for r in iquant_moe_records() if backend in r.backends and precision_id in r.formats), None)


def iquant_share(backend: str, precision_id: str, end: str = "central") -> float:
    """The share of the llama.cpp MoE record's routed decode rate a 1-2-bit i-quant reaches on this backend
    (knowledge apple_iquant_moe: codebook lookups on Metal), at one end of its stated band; 1 where none applies."""
    rec = iquant_moe_for(backend, precision_id)
    if rec is None:
        return 1.0
    # calibrated on the result: the slow end of the Metal MoE band takes the upper share (the record's comment)
    return {"slow": rec.routed_share_range[1], "fast": rec.routed_share_range[0]}.get(end, rec.routed_share)
