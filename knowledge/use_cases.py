"""What a serving job is for, and the lengths that use means (data/use_cases.yaml).

A coding assistant with files in its prompt, or questions answered from retrieved documents, holds far more
context per conversation than a support chat; when the user names the use and not the context, the plan sizes
the context of the use's row and says so. Each row: the tokens of a typical prompt and answer (a request-rate
plan's lengths when none is said) and the context per conversation to size for.
"""

from __future__ import annotations

from functools import cache

from pydantic import BaseModel, ConfigDict, Field, model_validator

from gpu_advisor.knowledge.loader import DATA_DIR, load_records
from gpu_advisor.knowledge.schema import Record

PATH = DATA_DIR / "use_cases.yaml"


class LatencyModel(BaseModel):
    """A smaller model sized for a latency use (the Qwen2.5-Coder sizes share Qwen2.5's layout)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(description="the catalog model sized")
    name: str = Field(description="the model to name in the answer")


class UseCase(Record):
    id: str
    prompt_tokens: int = Field(gt=0, description="tokens of a typical prompt")
    output_tokens: int = Field(gt=0, description="tokens of a typical answer")
    context: int = Field(gt=0, description="tokens of context per conversation to size for")
    thinking_wait_s: float | None = Field(None, gt=0, description="an interactive use: the most seconds a user waits "
                                          "for a reasoning model's thinking before the answer; None: not interactive")
    thinking_wait_source: str = ""
    latency_target_s: float | None = Field(None, gt=0, description="a latency use (inline code completion): the "
                                           "most seconds one request may take; None: no such target")
    latency_prompt_tokens: int = Field(0, ge=0, description="tokens each request prefills (the rest is cached)")
    latency_output_tokens: int = Field(0, ge=0, description="tokens of the answer the user waits for")
    latency_source: str = ""
    latency_models: list[LatencyModel] = Field(default_factory=list, description="smaller models to try, largest first")
    writes_user_language: bool = Field(False, description="the text written is in the user's own language (a novel "
                                       "in Chinese): no model named, one strong in that language is taken")

    @model_validator(mode="after")
    def _context_holds_a_request(self) -> UseCase:
        if self.context < self.prompt_tokens + self.output_tokens:
            raise ValueError(f"context {self.context} must hold prompt + output "
                             f"({self.prompt_tokens + self.output_tokens})")
        return self


@cache
def use_cases() -> dict[str, UseCase]:
    return {r.id: r for r in load_records(PATH, UseCase)}


def use_case(name: str | None) -> UseCase | None:
    """The row of a use case by id, or None (none said, or an id the table does not hold)."""
    return use_cases().get(name or "")
