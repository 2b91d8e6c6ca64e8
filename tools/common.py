"""Shared result types: every figure a tool returns carries its formula, inputs and range."""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from gpu_advisor.knowledge.loader import error_words

GB = 1e9  # what people read as "GB" on a datasheet and in this tool's human output
GIB = 2**30


# The smallest non-zero amount an input may hold (hours, tokens/s, dollars, fractions ...). A value
# below it means nothing and divides into infinity (1e-320 tokens/s is a run of 10^320 hours).
MIN_AMOUNT = 1e-9
# The most items a list input may hold (cards to consider, cards owned, quotes, GPU counts ...): the catalog has under
# a hundred cards, and each item costs a sizing (3,000 candidates over MCP once took 96 s). Longer is refused.
MAX_LIST_ITEMS = 100
# The largest batch, context or sequence count any tool sizes (the CLI and MCP share it): beyond it the
# figures are meaningless and can overflow.
MAX_COUNT = 10_000_000


# What an input several tools share means: the one text each schema (MCP, LangChain, the CLI's JSON
# schema) gives an agent for it.
MODEL_HELP = ("catalog name, HF repo id (ORG/NAME@REV for a branch, tag or commit), path to config.json, or a size "
              "like 27B or 30B-A3B")
GPU_HELP = ("GPU: catalog id or name (h100-sxm, rtx-4090, 'A100 80GB'), an Apple chip with its memory ('M3 Max "
            "36GB'), or custom:memory=96GB,bandwidth=1.8TB/s,bf16=500")
PRECISION_HELP = "weight format: bf16, fp16, fp8, int8, int4, gptq-int4, awq, nf4, or GGUF q8_0, q4_k_m ..."
KV_PRECISION_HELP = "KV-cache format (fp8, q8_0 ...); default 16-bit"
ENGINE_HELP = "serving engine: transformers, vllm, llama.cpp or sglang; default: llama.cpp for GGUF formats, else vLLM"
METHOD_HELP = "fine-tuning method: full (every weight), lora (adapters on 16-bit weights), qlora (adapters on a 4-bit base)"
REGION_HELP = "market the prices come from: global, us, eu or china (prices in yuan there)"
SEQ_LEN_HELP = "tokens per training sequence"
EPOCHS_HELP = "passes over the training data"


class ToolInput(BaseModel):
    """Base of every tool's input: unknown fields, infinities and amounts too small to mean anything
    (below MIN_AMOUNT, but not zero) are refused with a clear message."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    @model_validator(mode="after")
    def _no_vanishing_amounts(self) -> ToolInput:
        for name, value in self.__dict__.items():
            if isinstance(value, float) and 0 < abs(value) < MIN_AMOUNT:
                raise ValueError(f"{name}: {value:g} is too small to mean anything (at least {MIN_AMOUNT:g}, or 0)")
        return self


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
        parts.append(f"{field}: {error_words(e)}" if field else error_words(e))
    return "; ".join(parts)


# The narrowest range a measured category gives a total: a few rows that agree closely (GGUF file
# sizes, one vLLM log) say little about the next model, so the range is never under +-2 %.
RANGE_FLOOR = 0.02


def band_range(value: float, p10: float, p90: float, floor: float = RANGE_FLOOR) -> tuple[float, float]:
    """The range of an estimate whose category's errors (prediction / measured - 1) run from p10 to p90
    at the 10th and 90th percentiles: value / (1 + p90) .. value / (1 + p10), what the measurement
    would have been at either end, widened to value x (1 - floor) .. value x (1 + floor) where narrower
    (so it always holds the estimate)."""
    return min(value / (1 + p90), value * (1 - floor)), max(value / (1 + p10), value * (1 + floor))


def measured_range(value: float, category: str, fallback: tuple[float, float],
                   fallback_words: str = "the sum of the per-term ranges") -> tuple[tuple[float, float], str]:
    """The range of a figure (a memory total, a speed) from the bench's residuals of its category
    (knowledge/data/residuals.yaml), and the assumption line that says where it comes from; without
    measured rows for the category, the fallback (for memory the sum of the per-term ranges), said so."""
    from gpu_advisor.knowledge.loader import residuals

    band = residuals().get(category)
    if value <= 0:
        return (value, value), f"range: none (bench category {category}; the estimate is zero)"
    if band is None or not band.rows or band.p10 is None or band.p90 is None:
        return fallback, (f"range: {fallback_words} (bench category {category} has no measured rows)")
    lo, hi = band_range(value, band.p10, band.p90)
    widened = lo == value * (1 - RANGE_FLOOR) or hi == value * (1 + RANGE_FLOOR)
    return (lo, hi), (f"range: 10th-90th percentile of {band.rows} measured row{'s' if band.rows != 1 else ''} "
                      f"(bench category {category}; {', '.join(band.sources)}): {lo / value - 1:+.0%} to "
                      f"{hi / value - 1:+.0%} of the estimate" + (f", at least +-{RANGE_FLOOR:.0%}" if widened else ""))


def last_step(holds: Callable[[int], bool], lo: int, hi: int) -> int | None:
    """The largest step in lo..hi for which `holds` is true, by bisection (it holds up to some step and not after);
    None when it holds for none."""
    found = None
    while lo <= hi:
        mid = (lo + hi) // 2
        if holds(mid):
            found, lo = mid, mid + 1
        else:
            hi = mid - 1
    return found
