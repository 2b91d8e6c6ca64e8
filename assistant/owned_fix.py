"""A correction of the cards owned restricts nothing else (review BE 20: 'we have two H100 80G' then '啊不对 … 其实是两张
A100 40G 的，不是 H100' turned into 'only 2 x A100 40GB' and 'no H100' for renting too, so the fallback rented 8 x A100
40GB at ¥99/h where 4 x A800 at ¥23/h did the job): once the cards owned are put right (assistant.premise
apply_recount, assistant.replaced), the card said wrong is not ruled out and the cards now owned are not the only
cards the plan may rent. A restriction said in its own words ('only A100s', '不要 H100') is the reader's other slots
and stays when it names something other than these two cards."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.premise import counted


def owned_fix_restricts_nothing(u: Any, profile: Any, updates: dict[str, Any]) -> None:
    """Drop the 'only' and 'exclude' a correction of the owned cards brought with it (updates, in place)."""
    if not (u.ask.get("recounted") or u.ask.get("replaced")) or not profile.owned or not updates.get("owned"):
        return
    before = {counted(e)[1] for e in profile.owned}
    now = {counted(e)[1] for e in updates["owned"]}
    if now == before:
        return  # a count put right on the same card: nothing was swapped
    only = [e for e in updates.get("only") or [] if counted(e)[1] not in now]
    if "only" in updates and not (profile.only and only):
        if only:
            updates["only"] = only
        elif profile.only:
            updates["only"] = None
        else:
            updates.pop("only")
    wrong = before - now
    if updates.get("exclude"):
        left = [c for c in updates["exclude"] if c not in wrong]
        if left:
            updates["exclude"] = left
        elif profile.exclude:
            updates["exclude"] = None
        else:
            updates.pop("exclude")
