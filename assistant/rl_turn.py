"""The figures of an RL fine-tune said in a later turn ('prompt大概一万条 每条采样8个 回答长度两千token左右', '10k prompts, 8
samples each, answers around 2k tokens' after 'GRPO on qwen2.5 7b'): the prompts, the group and the completion length of
that run, never an offline batch job over as many items (review BR C10: '好的：离线批处理任务' and the counts asked
again)."""

from __future__ import annotations

from typing import Any

# What a batch reading of the same words fills, and the RL slot each one is.
AS_RL = {"batch_items": "rl_prompts", "batch_output_tokens": "rl_completion_tokens"}
BATCH_ONLY = ("batch_input_tokens",)


def as_rl_figures(objective: str | None, updates: dict[str, Any],
                  notes: list[tuple[str, dict[str, Any]]]) -> list[tuple[str, dict[str, Any]]]:
    """In an RL conversation, a turn read as a batch job gives its figures to the RL run, in place; returns the
    reader's notes that no longer hold (the items counted from prompts × samples)."""
    if objective != "rl" or updates.get("phase") not in ("batch", None) or updates.get("objective", "rl") != "rl" \
            or "batch_items" not in updates:
        return []
    updates.pop("phase", None)
    dropped = [(k, v) for k, v in notes if k == "note.items_from_samples"]
    per = next((v for k, v in notes if k == "note.items_from_samples"), None)
    if per:  # '10k prompts, 8 samples each': the prompts and the group, not 80,000 items
        updates["rl_prompts"] = int(str(per["prompts"]).replace(",", ""))
        updates["rl_samples"] = int(str(per["samples"]).replace(",", ""))
        updates.pop("batch_items", None)
    for batch, rl in AS_RL.items():
        if batch in updates:
            value = updates.pop(batch)
            updates.setdefault(rl, int(value))
    for slot in BATCH_ONLY:
        updates.pop(slot, None)
    return dropped
