"""Traffic said as a volume over a long period ('日均调用10万次', '100k requests a day', '每月300万次调用'): the
cards serve the busiest hours, not the day's average. A volume spread over the whole day (or month) is the average
rate; the busiest hour runs at rules.daily_requests_peak_factor times it, the rate sized, said in a note with the
average and the factor (an explicit peak rate said beside it wins: read_request_rate takes the highest said).
Grammar only: the words are in words/load.yaml and words/units.yaml (rate_periods)."""

from __future__ import annotations

from gpu_advisor.assistant.reading.message import Message
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
