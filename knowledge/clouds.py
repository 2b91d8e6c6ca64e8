"""The GPUs each cloud rents (data/clouds.yaml): a cloud named as the only place to run limits the
choice to its cards."""

from __future__ import annotations

import datetime as dt
from functools import cache

import yaml
from pydantic import BaseModel, ConfigDict, Field

from knowledge.loader import DATA_DIR


class Cloud(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    name: str
    name_zh: str
    gpus: tuple[str, ...] = Field(min_length=1)
    instances: str
    source: str
    as_of: dt.date
    partial: bool = False  # the provider's pages list more than the catalog holds, or the list is of families found


@cache
def clouds() -> dict[str, Cloud]:
    """Clouds by id, each with the catalog ids of the GPUs it rents."""
    records = yaml.safe_load((DATA_DIR / "clouds.yaml").read_text(encoding="utf-8")) or []
    return {c.id: c for c in (Cloud.model_validate(r) for r in records)}
