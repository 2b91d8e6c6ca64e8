"""Latencies in their role: a time per output token is a decode speed, a time measured is no target."""

from __future__ import annotations

import re

from gpu_advisor.assistant.reading.text import word_pattern


def per_token(after: str, before: str) -> bool:
    """Whether a time is per output token ('50 ms per token', 'p99 inter-token latency under 50ms', '每个token不超过
    60毫秒'): the per-token words right after it, or in the words before it since the last number, with no
    first-token words nearer to it. A first-token label said before it with no per-token words after that label is
    its own ('p99 TTFT under 800ms and TPOT under 40 ms': the TPOT after the 800 is the next number's label)."""
    said_after = re.split(r"[\d,;]|\.(?!\d)", after[:30])[0]
    per_after = word_pattern("per_token_context").search(said_after)
    if per_after and not word_pattern("latency_label_break").search(said_after[:per_after.start()]):
        return True  # '40ms TPOT', '50 ms per token': its own label, right after its unit
    first_after = word_pattern("first_token_context").search(said_after)
    if first_after and not word_pattern("latency_label_break").search(said_after[:first_after.start()]):
        return False  # '40ms TPOT and 800ms TTFT': the 800's label is the one after it
    since = _since_number(before)
    per = [x.end() for x in word_pattern("per_token_context").finditer(since)]
    first = [x.end() for x in word_pattern("first_token_context").finditer(since)]
    if first and (not per or max(per) < max(first)):
        return False
    return bool(per_after) or (bool(per) and (not first or max(first) < max(per)))


def observed(after: str, before: str) -> bool:
    """Whether a time is what was measured, not a target ('ttft p99 is like 4 seconds on vllm', '现在4秒'):
    a word of measuring or of how it is now just before it, and no word of a limit around it."""
    since = _since_number(before)
    if word_pattern("latency_target_before").search(since) or word_pattern("latency_target_after").match(after):
        return False
    if word_pattern("latency_observed_before").search(since) or word_pattern("latency_observed_said").search(since):
        return True
    complains = word_pattern("latency_complaint").search(before[-60:] + after[:80])
    return bool(complains and word_pattern("latency_observed_weak").search(since))


def _since_number(before: str) -> str:
    """The words before a time since the number before it (a 'p99' is a word, not a number)."""
    return re.split(r"(?<![a-z\d.])\d", before)[-1][-48:]


def target_percentile(masked: str, at: int) -> float | None:
    """The percentile a latency target is held at ('p90 TTFT under 1 s' 0.9, 'P95首字延迟' 0.95, '95th percentile',
    '99分位'): the one said nearest before the target's number at `at`, else the first after it; None when the
    message names no percentile by its number."""
    found = [(x.start(), float(x.group("q") or x.group("th")) / 100)
             for x in word_pattern("latency_percentile_value").finditer(masked)]
    if not found:
        return None
    before = [f for f in found if f[0] < at]
    return (max(before) if before else min(found))[1]


def bare_latency(masked: str, at: int) -> bool:
    """Whether the time at `at` was said as a bare latency ('p95 latency under 2s', '延迟 2 秒以内'): held as the first
    token's, though the user may mean the whole answer; no first-token word since the number before it."""
    since = _since_number(masked[:at])
    return bool(word_pattern("latency_word").search(since)) and not word_pattern("first_token_context").search(since)


def latency_note(ms: float, output: float | None) -> tuple[str, dict[str, str]]:
    """The note a bare latency target gets: read as the first token's, and, with the output length said, the
    per-user speed the whole answer within that time would take (output tokens / the time)."""
    if not output:
        return "note.latency_first_token", {"s": f"{ms / 1000:,.3g}"}
    return "note.latency_first_token_or_e2e", {"s": f"{ms / 1000:,.3g}", "output": f"{output:,.0f}",
                                               "tps": f"{output * 1000 / ms:,.0f}"}
