"""A count of preference pairs with no length given ('DPO … on ~40k preference pairs, seq len 4096', review CV #4):
each pair is a prompt with a chosen and a rejected response, two sequences the policy (and DPO's frozen reference)
runs. The training tokens are the pairs x one sequence's length (the tools count both sequences: tools.recommend
training_time_setup), that length no longer than the sequence length said; the note says how the pair was counted.
KTO's examples are single responses labelled good or bad (objective.unpaired): counted as examples."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.reading.message import Message


def pair_note(m: Message, n: float, each: int) -> tuple[int, dict[str, Any]]:
    """The tokens of one sequence and the note's values for n examples of `each` tokens (pairs when preference
    tuning on pairs is said; the note's 'pairs' value picks its wording, assistant/engine.py)."""
    from gpu_advisor.assistant.reading.job import read_seq_len

    values: dict[str, Any] = {"n": f"{n:,.0f}", "each": f"{each:,}"}
    if not m.live("objective.dpo") or m.live("objective.unpaired"):
        return each, values
    seq = read_seq_len(m)
    each = min(each, seq) if seq else each
    values.update(each=f"{each:,}", pairs="_pairs" + ("_seq" if seq else ""), seq=f"{seq or 0:,}",
                  total=f"{2 * n * each / 1e6:,.0f}")
    return each, values
