"""'how many L4s do we need, and is it cheaper on L40S?' when no count of the cards named meets the job: that said
first, with why (an end-to-end target no count reaches: one request's time is its first token plus each output
token at the card's own speed, which more cards do not shorten), in place of 'you need' cards never asked about."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.choice_rows import asked_choice
from gpu_advisor.assistant.writers import cash, gpu_words


def unmet_count_line(answer: Any, lang: str) -> str | None:
    """The lines for the cards named when none of them meets the job and the plan is on another card; None when
    one of them does (or the plan is on one of them)."""
    from gpu_advisor.knowledge import find_gpu

    rec = answer.recommend
    best = rec.best
    choice = asked_choice(answer.named) or [str(g) for _n, g in answer.named]
    if not choice or best is None or best.owned or rec.workload is None or best.gpu in choice:  # its headline says
        return None
    rows = {o.gpu: o for o in answer.options if not o.owned}
    sized = [rows[g] for g in choice if g in rows]
    if not sized or any(o.ok for o in sized):
        return None
    w = rec.workload
    lines = []
    for o in sized:
        name = find_gpu(o.gpu).name
        if o.meets.get("e2e") is False and o.e2e_s and o.e2e_tpot_s and w.e2e_ms:
            lines.append(say(lang, "unmet.e2e", card=name, target=f"{w.e2e_ms / 1000:,.1f}", secs=f"{o.e2e_s:,.1f}",
                             tokens=f"{o.e2e_output_tokens or 0:,}", ms=f"{o.e2e_tpot_s * 1000:,.0f}"))
        else:
            lines.append(say(lang, "unmet.none", card=name))
    after = [say(lang, "unmet.why")] if any(o.meets.get("e2e") is False for o in sized) else []
    if best.ok and best.gpu not in choice:
        hour = cash(best.usd_per_hour, rec) if best.usd_per_hour else "-"
        after.append(say(lang, "unmet.instead", option=gpu_words(best, lang), hour=hour))
    return "\n".join(f"- {x}" for x in lines) + "".join(f"\n\n{x}" for x in after)
