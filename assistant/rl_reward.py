"""A reward model said with no size ('actor critic reward ref 四个模型都要放', 'plus a reward model', review CF #10): taken
as the policy's size and sized with the other three (tools.rl: its BF16 weights sharded over the training cards and a
forward pass over every sequence), never left out as 'not modelled'. It is an assumption, said under the assumptions
(never under 'from what you said'), and follows the policy when the model changes; a size said later replaces it."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.reading.rl_models import POLICY_SIZED


def reward_assumed(profile: Any, updates: dict[str, Any], defaulted: dict[str, str], lang: str) -> Any:
    """The profile with an unsized reward model at the policy's size (and `defaulted` saying so)."""
    from gpu_advisor.tools.models import resolve_model

    unsized = profile.rl_reward_model == POLICY_SIZED
    follows = "rl_reward_model" in defaulted and "model" in updates and "rl_reward_model" not in updates
    if updates.get("rl_reward_model") == POLICY_SIZED:
        updates.pop("rl_reward_model")  # not said back as a model the user named
    if not (unsized or follows):
        return profile
    if not profile.model:  # no policy yet: waits for it, unsized
        return profile
    try:
        name = resolve_model(profile.model).name
    except (LookupError, ValueError):
        name = str(profile.model)
    defaulted["rl_reward_model"] = say(lang, "assume.rl_reward_policy", model=name)
    return profile.model_copy(update={"rl_reward_model": profile.model})
