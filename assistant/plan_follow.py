"""Short follow-ups that change the plan and keep what was said before (review round O, class 1): a new
count of training examples keeps their stated length; a bare count of cards re-plans on the card of the
plan; one card asked about before any plan is sized on one card."""

from __future__ import annotations

from typing import Any

from assistant.policy import Profile
from assistant.reading import Understanding

TRAINING = ("fine-tune", "pretrain", "continued-pretrain")


def kept_example_length(u: Understanding, updates: dict[str, Any], profile: Profile) -> bool:
    """'dataset is only 50k samples now' after '500k samples avg 1.5k tokens': the new count at the length
    stated before (train tokens recounted), not a typical length assumed. True when the assumed length's
    note is to be dropped."""
    if "train_examples" not in updates or u.example_tokens or "seq_len" in updates:
        return False
    if updates.get("phase", profile.phase) not in TRAINING or not any(k == "note.example_tokens" for k, _v in u.notes):
        return False
    if not profile.train_examples or not profile.train_tokens:
        return False
    each = round(profile.train_tokens / profile.train_examples)
    updates["train_tokens"] = float(int(updates["train_examples"]) * each)
    return True


def one_of_each(allowed: list[str] | None) -> list[str]:
    """'what about on a single card?' with no one card in the plan: one of each kind of card the plan may use
    ('aws vs runpod': the cards they rent), else one of every card a cloud on record rents."""
    kinds = [c.partition("x ")[2].strip() if c[:1].isdigit() else c for c in allowed or []]
    if not kinds:  # every card some cloud rents (no Mac, no laptop: nobody rents one)
        from knowledge.clouds import clouds

        kinds = sorted({g for c in clouds().values() for g in c.gpus})
    return [f"1x {k}" for k in dict.fromkeys(kinds)]
