"""End-to-end latency targets: the whole answer back within a time ('p95 end to end under 8s for 400 token
responses', 'p95 e2e < 300ms', 'p99 3秒内出完', '整体响应时间 2 秒以内'). A time said with an end-to-end word
is no first-token target: its quantity takes the role e2e_ms (its unit in extra), and a token count said
for it ('for 400 tokens') is the output length. Grammar only: the words are in words/e2e.yaml."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from gpu_advisor.assistant.reading.latency import target_percentile
from gpu_advisor.assistant.reading.text import word_pattern

if TYPE_CHECKING:
    from collections.abc import Iterator

    from gpu_advisor.assistant.reading.message import Message
    from gpu_advisor.assistant.reading.quantities import Quantity

# A clause ends at these marks: an end-to-end word in another clause says nothing of this time.
CLAUSE_END = re.compile(r"[,;，；。!?！？]")
TIME_ROLES = ("", "ttft_ms", "ttft_s")


def _unit(after: str) -> tuple[str, int] | None:
    """('ms' or 's', the unit's length) for a time's unit right after its number, else None."""
    for unit, key in (("ms", "ms_after"), ("s", "seconds_after")):
        said = word_pattern(key).match(after)
        if said:
            return unit, said.end()
    return None


def _said_end_to_end(before: str, after: str) -> bool:
    """An end-to-end word in the time's clause: before it with no first-token word between ('e2e < 300ms',
    'end to end p95 under 8s'), or right after its unit ('3 seconds 内出完')."""
    clause = word_pattern("latency_percentile_value").sub(" ", CLAUSE_END.split(before)[-1])  # 'end to end p95 under'
    said = word_pattern("e2e_before").search(clause)
    if said and not word_pattern("e2e_first_token").search(clause[said.end():]):
        return True
    if word_pattern("e2e_first_token").search(clause):
        return False  # 'time to first token under 500ms total users 300': the first token's
    return bool(word_pattern("e2e_after").match(CLAUSE_END.split(after)[0]))


def times_said(m: Message, tail: int = 40) -> Iterator[tuple[int, Quantity, tuple[str, int], str, str]]:
    """Each time said with its unit, not negated: (index, quantity, (unit, its length), the 60 characters before
    it, the `tail` characters after its unit)."""
    for i, q in enumerate(m.qty):
        if q.role not in TIME_ROLES or q.negated:
            continue
        unit = _unit(m.masked[q.end:q.end + 20])
        if unit is not None:
            yield (i, q, unit, m.masked[max(0, q.start - 60):q.start],
                   m.masked[q.end + unit[1]:q.end + unit[1] + tail])


def e2e_times(m: Message) -> None:
    """Give the times said end to end the role e2e_ms (extra: their unit), and the token count said for one
    ('for 400 tokens') the role output_tokens when no output length is said otherwise."""
    for i, q, unit, before, after in times_said(m):
        if not _said_end_to_end(before, after):
            continue
        m.qty[i] = replace(q, role="e2e_ms", extra=unit[0])
        _output_said_for(m, q.end + unit[1])


def _output_said_for(m: Message, end: int) -> None:
    """'e2e under 8 s for 400 tokens': the count said right after the target is the tokens each answer writes."""
    if m.role("output_tokens"):
        return
    for i, q in enumerate(m.qty):
        if q.start < end or q.negated or q.role not in ("", "context", "output_tokens", "batch_output_tokens"):
            continue
        between = m.masked[end:q.start]
        if word_pattern("e2e_output_before").search(between) and len(between) < 30 \
                and word_pattern("e2e_output_after").match(m.masked[q.end:q.end + 30]):
            m.qty[i] = replace(q, role="output_tokens")
        return


def read_e2e(m: Message) -> float | None:
    """Target end-to-end time in ms, the whole answer back ('p95 e2e < 300ms', 'p99 3秒内出完'): the strictest
    when several are said; its percentile is the first-token one's (read_e2e_percentile)."""
    found = m.role("e2e_ms")
    if not found:
        return None
    values = [q.value * (1000 if q.extra == "s" else 1) for q in found]
    if min(values) <= 0:
        m.problems.append(("latency_not_positive", {}))
        return None
    return float(min(values))


def e2e_percentile(m: Message) -> float | None:
    """The percentile the end-to-end target is held at ('p95 e2e < 300ms': 0.95), None when none is said by
    its number."""
    found = m.role("e2e_ms")
    if not found or not word_pattern("latency_percentile").search(m.masked):
        return None
    values = [q.value * (1000 if q.extra == "s" else 1) for q in found]
    return target_percentile(m.masked, found[values.index(min(values))].start)


def read_latency_percentile(m: Message) -> float | None:
    """The one percentile the latency targets share: the first-token target's, else the end-to-end one's."""
    from gpu_advisor.assistant.reading.serving import read_ttft_percentile

    return read_ttft_percentile(m) or e2e_percentile(m)


def read_tpot_percentile(m: Message) -> float | None:
    """The percentile a per-token target is said at ('p99 TPOT under 50 ms', '输出每token不超过50ms' beside a p99):
    above the median only (a median target is the mean itself); None when no per-token time or no percentile."""
    found = m.role("ms_per_token", "s_per_token")
    if not found:
        return None
    pct = target_percentile(m.masked, found[-1].start)
    return pct if pct is not None and pct > 0.5 else None
