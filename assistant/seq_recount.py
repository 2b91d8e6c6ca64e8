"""A training sequence's length put right in a later turn ('sequences are 4k not 2k', '序列是4k不是2k', 'sorry, the
sequences are actually 4096'): the examples counted before are that long now, so the training tokens are recounted
(examples × the new length) when their length was never said apart from the sequence length (assumed, or the
sequence length itself). Tokens said outright ('500M tokens'), or examples with a length of their own, stay."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.reading.message import Understanding
from gpu_advisor.assistant.reading.text import EXAMPLE_TOKENS

TRAINING = ("fine-tune", "pretrain", "continued-pretrain", "train-and-serve")


def recount_by_length(u: Understanding, profile: Any, updates: dict[str, Any]) -> bool:
    """Recount the training tokens at the new sequence length (updates); True when it did."""
    new = updates.get("seq_len")
    examples = profile.train_examples
    if not new or new == profile.seq_len or "train_tokens" in updates or "train_examples" in updates \
            or not examples or not profile.train_tokens or u.ask.get("seq_lens") \
            or updates.get("phase", profile.phase) not in TRAINING:
        return False
    each = profile.train_tokens / examples
    if not any(abs(each - length) < 0.5 for length in (EXAMPLE_TOKENS, profile.seq_len or 0)):
        return False  # '50k examples of 500 tokens, seq len 2k': the examples' own length stays
    updates["train_tokens"] = float(examples * new)
    return True
