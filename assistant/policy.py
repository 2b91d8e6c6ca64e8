"""The profile of a workload, its defaults, and which question to ask next.

Ask only for what is missing and changes the answer, one question per turn, with quick replies and
a "Not sure" that takes a stated default; answer after at most MAX_QUESTIONS questions.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

MAX_QUESTIONS = 4

Phase = Literal["experiment", "fine-tune", "serve", "train-and-serve", "production"]


class Profile(BaseModel):
    phase: Phase | None = None
    model: str | None = None
    precision: str | None = None
    method: Literal["full", "lora", "qlora"] | None = None
    context: int | None = Field(None, gt=0)
    users: int | None = Field(None, gt=0)
    utilisation: float | None = Field(None, gt=0, le=1)
    region: Literal["global", "us", "eu", "china"] | None = None
    budget_usd_per_month: float | None = Field(None, gt=0)
    budget_usd: float | None = Field(None, gt=0)
    owned: list[str] = []
    preference: Literal["rent", "buy", "either"] | None = None


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


class Question(BaseModel):
    slot: str
    text: str
    choices: list[tuple[str, str]]  # (label, value sent back as the user's message)


QUESTIONS: dict[str, Question] = {
    "phase": Question(slot="phase", text="What are you planning to do with the model?", choices=[
        ("Try a model out", "just trying a model out"), ("Fine-tune", "fine-tune"),
        ("Serve users", "serve users"), ("Fine-tune, then serve", "fine-tune, then serve"),
        ("Production at scale", "production at scale"), ("Not sure", "not sure")]),
    "model": Question(slot="model", text="Which model, or how big? A name such as \"Llama 3.1 8B\" or a size such "
                      "as \"27B\" both work.", choices=[
        ("8B", "8B"), ("14B", "14B"), ("27B", "27B"), ("70B", "70B"), ("Not sure", "not sure")]),
    "method": Question(slot="method", text="How will you fine-tune it? QLoRA is the cheapest; LoRA keeps the "
                       "base in 16 bits; full fine-tuning needs several large cards.", choices=[
        ("QLoRA (4-bit)", "qlora"), ("LoRA (16-bit)", "lora"), ("Full", "full"), ("Not sure", "not sure")]),
    "users": Question(slot="users", text="How many people will chat with it at the same time, roughly?", choices=[
        ("1-5", "5 users"), ("5-20", "20 users"), ("20-100", "100 users"), ("100+", "200 users"),
        ("Not sure", "not sure")]),
    "utilisation": Question(slot="utilisation", text="How busy will the GPUs be?", choices=[
        ("A few hours a week", "a few hours a week"), ("Working hours", "working hours"),
        ("Around the clock", "around the clock"), ("Not sure", "not sure")]),
}


def trains(phase: str | None) -> bool:
    return phase in ("experiment", "fine-tune", "train-and-serve", "production")


def serves(phase: str | None) -> bool:
    return phase in ("serve", "train-and-serve", "production", "experiment")


def needed_slots(profile: Profile) -> list[str]:
    """Slots that change the answer for this profile, in the order they are asked."""
    slots = ["phase", "model"]
    phase = profile.phase
    if phase is None or trains(phase) and phase != "experiment":
        slots.append("method")
    if phase is None or serves(phase) and phase != "experiment":
        slots.append("users")
    slots.append("utilisation")
    return slots


def next_question(profile: Profile, defaulted: dict[str, str], asked: list[str]) -> Question | None:
    """The next question, or None when it is time to answer."""
    if len(asked) >= MAX_QUESTIONS:
        return None
    for slot in needed_slots(profile):
        if getattr(profile, slot) is None and slot not in defaulted and slot not in asked:
            return QUESTIONS[slot]
    return None


def fill_defaults(profile: Profile, defaulted: dict[str, str]) -> tuple[Profile, dict[str, str]]:
    """Every missing slot takes its default; the returned mapping says which, in words."""
    values: dict[str, Any] = {}
    notes = dict(defaulted)
    for slot, (value, words) in DEFAULTS.items():
        if getattr(profile, slot) is None:
            if slot == "users" and profile.phase == "experiment":
                value, words = 1, "1 person using it at a time while you experiment"
            if slot == "precision" and profile.model and profile.phase == "experiment":
                value, words = "int8", DEFAULTS["precision"][1]
            values[slot] = value
            notes.setdefault(slot, words)
    return profile.model_copy(update=values), notes
