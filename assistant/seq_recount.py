"""A training sequence's length put right in a later turn ('sequences are 4k not 2k', '序列是4k不是2k', 'sorry, the
sequences are actually 4096'): the examples counted before are that long now, so the training tokens are recounted
(examples × the new length) when their length was never said apart from the sequence length (assumed, or the
sequence length itself). Tokens said outright ('500M tokens'), or examples with a length of their own, stay."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.reading.message import Understanding
from gpu_advisor.assistant.reading.text import EXAMPLE_TOKENS, word_pattern

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


def _tied(profile: Any) -> bool:
    """Whether the examples' tokens are the assumed length, or the sequence length itself (no length of their own)."""
    if not profile.train_examples or not profile.train_tokens:
        return False
    each = profile.train_tokens / profile.train_examples
    return any(abs(each - length) < 0.5 for length in (EXAMPLE_TOKENS, profile.seq_len or 0))


def answer_length(u: Understanding, profile: Any, updates: dict[str, Any], text: str) -> tuple[int, int] | None:
    """A length said after the examples' length was assumed ('1,500', 'about 1.5k each', 'pairs average around 1500
    tokens', '大概1500 token左右'): the examples' length, their tokens recounted (updates). For preference pairs the
    length is each sequence's (chosen, rejected), half a pair's said in total. (each, per pair) for DPO, else None."""
    if updates.get("phase", profile.phase) not in TRAINING or not _tied(profile) \
            or {"train_tokens", "train_examples", "batch_items", "rl_prompts"} & set(updates):
        return None
    bare = u.ask.get("bare_length")
    context = updates.get("context") if not word_pattern("length_answer_context").search(text) else None
    each = bare[0] if bare else updates.get("batch_input_tokens") or u.example_tokens or context or updates.get("seq_len")
    if not each:
        return None
    dpo = updates.get("objective", profile.objective) == "dpo"
    if dpo and ((bare and bare[1]) or word_pattern("bare_length_total").search(text)):
        each = max(1, round(each / 2))  # '1500 per pair in total': the chosen and the rejected halves
    for slot in ("batch_input_tokens", "batch_output_tokens", "context"):
        updates.pop(slot, None)
    updates["seq_len"] = int(each)
    updates["train_tokens"] = float(profile.train_examples * each)
    return (int(each), int(each) * 2) if dpo else None
