"""A busy share the reader inferred, not heard (review AU2, AU10, AT C2): 'a request rate', 'a chatbot for our
customers' make a service that is up around the clock (reading.serving.read_utilisation, with its note). That is an
assumption: it goes under the assumptions, never under 'from what you said'."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say

INFERRED_NOTES = ("note.live_service", "note.public_facing")


def inferred_busy(notes: list[tuple[str, Any]], updates: dict[str, Any], defaulted: dict[str, str], lang: str) -> None:
    """Marks the utilisation as assumed when this turn's reading inferred it from a live service."""
    if updates.get("utilisation") is not None and any(k in INFERRED_NOTES for k, _v in notes):
        defaulted["utilisation"] = say(lang, "buybox.busy_inferred")
