"""Speculative decoding's methods (data/speculative.yaml): the acceptance rate each one reaches in published runs,
the tokens drafted per step, and where a model's draft comes from (an EAGLE-3 head, MTP layers it ships, a small
model of its family)."""

from __future__ import annotations

from functools import cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from gpu_advisor.knowledge.loader import DATA_DIR, load_records
from gpu_advisor.knowledge.schema import Record

PATH = DATA_DIR / "speculative.yaml"
Method = Literal["draft", "eagle3", "mtp"]
METHODS: tuple[Method, ...] = ("draft", "eagle3", "mtp")


class MtpLayers(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    method: str = Field(min_length=2, description="vLLM's --speculative-config method for this model's MTP layers")
    params_b: float | None = Field(None, gt=0, description="the MTP module's parameters, billions, where stated")


class SpeculativeMethod(Record):
    id: Method
    acceptance: tuple[float, float] = Field(description="chance each drafted token is accepted: low, high")
    tokens: int = Field(gt=0, le=16, description="tokens drafted per step")
    heads: dict[str, str] = Field(default_factory=dict, description="model id -> EAGLE-3 head repository")
    mtp: dict[str, MtpLayers] = Field(default_factory=dict, description="model id -> its MTP layers")
    drafts: dict[str, str] = Field(default_factory=dict, description="model id -> draft model id")
    share_max: float | None = Field(None, gt=0, lt=1, description="a draft model named with more parameters than "
                                    "this share of the model's is large for it: the family's draft on record is "
                                    "suggested beside it")

    @model_validator(mode="after")
    def _a_rate(self) -> SpeculativeMethod:
        low, high = self.acceptance
        if not 0 < low <= high < 1:
            raise ValueError(f"acceptance {self.acceptance}: 0 < low <= high < 1")
        return self


@cache
def speculative_methods() -> dict[str, SpeculativeMethod]:
    return {r.id: r for r in load_records(PATH, SpeculativeMethod)}
