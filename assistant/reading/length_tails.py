"""A served length said as a distribution: 'prompts average 2k tokens, p99 8k', 'most prompts ~1k but up to 16k',
'输入平均2k token，p99 8k', '提示词大多1k左右，最长16k'. The typical length takes its role (prompt_tokens or
output_tokens); a length after a tail word ('p99', 'up to', '最长', words/length_tails.yaml) that follows it takes
the role '<that role>_p99', read by read_prompt_tokens_p99 and read_output_tokens_p99 into the slots the CLI's
--prompt-p99 and --output-p99 fill (tools.queueing.RateInput). A range ('outputs 200-800 tokens') is read by
reading.length_ranges as a spread: its mean at the middle, its p99 at the top, kept in the quantity's extra."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from gpu_advisor.assistant.reading.text import word_pattern

if TYPE_CHECKING:
    from gpu_advisor.assistant.reading.message import Message
    from gpu_advisor.assistant.reading.quantities import Quantity

LENGTHS = ("prompt_tokens", "output_tokens")
OPEN_ROLES = ("", "context")  # a bare number or one read as a context by default: free to be a length's
TAIL_REACH = 48  # characters from the typical length to its tail: the same sentence
TYPICAL_FROM = 64  # a bare number after a length's label is its length from this many tokens ('prompts ~2000')


def _label(text: str) -> str:
    """The length a label in `text` names, the last one said: 'prompt_tokens', 'output_tokens' or ''."""
    found = [(m.start(), role) for key, role in (("length_label_prompt", "prompt_tokens"),
                                                ("length_label_output", "output_tokens"))
             for m in word_pattern(key).finditer(text)]
    return max(found)[1] if found else ""


def length_tails(masked: str, out: list[Quantity]) -> list[Quantity]:
    """Give the typical length and its tail their roles (see the module's note)."""
    for i, q in enumerate(out):
        if q.negated or q.role not in OPEN_ROLES:
            continue
        before = masked[max(0, q.start - TAIL_REACH):q.start]
        typical = word_pattern("length_typical_before").search(before)
        if typical and q.value >= TYPICAL_FROM and not word_pattern("length_label_context").search(masked[q.end:q.end + 12]):
            role = _label(typical.group("label"))
            out[i] = replace(q, role=role)
            continue
        if not word_pattern("length_tail_before").search(before):
            continue
        mean = next((x for x in reversed(out[:i]) if x.role in LENGTHS), None)
        if mean is None or q.start - mean.end > TAIL_REACH or q.value <= mean.value:
            continue
        between = masked[mean.end:min(len(masked), q.end + 12)]
        if word_pattern("length_label_context").search(between):
            continue
        role = _label(masked[mean.end:q.start]) or mean.role
        out[i] = replace(q, role=f"{role}_p99")
    return out


def _tail(m: Message, role: str, mean: int | None) -> int | None:
    """The tail said for a length whose mean was read: a length said after a tail word, else a range's top."""
    if mean is None:
        return None
    found = m.role(f"{role}_p99")
    if found:
        top = int(found[-1].value)
    else:
        ranged = [q for q in m.role(role) if q.extra.startswith("range|") and q.extra.split("|")[3] == "spread"]
        if not ranged:
            return None
        top = round(float(ranged[-1].extra.split("|")[-1]))
    return top if top > mean else None


def read_prompt_tokens_p99(m: Message) -> int | None:
    """The 99th-percentile prompt said with the typical one ('prompts average 2k tokens, p99 8k': 8,000)."""
    from gpu_advisor.assistant.reading.job import read_prompt_tokens

    return _tail(m, "prompt_tokens", read_prompt_tokens(m))


def read_output_tokens_p99(m: Message) -> int | None:
    """The 99th-percentile output said with the typical one ('outputs 200-800 tokens': 800, the mean 500)."""
    from gpu_advisor.assistant.reading.serving import read_output_tokens

    return _tail(m, "output_tokens", read_output_tokens(m))
