"""A peak rate said after a base rate: "平时10 QPS，双十一峰值50", "usually 10 req/s, peak 50", "12 at peak". The words are in
words/units.yaml (rate_peak_before, rate_peak_bare_after); reading.serving.read_request_rate sizes the highest. And a
request rate with its period, as reading.quantities gives a number its role (request_rate_said)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from gpu_advisor.assistant.reading.rate_unit import corrected_rate_unit
from gpu_advisor.assistant.reading.text import vocab, word_pattern

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


def request_rate_said(after: str, before: str) -> tuple[str, str] | None:
    """A request rate with its period ('second', 'minute', 'hour', 'day'): a rate unit after the number
    ('20 rps', '1200 requests a minute'), a period before and requests after ('per second 20 requests'), or
    a rate label before ('peak qps 50')."""
    said = word_pattern("rate_after").match(after)
    period = said and (said.group("per") or said.group("unit"))
    if not period and word_pattern("rate_noun_after").match(after):
        per = word_pattern("rate_per_before").search(before)
        period = per and per.group("per")
    if not period:
        label = word_pattern("rate_period_label_before").search(before)
        period = label and (label.group("per") or label.group("per2"))
    if not period and word_pattern("rate_label_before").search(before):
        period = "rps"
    if not period:
        return None
    word = period.strip().lower()
    return "request_rate", next((p for p, words in vocab()["rate_periods"].items() if word in words), "second")
