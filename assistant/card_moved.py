"""A follow-up that moves the plan to another card or count (review CE #10: 4 x RTX 5090 in turn 2, 1 x A800 in turn 3
after '如果租的话一年下来多少钱', with no word of why): one line saying what moved and why, from codes:

- `rent` / `buy`: the way of paying changed, so the options are ranked by what that costs (the hour rented, the
  purchase): the new pick against the old setup at that price;
- `short`: the old setup, sized again for the changed job, no longer meets every target;
- `dearer`: the old setup still does it but costs more than the new pick, paid the way the plan is paid;
- `other`: none of these on record (the ranking's tie-breaks moved it).

Said by the engine beside 'What moved' (assistant.moved), in the user's language."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.tools.recommend import Option, Recommendation


def card_moved_code(rec: Recommendation, before: dict[str, Any], before_inputs: dict[str, Any],
                    after_inputs: dict[str, Any]) -> tuple[str, Option | None] | None:
    """Why the pick moved off the setup of the plan before, as a code with the old setup sized again (None when
    it is not among the options); None when the pick did not move to another card or count."""
    new = rec.best
    if new is None or not before.get("gpu") or before.get("owned") or new.owned:
        return None
    if (new.gpu, new.gpus) == (before["gpu"], before.get("gpus")):
        return None
    again = next((o for o in rec.options if (o.gpu, o.gpus) == (before["gpu"], before.get("gpus")) and not o.owned),
                 None)
    if again is not None and not again.ok:
        return "short", again
    from gpu_advisor.assistant.moved import SHOWN

    job_moved = any(before_inputs.get(k) != after_inputs.get(k) for k, _slot in SHOWN)
    pref_old, pref_new = before_inputs.get("preference"), after_inputs.get("preference")
    if pref_new in ("rent", "buy") and pref_old != pref_new and not job_moved:  # only the way of paying moved
        return pref_new, again
    key = "purchase_usd" if rec.action == "buy" else "job_usd" if new.job_usd is not None and not rec.workload.spec.serves \
        else "usd_per_hour"
    if again is not None and getattr(again, key) and getattr(new, key) and getattr(again, key) > getattr(new, key):
        return "dearer", again
    return "other", again


def card_moved_line(rec: Recommendation, before: dict[str, Any], before_inputs: dict[str, Any],
                    after_inputs: dict[str, Any], lang: str) -> tuple[str, dict[str, Any]] | None:
    """'**The pick moved**: 4 × RTX 5090 → 1 × A800, because …' with its data, or None."""
    from gpu_advisor.assistant.writers import cash, gpu_words

    found = card_moved_code(rec, before, before_inputs, after_inputs)
    if found is None or rec.best is None:
        return None
    code, again = found
    new = rec.best
    old = again or Option.model_validate(before)
    values: dict[str, Any] = {"old": gpu_words(old, lang), "new": gpu_words(new, lang)}
    # (only the way of paying moved: the old setup's own price stands when it is not among the rows shown)
    if code == "rent" and new.usd_per_hour and old.usd_per_hour:
        values |= {"this": cash(new.usd_per_hour, rec), "was": cash(old.usd_per_hour, rec)}
    elif code == "buy" and new.purchase_usd and old.purchase_usd:
        values |= {"this": cash(new.purchase_usd, rec), "was": cash(old.purchase_usd, rec)}
    elif code in ("rent", "buy"):
        code += "_bare"
    elif code == "dearer":
        key = "purchase_usd" if rec.action == "buy" else "job_usd" if new.job_usd is not None and \
            not rec.workload.spec.serves else "usd_per_hour"
        values |= {"this": cash(getattr(new, key), rec), "was": cash(getattr(old, key), rec)}
    line = say(lang, "card_moved.head", old=values["old"], new=values["new"]) + say(lang, f"card_moved.why.{code}", **values)
    return line, {"code": code.removesuffix("_bare"), "old": {"gpu": before["gpu"], "gpus": before.get("gpus")},
                  "new": {"gpu": new.gpu, "gpus": new.gpus}}
