"""A value the sizing tools refuse, said as the problem line the engine uses for any value out of range
(problem.invalid_value), naming the slot in the user's language: never the tools' validation text ('1 validation
error for Workload … less than or equal to 1000000'), whatever slot it is in."""

from __future__ import annotations

from pydantic import ValidationError

from gpu_advisor.assistant.catalog import catalog, localise, say


def _label(lang: str, field: str) -> str | None:
    key = f"slot.{field}.label"
    return say(lang, key) if key in catalog("en") else None


def invalid_lines(lang: str, e: ValidationError) -> list[str]:
    """One problem line per slot out of range (a field with no slot of its own is said as 'a value')."""
    fields = [str(err["loc"][0]) for err in e.errors() if err.get("loc")]
    return [say(lang, "problem.invalid_value", slot=label) if label else say(lang, "problem.invalid_value_unnamed")
            for label in dict.fromkeys(_label(lang, f) for f in fields)] or [say(lang, "problem.invalid_value_unnamed")]


def refused(lang: str, e: Exception) -> str:
    """The problems of a value refused, else the tool's own sentence in the user's language."""
    if isinstance(e, ValidationError):
        return say(lang, "list_sep").join(invalid_lines(lang, e))
    return localise(lang, str(e))
