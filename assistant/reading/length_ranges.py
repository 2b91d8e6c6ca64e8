"""A length said as a range ('200-300 words each', '4-8k tokens', '每条200到300个字'): one length, not two numbers.
The low end takes the high end's scale ('4-8k' is 4k to 8k) and unit ('200-300 words': both are words); it is
then read as nothing (role 'previous'), and the high end carries the length read: an item's length at the
middle of the range (a training set's or a batch's tokens are counted at the typical item), an output's, a
prompt's or a context's at the top (the top sizes the memory). The range and the point read are kept in
`extra` as 'range|<low-high as said>|<unit of text or ''>|middle or top|<top in tokens>' (the top sizes a
training sequence: job.read_seq_len) and said back (message.prepare: note.length_range)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from gpu_advisor.assistant.reading.text import vocab, word_pattern

if TYPE_CHECKING:
    from gpu_advisor.assistant.reading.quantities import Quantity

# The lengths a range can say, and where in the range the point read lies (0.5 the middle, 1.0 the top).
POINT_IN_RANGE = {"per_item_tokens": 0.5, "output_tokens": 1.0, "prompt_tokens": 1.0, "context": 1.0}


def length_ranges(masked: str, out: list[Quantity]) -> list[Quantity]:
    """Join each 'low-high <length unit>' pair of quantities into one length (see the module's note)."""
    for i in range(len(out) - 1):
        low, high = out[i], out[i + 1]
        where = POINT_IN_RANGE.get(high.role)
        if where is None or low.negated or low.role not in ("", high.role, "per_item_tokens", "context") \
                or not word_pattern("users_range_join").match(masked[low.end:high.start]):
            continue
        said = high.said.split("|") if high.said else []
        number = low.number
        scale = low.scale or (high.scale if not said else "")
        low_value = number * vocab()["suffix_scale"].get(scale, 1)
        if said:  # '200-300 words': the low end is words too, counted as tokens at the high end's ratio
            low_value = round(low_value / float(said[2]), 3)
        if not 0 < low_value < high.value:
            continue
        point = low_value + (high.value - low_value) * where
        out[i] = replace(low, role="previous", extra="")
        top = f"{float(said[0]):g}" if said else f"{high.number:g}{high.scale}"
        span = f"{number:g}{'' if said else scale}-{top}"
        out[i + 1] = replace(high, number=float(round(point)), scale="",
                             extra=f"range|{span}|{said[1] if said else ''}|{'middle' if where < 1 else 'top'}|{high.value:.0f}")
    return out


def range_high(masked: str, low: Quantity, high: Quantity) -> bool:
    """Whether `high` is the top of a range whose low end is `low` ('200-300', '4-8k', '200到300'), not a
    change said as 'from X to Y' (read by _changes)."""
    return bool(word_pattern("length_range_join").match(masked[low.end:high.start])) \
        and not word_pattern("range_from").search(masked[max(0, low.start - 24):low.start])
