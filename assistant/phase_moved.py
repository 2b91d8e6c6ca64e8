"""The machines a comparison weighed, after the job changes ('is a Mac better than 2x 3090 for running it?', then
'and for fine-tuning it?', review CM #6).

- The machines named are the user's candidates: each is sized for the new job at the count said with it (2 × 3090,
  never a larger count nobody named) and the reply says of each whether it does the new job and how fast.
- The plan stays on one of them only when it does the job well: it fits, and a run ends within a working day
  (tools.recommend.LONG_JOB_HOURS) or takes at most SLOWER_THAN_OPEN times the open market's plan. When none does,
  the plan is the one the recommend tool finds among all cards (a rented H100 for a QLoRA of gpt-oss-120b), the
  candidates rows beside it.
- A card with no rental offer is never headed 'rent' (tools.recommend._action): a Mac is bought, or not the plan."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import localise, say

# A candidate whose run takes more than this many times the open market plan's (and more than a working day) does
# not do the job well: a day and more on the Mac against a few hours rented.
SLOWER_THAN_OPEN = 2.0


def phase_moved(previous: dict[str, Any], inputs: dict[str, Any]) -> bool:
    """Whether the job changed since the plan before (serving, then fine-tuning): its phase moved."""
    before = (previous.get("inputs") or {}).get("phase")
    return bool(previous.get("recommend")) and before is not None and before != inputs.get("phase")


def does_well(o: Any, open_best: Any) -> bool:
    """A candidate's row does the job well: it fits and meets the job, and a run (a training or batch job) ends
    within a working day or within SLOWER_THAN_OPEN times the open market plan's run."""
    from gpu_advisor.tools.recommend import LONG_JOB_HOURS

    if not o.ok:
        return False
    if o.job_hours is None or o.job_hours <= LONG_JOB_HOURS:
        return True
    return open_best is not None and open_best.job_hours is not None \
        and o.job_hours <= open_best.job_hours * SLOWER_THAN_OPEN


def beyond_candidates(w: Any, rec: Any, open_rec: Any, rows: list[Any], named: list[str]) -> list[str]:
    """The candidates weighed before a phase change when none does the new job well and the open market's plan does
    (the plan then goes beyond them); [] when the plan stays as it is (one of them does it well, cards of one's own,
    no open plan that does the job, or the plan is not on a candidate)."""
    best, open_best = rec.best, open_rec.best
    mine = [o for o in rows if o.gpu in named and not o.owned]
    if w.owned or best is None or best.owned or best.gpu not in named or not mine:
        return []
    if open_best is None or not open_best.ok or open_best.owned or open_best.gpu in named:
        return []
    if any(does_well(o, open_best) for o in mine):
        return []
    return [o.gpu for o in mine]


def plan_beyond(w: Any, previous: dict[str, Any], inputs: dict[str, Any], said: list[str], rec: Any, open_rec: Any,
                rows: list[Any], named: list[list[Any]], asked: str | None) -> tuple[Any, str | None, list[str]]:
    """The plan, the card asked about and the candidates gone beyond: the open market's plan (nothing asked) when
    the job moved, no card was named this turn and none of the machines named before does the new job well; else
    as they were."""
    if said or not phase_moved(previous, inputs):
        return rec, asked, []
    beyond = beyond_candidates(w, rec, open_rec, rows, [str(g) for _c, g in named])
    return (open_rec, None, beyond) if beyond else (rec, asked, [])


def beyond_lines(answer: Any, lang: str) -> list[str]:
    """What each candidate does on the new job (fits, how fast; or why not), then why the plan goes beyond them."""
    from gpu_advisor.assistant.writers import gpu_words, hours, tps

    if not answer.beyond or answer.recommend.best is None:
        return []
    rec = answer.recommend
    lines = [say(lang, "beyond.intro")]
    for o in (o for o in answer.options if o.gpu in answer.beyond):
        if o.ok and o.job_hours is not None:
            via = say(lang, "beyond.via_mlx") if (o.runtime or "").startswith("MLX") else ""
            lines.append(say(lang, "beyond.runs", option=gpu_words(o, lang), via=via, hours=hours(o.job_hours)))
        elif o.ok:
            lines.append(say(lang, "beyond.serves", option=gpu_words(o, lang), tps=tps(o.decode_tokens_per_s or 0)))
        else:
            reason = localise(lang, o.reasons[0]) if o.reasons else say(lang, "beyond.no_reason")
            lines.append(say(lang, "beyond.short", option=gpu_words(o, lang), reason=reason))
    best = rec.best
    code = "beyond.plan_run" if best.job_hours is not None else "beyond.plan"
    lines.append(say(lang, code, option=gpu_words(best, lang), hours=hours(best.job_hours or 0)))
    return ["\n".join(lines), ""]
