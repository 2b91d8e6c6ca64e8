"""A bare length in k said as a context to try ('at 8k?', '那4k呢', 'switch to 16k 要多少显存'): read by quantities' role
rules before any label. Grammar only: the words are words/asked_figure.yaml's length_* patterns."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gpu_advisor.assistant.reading.text import word_pattern

if TYPE_CHECKING:
    from gpu_advisor.assistant.reading.quantities import Quantity

# The lengths in k people try a context at ('at 4k', '那8k呢'); other bare k-numbers after 'at' or 'to' are left alone.
LENGTHS_K = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)


def length_tried(q: Quantity, before: str, after: str) -> bool:
    """A bare length in k said as a value to try, no unit or label of its own, not money ('budget to 4k?')."""
    return q.scale == "k" and q.number in LENGTHS_K and not q.negated \
        and bool(word_pattern("asked_figure.length_before").search(before)) \
        and bool(word_pattern("asked_figure.length_after").match(after)) \
        and not word_pattern("asked_figure.length_not_before").search(before[-30:])
