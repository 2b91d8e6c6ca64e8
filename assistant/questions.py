"""The questions the advisor asks, their quick replies, and the defaults a "not sure" takes.

Plain data without pydantic, so that a front-end's first screen can show the choices cheaply.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

MAX_QUESTIONS = 4

# Values taken when the user does not say (or says "not sure"), with the words used to state them.
DEFAULTS: dict[str, tuple[Any, str]] = {
    "phase": ("experiment", "you are trying things out first (the cheapest way to learn what you need)"),
    "model": ("llama-3.1-8b", "Llama 3.1 8B, a common starting model"),
    "method": ("qlora", "QLoRA fine-tuning (4-bit base, the cheapest)"),
    "precision": ("int8", "8-bit weights for serving (near-lossless, half of BF16's memory)"),
    "context": (8192, "8,192 tokens of context per conversation"),
    "users": (5, "5 people generating at the same time"),
    "utilisation": (0.24, "the GPUs are busy during working hours (about 24% of the week)"),
    "region": ("global", "renting from global providers"),
    "preference": ("either", "no preference between renting and buying"),
}

SLOT_LABELS = {
    "phase": "phase", "model": "model", "precision": "precision", "method": "fine-tuning",
    "context": "context", "users": "users", "utilisation": "utilisation", "region": "region",
    "budget_usd_per_month": "budget", "budget_usd": "budget", "owned": "owned GPUs", "preference": "rent or buy",
}


@dataclass(frozen=True)
class Question:
    slot: str
    text: str
    choices: list[tuple[str, str]]  # (label, value sent back as the user's message)


QUESTIONS: dict[str, Question] = {
    "phase": Question("phase", "What are you planning to do with the model?", [
        ("Try a model out", "just trying a model out"), ("Fine-tune", "fine-tune"),
        ("Serve users", "serve users"), ("Fine-tune, then serve", "fine-tune, then serve"),
        ("Production at scale", "production at scale"), ("Not sure", "not sure")]),
    "model": Question("model", "Which model, or how big? A name such as \"Llama 3.1 8B\" or a size such "
                      "as \"27B\" both work.", [
        ("8B", "8B"), ("14B", "14B"), ("27B", "27B"), ("70B", "70B"), ("Not sure", "not sure")]),
    "method": Question("method", "How will you fine-tune it? QLoRA is the cheapest; LoRA keeps the "
                       "base in 16 bits; full fine-tuning needs several large cards.", [
        ("QLoRA (4-bit)", "qlora"), ("LoRA (16-bit)", "lora"), ("Full", "full"), ("Not sure", "not sure")]),
    "users": Question("users", "How many people will chat with it at the same time, roughly?", [
        ("1-5", "5 users"), ("5-20", "20 users"), ("20-100", "100 users"), ("100+", "200 users"),
        ("Not sure", "not sure")]),
    "utilisation": Question("utilisation", "How busy will the GPUs be?", [
        ("A few hours a week", "a few hours a week"), ("Working hours", "working hours"),
        ("Around the clock", "around the clock"), ("Not sure", "not sure")]),
}


def trains(phase: str | None) -> bool:
    return phase in ("experiment", "fine-tune", "train-and-serve", "production")


def serves(phase: str | None) -> bool:
    return phase in ("serve", "train-and-serve", "production", "experiment")


def relevant(slot: str, phase: str | None) -> bool:
    """Whether a slot matters for this phase (the fine-tuning method does not when only serving)."""
    if slot == "method":
        return phase is None or trains(phase)
    if slot in ("users", "precision", "context"):
        return phase is None or serves(phase)
    return True

