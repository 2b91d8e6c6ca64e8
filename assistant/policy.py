"""The profile of a workload, its defaults, and which question to ask next.

Ask only for what is missing and changes the answer, one question per turn, with quick replies and
a "Not sure" that takes a stated default; answer after at most MAX_QUESTIONS questions.
"""

from __future__ import annotations

from typing import Any, Literal

__all__ = ["DEFAULTS", "MAX_QUESTIONS", "QUESTIONS", "SLOT_LABELS", "Profile", "Question", "fill_defaults",
           "needed_slots", "next_question", "serves", "trains"]

from pydantic import BaseModel, Field

from assistant.questions import DEFAULTS, MAX_QUESTIONS, QUESTIONS, SLOT_LABELS, Question, serves, trains

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
