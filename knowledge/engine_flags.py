"""Each serving engine's command-line argument names for the version a launch command assumes
(data/engine_flags.yaml): read from the engine's own argument parser, with the file and tag or commit read."""

from __future__ import annotations

from functools import cache

from pydantic import Field

from gpu_advisor.knowledge.loader import DATA_DIR, KnowledgeError, load_records
from gpu_advisor.knowledge.schema import Record

PATH = DATA_DIR / "engine_flags.yaml"


class EngineFlags(Record):
    """One engine's program and the argument names its version accepts."""

    id: str
    name: str = Field(min_length=2)
    program: list[str] = Field(min_length=1, description="the argv that starts the server, before its arguments")
    version: str = Field(min_length=1, description="the version the flags are read from, as answers name it")
    repository: str = Field(min_length=3)
    path: str = Field(min_length=3, description="the file of the engine's repository the names were read from")
    ref: str = Field(min_length=3, description="the tag or commit read")
    positional: list[str] = Field(default_factory=list)
    flags: list[str] = Field(min_length=1)
    values: dict[str, list[str]] = Field(default_factory=dict, description="choices a flag accepts, where recorded")

    def accepts(self, flag: str) -> bool:
        return flag in self.flags


@cache
def engine_flags() -> dict[str, EngineFlags]:
    records = load_records(PATH, EngineFlags)
    for r in records:
        unknown = [f for f in r.values if f not in r.flags]
        if unknown:
            raise KnowledgeError(f"{PATH.name}: {r.id}: values for flags it does not list: {unknown}")
    return {r.id: r for r in records}
