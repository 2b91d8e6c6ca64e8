"""A busy share the reader inferred, not heard (review AU2, AU10, AT C2): 'a request rate', 'a chatbot for our
customers' make a service that is up around the clock (reading.serving.read_utilisation, with its note). That is an
assumption: it goes under the assumptions, never under 'from what you said'. So is 'all day' ('who'll use it all day',
'整天都在用'): read as the working day (reading.all_day), an assumption said with it."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say

# The reader's note of an inferred share -> how the assumption is said.
INFERRED_NOTES = {"note.live_service": "buybox.busy_inferred", "note.public_facing": "buybox.busy_inferred",
                  "note.all_day": "buybox.busy_all_day"}


def inferred_busy(notes: list[tuple[str, Any]], updates: dict[str, Any], defaulted: dict[str, str], lang: str) -> None:
    """Marks the utilisation as assumed when this turn's reading inferred it from a live service."""
    said = next((INFERRED_NOTES[k] for k, _v in notes if k in INFERRED_NOTES), None)
    if updates.get("utilisation") is not None and said:
        defaulted["utilisation"] = say(lang, said)
