"""Traffic said as a volume over a long period ('日均调用10万次', '100k requests a day', '每月300万次调用'): the
cards serve the busiest hours, not the day's average. A volume spread over the whole day (or month) is the average
rate; the busiest hour runs at rules.daily_requests_peak_factor times it, the rate sized, said in a note with the
average and the factor (an explicit peak rate said beside it wins: read_request_rate takes the highest said).
Grammar only: the words are in words/load.yaml and words/units.yaml (rate_periods)."""

from __future__ import annotations

from gpu_advisor.assistant.reading.message import Message, Quantity
from gpu_advisor.assistant.reading.text import word_pattern
from gpu_advisor.knowledge import rules
from gpu_advisor.tools.cost import HOURS_PER_MONTH

SECONDS_PER = {"second": 1.0, "minute": 60.0, "hour": 3600.0, "day": 86400.0, "month": HOURS_PER_MONTH * 3600}
LONG_PERIODS = ("day", "month")  # a volume over these is spread over every hour of them


def volume_peak(m: Message, n: float, period: str, rate: float) -> float:
    """The rate sized for a volume said per day or month spread round the clock: the busiest hour's, said."""
    factor = rules().daily_requests_peak_factor
    m.notes.append((f"load.note_volume_peak_{period}", {
        "n": f"{n:,.0f}", "avg": f"{rate:.3g}", "factor": f"{factor:g}",
        "peak": f"{rate * factor:.3g}", "per_day": f"{rate * 86400:,.0f}"}))
    return rate * factor


def volume_split(m: Message) -> tuple[float, float] | None:
    """A split of the volume between read and written tokens ('80/20 in/out', '4:1 input to output', '输入输出比3:1',
    rewritten as '80:20 in-out split' by words/numbers.yaml): (read, written) shares, never two lengths."""
    hit = word_pattern("load_split").search(m.masked)
    if hit is None:
        return None
    read, written = float(hit.group("read")), float(hit.group("written"))
    return (read, written) if read > 0 and written > 0 else None


def split_output(read: float, written: float, prompt: int) -> int:
    """The tokens each request writes when it reads `prompt`, at the split said."""
    return max(1, round(prompt * written / read))


def _derived(q: Quantity) -> bool:
    """A context worked out from characters, words or pages ('五六万字', '50-60k words'), not said in tokens."""
    if q.said:
        return True
    parts = q.extra.split("|")
    return q.extra.startswith("range|") and len(parts) > 2 and parts[2] not in ("", "token", "tokens")


def context_values(m: Message) -> list[float]:
    """The context lengths said, an explicit one first: '上下文得给到64k' beats the 39k worked out from '五六万字' said
    beside it (when the one worked out is longer, a note says so)."""
    found = m.role("context")
    derived = [q for q in found if _derived(q)]
    if not derived:
        return [q.context_tokens for q in found]
    label = word_pattern("load_context_label_before")
    explicit = [q for q in found if not _derived(q)] + [
        q for q in m.qty if not q.role and not q.negated and q.scale == "k" and 1_000 <= q.value <= 2_000_000
        and label.search(m.masked[max(0, q.start - 16):q.start])]
    if not explicit:
        return [q.context_tokens for q in found]
    said = max(explicit, key=lambda q: q.start).context_tokens
    longest = max(q.context_tokens for q in derived)
    m.notes.append(("load.note_context_said" if longest <= said else "load.note_context_said_short",
                    {"said": f"{said:,.0f}", "derived": f"{longest:,.0f}"}))
    return [said]
