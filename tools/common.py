"""Shared result types: every figure a tool returns carries its formula, inputs and range."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, ValidationError

GB = 1e9  # what people read as "GB" on a datasheet and in this tool's human output
GIB = 2**30


class ToolInput(BaseModel):
    """Base of every tool's input: unknown fields and infinities are refused with a clear message."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class Term(BaseModel):
    """One named quantity with the arithmetic behind it."""

    model_config = ConfigDict(frozen=True)

    key: str = Field(description="machine name, e.g. kv_cache_bytes")
    label: str = Field(description="human name, e.g. 'KV cache'")
    value: float
    low: float
    high: float
    unit: str = Field(description="bytes, tokens/s, s, USD, USD/h, fraction")
    formula: str = Field(description="the formula in words")
    inputs: dict[str, float | int | str | bool] = {}


def term(key: str, label: str, value: float, unit: str, formula: str, inputs: dict | None = None,
         *, rel_low: float = 0.0, rel_high: float = 0.0) -> Term:
    """A Term whose range is value x (1 - rel_low) .. value x (1 + rel_high)."""
    return Term(key=key, label=label, value=value, low=value * (1 - rel_low), high=value * (1 + rel_high),
                unit=unit, formula=formula, inputs=inputs or {})


class Explained(BaseModel):
    """Base of every tool result: the terms, and what was assumed or should worry the user."""

    terms: list[Term] = []
    assumptions: list[str] = []
    warnings: list[str] = []

    def term(self, key: str) -> Term:
        for t in self.terms:
            if t.key == key:
                return t
        raise KeyError(key)


class ToolError(ValueError):
    """Input that a tool cannot size: the message says what is wrong and what would work."""


def validation_message(exc: ValidationError) -> str:
    """pydantic's errors as one readable line: 'field: problem; field: problem'."""
    parts = []
    for e in exc.errors():
        field = ".".join(str(x) for x in e["loc"])
        parts.append(f"{field}: {e['msg']}" if field else e["msg"])
    return "; ".join(parts)
