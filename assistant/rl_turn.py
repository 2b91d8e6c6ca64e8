"""The figures of an RL fine-tune said in a later turn ('prompt大概一万条 每条采样8个 回答长度两千token左右', '10k prompts, 8
samples each, answers around 2k tokens', '数据7500条' after 'GRPO on qwen2.5 7b'): the prompts, the group and the
completion length of that run, never an offline batch job over as many items (review BR C10: '好的：离线批处理任务' and
the counts asked again) nor supervised examples of a fixed length; and a completion length said again replaces the
one before (review BT #2: 'the rollouts are up to 8k tokens each' kept 1,024), never a training sequence length."""

from __future__ import annotations

from typing import Any

# What a batch reading of the same words fills, and the RL slot each one is.
AS_RL = {"batch_items": "rl_prompts", "batch_output_tokens": "rl_completion_tokens"}
# Readings that have no place in an RL run once its figures are taken: the batch job's input length, and the
# examples' tokens (an RL run trains on what it generates: prompts x samples x (prompt + completion)).
NOT_RL = ("batch_items", "batch_input_tokens", "batch_output_tokens", "train_tokens")
# Lengths read from the same words as the completion ('rollouts up to 16k tokens': 16,000 and a 16,384 context):
# within this share of it, the same number read twice.
SAME_LENGTH = 0.05


def _count(value: Any) -> int:
    return int(str(value).replace(",", ""))


def _as_rl(updates: dict[str, Any], notes: list[tuple[str, dict[str, Any]]]) -> list[tuple[str, dict[str, Any]]]:
    """A batch or example reading in an RL conversation, turned into the RL run's figures in place; the reader's
    notes that no longer hold."""
    dropped: list[tuple[str, dict[str, Any]]] = []
    if "batch_items" in updates and updates.get("phase") in ("batch", None):
        updates.pop("phase", None)
        per = next((v for k, v in notes if k == "note.items_from_samples"), None)
        if per:  # '10k prompts, 8 samples each': the prompts and the group, not 80,000 items
            dropped += [(k, v) for k, v in notes if k == "note.items_from_samples"]
            updates["rl_prompts"], updates["rl_samples"] = _count(per["prompts"]), _count(per["samples"])
            updates.pop("batch_items")
    if "rl_prompts" not in updates and (updates.get("train_examples") or updates.get("batch_items")):
        # '数据7500条': the prompts the policy is trained on, not examples of an assumed length
        updates["rl_prompts"] = int(updates.pop("train_examples", None) or updates.pop("batch_items"))
        dropped += [(k, v) for k, v in notes if k == "note.example_tokens"]
    if "batch_output_tokens" in updates:  # '回答其实是8k token': each completion's length
        updates.setdefault("rl_completion_tokens", int(updates["batch_output_tokens"]))
        if updates.get("phase") == "batch":
            updates.pop("phase")
    for slot in NOT_RL:
        updates.pop(slot, None)
    return dropped


def as_rl_figures(objective: str | None, updates: dict[str, Any],
                  notes: list[tuple[str, dict[str, Any]]]) -> list[tuple[str, dict[str, Any]]]:
    """The one place a turn's reading becomes an RL run's figures, in place (`objective`: the conversation's so far):
    in an RL conversation a batch or example reading gives its counts and lengths to the RL run; in any RL turn a
    sequence length or context read from the completion's own words goes. Returns the reader's notes that no longer
    hold (the items counted from prompts x samples, the examples' assumed length)."""
    if updates.get("objective", objective) != "rl":
        return []
    dropped = _as_rl(updates, notes) if objective == "rl" else []
    completion = updates.get("rl_completion_tokens")
    if updates.get("phase") not in ("fine-tune", None):
        return dropped  # (a context said for serving the tuned model stays)
    for slot in ("seq_len", "context"):  # 'the rollouts are up to 8k tokens each': the completion, not a sequence
        if completion and isinstance(updates.get(slot), (int, float)) \
                and abs(updates[slot] - completion) <= SAME_LENGTH * completion:
            updates.pop(slot)
    return dropped
