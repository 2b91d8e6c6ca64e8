"""What a serving job is for, and the lengths that use means (data/use_cases.yaml).

A coding assistant with files in its prompt, or questions answered from retrieved documents, holds far more
context per conversation than a support chat; when the user names the use and not the context, the plan sizes
the context of the use's row and says so. Each row: the tokens of a typical prompt and answer (a request-rate
plan's lengths when none is said) and the context per conversation to size for.
"""

from __future__ import annotations

from functools import cache

from pydantic import Field, model_validator

from gpu_advisor.knowledge.loader import DATA_DIR, load_records
from gpu_advisor.knowledge.schema import Record

PATH = DATA_DIR / "use_cases.yaml"


class UseCase(Record):
    id: str
    prompt_tokens: int = Field(gt=0, description="tokens of a typical prompt")
    output_tokens: int = Field(gt=0, description="tokens of a typical answer")
    context: int = Field(gt=0, description="tokens of context per conversation to size for")
    thinking_wait_s: float | None = Field(None, gt=0, description="an interactive use: the most seconds a user waits "
                                          "for a reasoning model's thinking before the answer; None: not interactive")
    thinking_wait_source: str = ""
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
