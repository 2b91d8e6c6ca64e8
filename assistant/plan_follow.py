"""Short follow-ups that change the plan and keep what was said before (review round O, class 1): a new
count of training examples keeps their stated length; a bare count of cards re-plans on the card of the
plan; one card asked about before any plan is sized on one card."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.policy import Profile
from gpu_advisor.assistant.reading import Understanding

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
        from gpu_advisor.knowledge.clouds import clouds

        kinds = sorted({g for c in clouds().values() for g in c.gpus})
    return [f"1x {k}" for k in dict.fromkeys(kinds)]


def distills_of(model_id: str | None) -> list[str]:
    """The catalog's distilled models of a model ('deepseek-r1' -> its Qwen and Llama distills), largest first."""
    from gpu_advisor.knowledge import models

    if not model_id:
        return []
    found = [m for m in models() if m.id.startswith(f"{model_id}-distill-")]
    return [m.id for m in sorted(found, key=lambda m: (-m.total_params_b, m.id))]


def distill_to_size(model_id: str | None, results: dict[str, Any] | None) -> str | None:
    """Which distill to size for 'the distill ones': the one the plan before already found runs on the user's
    own card (the largest that fits: the plan relaxed to it, or its fallback lever), else the largest (the sizing
    then names a smaller one of the family on the user's card as the fallback when it does not fit)."""
    found = distills_of(model_id)
    if not found:
        return None
    rec = (results or {}).get("recommend") or {}
    ran = str(rec.get("relaxed") or "").partition("model=")[2]
    # the model asked leads at home and a smaller one that runs on the card is its fallback lever (tools.home_card)
    runs = [str(lv.get("change") or "").partition("model=")[2] for lv in rec.get("levers") or []
            if (lv.get("option") or {}).get("owned") and (lv.get("option") or {}).get("ok")]
    return next((m for m in [ran, *runs] if m in found), found[0])
