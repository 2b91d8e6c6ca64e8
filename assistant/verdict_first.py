"""One decision per answer: when the user asked to choose between cards, the comparison's winner is the headline.

The plan is first put on the card the comparison picks (assistant.advice._cheaper_of, _named_pick), but the rows
beside a plan are sized against that plan (copies laid out like it), so the rows the reply finally shows can pick the
other card: 'Buy 8 × H100 SXM' over a verdict 'the H100 PCIe: both do the job and it costs less' (review AP E9).
Here the final rows decide once more, with the same rule the written verdict uses (assistant.verdict.pick_among on
assistant.value's basis); when they pick another card, that card's own row becomes the plan and the plan's row
stays a row. The rows themselves do not change, so the written verdict reads the same pick: a fixed point, never
a swing back and forth."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gpu_advisor.tools.recommend import Option, Recommendation


def plan_on_winner(w: Any, rec: Recommendation, rows: list[Option], choice: list[str],
                   pick: Callable[[list[Option]], str | None], asked: str | None) -> tuple[Recommendation, str | None]:
    """The plan on the card the final rows pick among the cards named as a choice (`pick` on those rows); the
    recommendation (and the card asked about) as they were when no choice was asked, the plan is on cards owned, or the rows pick the plan's card."""
    from gpu_advisor.tools.recommend import _action, rent_or_buy_of

    best = rec.best
    if best is None or best.owned or len(choice) < 2 or best.gpu not in choice:
        return rec, asked
    winner = pick(rows)
    row = next((o for o in rows if o.gpu == winner and o.ok and not o.owned), None)
    if winner is None or winner == best.gpu or row is None:
        return rec, asked
    only = {c.split("x ", 1)[-1].strip() for c in getattr(w, "candidates", None) or []}
    if only and winner not in only:
        return rec, asked  # 'only Ascend' / 'replace our 8 A800 with 910B': the plan stays on the cards allowed
    rb = rent_or_buy_of(rec.workload, row)
    options = [row, *(o for o in rec.options if o.gpu != row.gpu)]
    if not any(o.gpu == best.gpu for o in options):
        options.append(best)
    return rec.model_copy(update={"best": row, "options": options, "rent_or_buy": rb,
                                  "action": _action(rec.workload, row, rb)}), row.gpu


def rented_for_value(w: Any, rec: Recommendation, weighed: list[str]) -> Recommendation:
    """'L40S和A100哪个性价比高' with no buying word: the cards named were weighed on what renting them costs (a month at
    the load, a run, a token: assistant.value), so the plan is headed as rented, the way it was weighed; where buying
    would pay off is the rent-or-buy line's to say (review AY #10: '购买 L40S' over a verdict weighed on rent)."""
    best = rec.best
    if best is None or best.owned or rec.action != "buy" or len(weighed) < 2 or best.gpu not in weighed:
        return rec
    if w.preference != "either" or w.personal or w.budget_usd is not None or w.owned or not best.usd_per_hour:
        return rec
    from gpu_advisor.tools.recommend import rent_or_buy_of

    rented = _rented_count(rec, best)
    if rented is best:
        return rec.model_copy(update={"action": "rent"})
    # the rent of the cards the job needs against buying the whole server they come in
    return rec.model_copy(update={"action": "rent", "best": rented, "rent_or_buy": rent_or_buy_of(rec.workload, rented)})


def _rented_count(rec: Recommendation, best: Any) -> Any:
    """Rented, the plan takes the cards the job needs, not the whole server a purchase comes in: the cheapest row of
    the same card that fits and meets every stated target (8 x H200 bought, 4 x H200 rented for 70B at 60 users)."""
    same = [o for o in rec.options if o.gpu == best.gpu and o.ok and not o.owned and not o.avoid
            and o.usd_per_hour is not None and all(o.meets.values())]
    return min(same, key=lambda o: (o.usd_per_hour, o.gpus), default=best)
