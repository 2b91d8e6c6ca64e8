"""The GPUs each cloud rents (data/clouds.yaml): a cloud named as the only place to run limits the
choice to its cards."""

from __future__ import annotations

import datetime as dt
from functools import cache

from pydantic import BaseModel, ConfigDict, Field

from gpu_advisor.knowledge.loader import DATA_DIR, load_records


class Family(BaseModel):
    """An instance family: its name, the words people type for it, its card, the cards in its largest size."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    aliases: tuple[str, ...] = Field(min_length=1)
    gpu: str
    gpus: int = Field(ge=1)
    sizes: tuple[int, ...] = ()  # GPUs per instance size it rents (p5: 1 or 8); () when not on record


def rentable_counts(cloud: str, gpu: str) -> tuple[int, ...]:
    """The GPU counts of `gpu` the cloud rents as one instance (its families' sizes); () when not on record.
    More than the largest comes as several of the largest instances."""
    record = clouds().get(cloud)
    if record is None:
        return ()
    return tuple(sorted({n for f in record.families if f.gpu == gpu for n in f.sizes}))


class Cloud(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    name: str
    name_zh: str
    gpus: tuple[str, ...] = Field(min_length=1)
    instances: str
    instances_zh: str | None = None  # where the instance list holds words, not only names
    families: tuple[Family, ...] = ()
    source: str
    as_of: dt.date
    partial: bool = False  # the provider's pages list more than the catalog holds, or the list is of families found


@cache
def clouds() -> dict[str, Cloud]:
    """Clouds by id, each with the catalog ids of the GPUs it rents."""
    return {c.id: c for c in load_records(DATA_DIR / "clouds.yaml", Cloud)}  # through the parsed-file cache


@cache
def instance_families() -> dict[str, tuple[str, Family]]:
    """Every instance family by each word typed for it (lower case): (cloud id, family)."""
    return {alias.lower(): (cloud.id, family) for cloud in clouds().values() for family in cloud.families
            for alias in family.aliases}
