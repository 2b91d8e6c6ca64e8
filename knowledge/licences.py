"""Model licences and their commercial terms (data/licences.yaml): which licence a model ships under, whether it
allows commercial use, the monthly-active-user count above which the owner's own licence is needed, the notice to
show, whether a use policy applies. Facts only, dated; the sentences are the assistant's. Not legal advice."""

from __future__ import annotations

from functools import cache
from typing import Literal

from pydantic import Field

from gpu_advisor.knowledge.loader import DATA_DIR, load_records
from gpu_advisor.knowledge.schema import Record


class Licence(Record):
    """One licence: its name and text, the family and models under it, its commercial terms as typed fields."""

    id: str
    name: str
    url: str
    family: str
    models: list[str] = Field(default_factory=list)
    commercial: Literal["allowed", "not_allowed"]
    mau_limit: int | None = Field(None, gt=0)
    attribution: str | None = None
    use_policy: bool = False
    name_prefix: str | None = None
    excluded_regions: list[str] = Field(default_factory=list)  # where the licence grants no rights at all


@cache
def licences() -> tuple[Licence, ...]:
    """Every licence on record, in the file's order."""
    return tuple(load_records(DATA_DIR / "licences.yaml", Licence))


def licence_of(model_id: str) -> Licence | None:
    """The licence the model ships under, or None when none is on record."""
    return next((lic for lic in licences() if model_id in lic.models), None)


def family_licences(family: str) -> list[Licence]:
    """Every licence of a family named without a size ('qwen2.5': Apache-2.0, the Qwen licence, the research one)."""
    return [lic for lic in licences() if lic.family == family]
