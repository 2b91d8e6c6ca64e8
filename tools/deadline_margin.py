"""A batch job with a hard deadline ('3.5 million pages by friday, how many H100s?'): the count is sized so that the
job ends in time at the SLOW end of the speed's measured range, not only at the typical figure (review advice29 #3:
2 x H100 for 58.3 h of 96 h assumed the typical speed held for two and a half days). The speed tool gives each
figure its range (tools.throughput.speed: decode from the bench's residuals, prefill from its own band); the slow
end of both is the run's longest plausible time. With it comes the check the user can make in the first hour: the
tokens per second the cards must write over the run to end by the deadline (Option.needed_tokens_per_s), below
which more cards are needed."""

from __future__ import annotations

import math

from gpu_advisor.tools.throughput import SpeedResult


def slow_end_hours(sp: SpeedResult, items: int, tokens_in: int, written: int) -> float:
    """Hours of the job on one copy at the slow end of the speed's ranges: the prompts read at the low end of the
    prefill range, the tokens written at the low end of the decode range (the aggregate scaled as the per-sequence
    speed is)."""
    prefill_low = sp.prefill_tokens_per_s_range[0] or sp.prefill_tokens_per_s
    decode_share = sp.decode_tokens_per_s_range[0] / sp.decode_tokens_per_s if sp.decode_tokens_per_s else 1.0
    decode_low = sp.aggregate_decode_tokens_per_s * min(1.0, decode_share or 1.0)
    seconds = items * tokens_in / prefill_low + (items * written / decode_low if written else 0.0)
    return seconds / 3600


def copies_for_deadline(hours: float, slow_hours: float, planned: float, deadline: float) -> int:
    """Model copies that end the job by the deadline both ways: the typical time within the planned share of the
    deadline (the margin rule), and the slow end within the deadline itself."""
    return max(1, math.ceil(hours / planned), math.ceil(slow_hours / deadline))
