"""A card planned in place of the user's own machine ('i'll probably get a used 3090 instead, is that better for
it', reading/planned_card.py): better or not for this job, as a typed code (planned.faster / planned.slower /
planned.no_fit) with the two plans' speeds (tokens/s per user, or hours per run) from the tools."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.writers import gpu_words, hours, tps

SAME = 1.1  # within this ratio the two are "about the same"


def planned_line(answer: Any, previous: dict[str, Any], lang: str) -> tuple[str, dict[str, Any]] | None:
    from gpu_advisor.tools.recommend import Option

    old_best = (previous.get("recommend") or {}).get("best")
    new = answer.recommend.best
    if not old_best or new is None:
        return None
    old = Option.model_validate(old_best)
    values = {"this": gpu_words(new), "was": gpu_words(old)}
    if not new.ok:
        return say(lang, "planned.no_fit", **values), {"code": "no_fit"}
    if new.decode_tokens_per_s and old.decode_tokens_per_s:
        x = new.decode_tokens_per_s / old.decode_tokens_per_s
        values |= {"new": tps(new.decode_tokens_per_s), "old": tps(old.decode_tokens_per_s)}
    elif new.job_hours and old.job_hours:
        x = old.job_hours / new.job_hours
        values |= {"new": hours(new.job_hours), "old": hours(old.job_hours)}
    else:
        return None
    code = "faster" if x >= SAME else "slower" if x <= 1 / SAME else "same"
    unit = "speed" if new.decode_tokens_per_s and old.decode_tokens_per_s else "hours"
    return say(lang, f"planned.{code}.{unit}", x=f"{max(x, 1 / x):.1f}", **values), {"code": code, "ratio": round(x, 2)}
