"""'A or B?' with a job: one sizing per card asked about feeds the table, the comparison and the verdict, and the
headline names the cards asked (review ZA C8, E9).

- The row of each card asked about (assistant.advice._compared: on a rate plan sized for the rate) is that card's
  only row: the plan's own table drops any other row of the same card, so '1 × H20: no layout of up to 128 sustains
  it' never stands beside '8 × H20: yes'.
- On a rate plan the comparison lines (assistant.inform) read those rows as they are, even one that falls short;
  they never size the card again on another path ('4 × MI300X fits at 112 tokens/s' beside '24 × MI300X does not').
- When none of the cards asked does the job, the headline says so about them ('H20 and 910B for serving: neither
  sustains 20 requests a second on any layout of up to 128 cards each'), never about a card nobody asked for."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say


def rated_plan(results: dict[str, Any] | None) -> bool:
    """Whether the answer is a rate plan (a request rate sized with the queueing model)."""
    rec = (results or {}).get("recommend") or {}
    traffic = rec.get("traffic") or {}
    return bool(traffic.get("replicas") and ((results or {}).get("inputs") or {}).get("requests_per_s"))


def asked_choice(named: list[list[Any]]) -> list[str]:
    """The cards named as a choice ('A or B', 'A还是B'), in the order said: two or more, no count said with any."""
    cards = [str(g) for count, g in named if not count]
    return cards if len(cards) >= 2 and len(cards) == len(named) else []


def one_row_per_card(planned: list[Any], asked_rows: list[Any], choice: list[str], best: Any) -> list[Any]:
    """The plan's own rows less those of a card asked about as a choice that has its own row (kept: the plan)."""
    own = {o.gpu for o in asked_rows if o.gpu in choice}
    return [o for o in planned if o is best or o.gpu not in own]


def neither_headline(answer: Any, lang: str) -> str | None:
    """The headline when none of the cards asked about as a choice does the job and the plan is on another card;
    None otherwise (the plan's own headline stands)."""
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.tools.scale import MAX_SERVING_GPUS

    choice = asked_choice(answer.named)
    rec = answer.recommend
    best = rec.best
    if not choice or (best is not None and (best.gpu in choice or best.owned)):
        return None
    rows = {o.gpu: o for o in answer.options if not o.owned}
    if any(g not in rows or rows[g].ok for g in choice):
        return None
    cards = say(lang, "info.and").join(find_gpu(g).name for g in choice)
    job = say(lang, f"job.{rec.workload.phase}")
    w = rec.workload
    rated = bool(rec.traffic is not None and rec.traffic.replicas and w.requests_per_s)
    if rated:
        return "## " + say(lang, "head.neither_asked_rate", cards=cards, job=job, rate=f"{w.requests_per_s:,.3g}",
                           max=f"{w.max_gpus or MAX_SERVING_GPUS:,}")
    return "## " + say(lang, "head.neither_asked", cards=cards, job=job)
