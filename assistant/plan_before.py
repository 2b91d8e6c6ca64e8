"""'Does that change things?' with no plan shown before (the turn before asked a question instead, AM #18: '~100
concurrent users' then 'we want the full 128k context … does that change things?'): the plan as it stood before this
turn's change is sized too, from the profile with the values this turn moved put back (Turn.before), so the reply
answers against it ('What moved', 'Against the plan before') like a change after a plan shown."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant import advice
from gpu_advisor.assistant.policy import Profile, fill_defaults
from gpu_advisor.tools.common import ToolError


def plan_before(state: Any, turn: Any, profile: Profile, lang: str) -> dict[str, Any] | None:
    """The results of the plan before this turn's change ('recommend', 'inputs'), or None when a plan was shown
    before, nothing moved, the turn asks no what-if, or the plan before cannot be sized."""
    if (state.get("results") or {}).get("recommend") or "whatif" not in turn.intents or not turn.before \
            or turn.compare or turn.whatif or not profile.model:
        return None
    old = profile.model_copy(update={k: v for k, v in turn.before.items() if k in Profile.model_fields})
    if old == profile or not old.phase or not old.model:
        return None  # no model said before ('主要是70b的lora微调' answers which model): no plan before to move from
    filled, defaulted = fill_defaults(old, {}, lang, state.get("settings"))
    try:
        answer = advice.compute(filled, {}, [], None, defaulted=list(defaulted))
    except (ToolError, LookupError, ValueError):
        return None
    if answer.recommend.best is None:
        return None
    return {**(state.get("results") or {}), "recommend": answer.recommend.model_dump(mode="json"),
            "inputs": answer.inputs}
