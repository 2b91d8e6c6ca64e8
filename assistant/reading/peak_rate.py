"""A peak rate said after a base rate: "平时10 QPS，双十一峰值50", "usually 10 req/s, peak 50", "12 at peak". The words are in
words/units.yaml (rate_peak_before, rate_peak_bare_after); reading.serving.read_request_rate sizes the highest."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from gpu_advisor.assistant.reading.rate_unit import corrected_rate_unit
from gpu_advisor.assistant.reading.text import word_pattern

if TYPE_CHECKING:
    from gpu_advisor.assistant.reading.quantities import Quantity


def peak_rates(masked: str, out: list[Quantity]) -> list[Quantity]:
    """A bare number after a peak word, once a request rate was said ("平时10 QPS，双十一峰值50", "usually 10 req/s,
    peak 50"): the rate at the peak, in the period of that rate, not people at once (read_request_rate sizes
    for the highest rate said)."""
    for i, q in enumerate(out):
        rate = next((x for x in reversed(out[:i]) if x.role == "request_rate"), None)
        if rate is None or q.role not in ("", "users") or q.negated or q.value <= 0:
            continue
        if (word_pattern("rate_peak_before").search(masked[max(0, q.start - 30):q.start])
                and word_pattern("rate_peak_bare_after").match(masked[q.end:q.end + 12])) \
                or word_pattern("rate_peak_after").match(masked[q.end:q.end + 20]):
            out[i] = replace(q, role="request_rate", extra=rate.extra)  # '12 at peak': 12 of the rate's unit
    return corrected_rate_unit(masked, out)  # '5 per minute not per second': the rate's unit put right
