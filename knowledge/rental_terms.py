"""How a rented card is paid for beyond on demand (data/rental_terms.yaml): a reserved term's discount, spot's
discount, and the cold start of a deployment scaled to zero, each dated and sourced."""

from __future__ import annotations

from functools import cache
from typing import Literal

from pydantic import Field

from gpu_advisor.knowledge.loader import DATA_DIR, load_records
from gpu_advisor.knowledge.schema import Record


class RentalTerm(Record):
    """One term: a discount against the on-demand rate (reserved, spot) or a cold start in seconds."""

    id: str
    kind: Literal["reserved", "spot", "cold_start"]
    discount: float | None = Field(None, ge=0, lt=1)
    discount_low: float | None = Field(None, ge=0, lt=1)
    discount_high: float | None = Field(None, ge=0, lt=1)
    seconds: float | None = Field(None, gt=0)
    seconds_low: float | None = Field(None, gt=0)
    seconds_high: float | None = Field(None, gt=0)
    note: str = ""


@cache
def rental_terms() -> dict[str, RentalTerm]:
    return {t.id: t for t in load_records(DATA_DIR / "rental_terms.yaml", RentalTerm)}
