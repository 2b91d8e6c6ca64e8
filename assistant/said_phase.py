"""What the user said that the job now planned does not use is not repeated as read for it: 'want like 20 tok/s
min' and 'at q4' said for serving, then 'could i lora finetune it on the same card?' (review s27): the fine-tuning
answer's 'From what you said' lists no serving speed or serving format. The values stay in the profile for a later
return to serving; the slot's own `matters` (assistant.slots) is the one rule of what a job uses."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.slots import SLOTS


def said_matters(slot: str, filled: Any) -> bool:
    """Whether a slot the user said bears on the job planned from `filled` (the profile with its defaults)."""
    s = SLOTS.get(slot)
    return s is None or bool(s.matters(filled.model_dump() if hasattr(filled, "model_dump") else filled))
