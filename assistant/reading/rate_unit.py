"""A request rate's unit put right in a later turn: '等下，我说错了，是每分钟5个请求不是每秒', 'sorry i meant 5 per minute not
per second', '不是每秒，是每分钟5个': a bare number beside a period, with another period said negated, is that many
requests in that period (the rate said before in the wrong unit is replaced; the prompt and output lengths said with
it stay, assistant.engine keeps every slot not said). The words are in words/rate_unit.yaml."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from gpu_advisor.assistant.reading.text import vocab, word_pattern

if TYPE_CHECKING:
    from gpu_advisor.assistant.reading.quantities import Quantity


def _period(word: str) -> str:
    return next((p for p, words in vocab()["rate_periods"].items() if word.strip() in words), "second")


def corrected_rate_unit(masked: str, out: list[Quantity]) -> list[Quantity]:
    """The bare number beside a period, when another period is said negated: a request rate in that period."""
    if not word_pattern("rate_unit.negated").search(masked) or any(q.role == "request_rate" for q in out):
        return out
    for i, q in enumerate(out):
        if q.role or q.negated or q.value <= 0:
            continue
        said = word_pattern("rate_unit.after").match(masked[q.end:q.end + 24]) \
            or word_pattern("rate_unit.before").search(masked[max(0, q.start - 24):q.start])
        if said:
            out[i] = replace(q, role="request_rate", extra=_period(said.group("per")))
    return out
