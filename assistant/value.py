"""What 'better value', '划算', '性价比', 'cheaper', 'worth it' are weighed on: what THIS user pays for THEIR job.

The basis (a typed code the writers name in the verdict, catalog keys verdict.basis.*):
- run: a job that ends (a fine-tuning run, a batch job): the cost of one run, hours x price (Option.job_usd).
- month: a service whose load is known (people at once stated, a request rate, a population): what a month of the
  count that serves that load at its per-user speed costs (only options that meet every requirement are weighed).
- token_full: a service with no load known: the cost per million tokens at full load, each option holding as many
  people as it serves within its limits (tools.capacity), its rent over what it then generates (tools.cost). The
  answer says it is at full load and asks for the load.
- buy: cards the user buys (buying said, or one person's own machine) with every working option's purchase price on
  record: what buying each costs (review AL 5: 'rtx pro 6000 or 2x 5090s, hobby use').
A price from few offers (rules.few_offers_below) counts dearer by the spread of well-sourced prices (tools.cost
.offer_spread), as the recommend tool ranks it: a single-offer card never wins on cost by less than that spread."""

from __future__ import annotations

from functools import partial
from typing import Any

from gpu_advisor.tools.recommend import Option, Workload

BASES = ("run", "month", "token_full", "buy")


def load_known(w: Workload) -> bool:
    """Whether the user gave the service's load: people at once (not a default), a request rate, a population."""
    return bool(w.requests_per_s or w.population or "users" not in (w.flexible or []))


def basis_of(w: Workload) -> str:
    """The basis value is weighed on for this workload (BASES)."""
    if not w.spec.serves or w.spec.trains:
        return "run"
    return "month" if load_known(w) else "token_full"


# Full load is weighed up to one server of cards: a card whose fewest count holds the model with little room for
# the KV cache (one H20 for a 72B model) is saturated on more of it, as an expert would run it busy.
FULL_LOAD_MAX_GPUS = 8


def full_load(o: Option, w: Workload, recorder: Any = None) -> tuple[float, int, int, float] | None:
    """(cost per million tokens, people at once, cards, tokens/s) with the option's card at full load: on its count and each
    doubling up to FULL_LOAD_MAX_GPUS, the most people at once the cards serve within the workload's limits
    (tools.capacity), priced on its own rent (tools.cost); the count that costs least per token. None without a
    price."""
    from gpu_advisor.assistant.advice import _call
    from gpu_advisor.tools.capacity import capacity
    from gpu_advisor.tools.cost import CostInput, cost

    if not o.usd_per_hour or o.owned or not o.precision:
        return None
    per_card = o.usd_per_hour / o.gpus
    best: tuple[float, int, int, float] | None = None
    n = o.gpus
    while n <= max(o.gpus, FULL_LOAD_MAX_GPUS):
        args = {"workload": w.model_dump(mode="json"), "gpu": o.gpu, "gpus": n, "precision": o.precision}
        cap = _call(recorder, "capacity", args, partial(capacity, w, o.gpu, n, precision=o.precision))
        top = cap.at_limit
        if top is not None and top.aggregate_tokens_per_s:
            inp = CostInput(gpu=o.gpu, gpus=n, tokens_per_s=top.aggregate_tokens_per_s, usd_per_gpu_hour=per_card)
            r = _call(recorder, "cost", inp.model_dump(mode="json"), partial(cost, inp))
            if r.usd_per_million_tokens and (best is None or r.usd_per_million_tokens < best[0]):
                best = (r.usd_per_million_tokens, cap.users, n, top.aggregate_tokens_per_s)
        n *= 2
    return best


def value_costs(options: list[Option], w: Workload, recorder: Any = None) -> dict[str, Any]:
    """The basis and each working option's cost on it (by card id), with the cards and people at once each card
    is weighed on at full load (token_full only). An option without a figure on the basis is left out of `costs`."""
    basis = basis_of(w)
    working = [o for o in options if o.ok and not o.owned]
    if (w.preference == "buy" or (w.personal and w.preference == "either")) and len(working) >= 2 \
            and all(o.purchase_usd for o in working):
        return {"basis": "buy", "costs": {o.gpu: float(o.purchase_usd or 0) for o in working}, "held": {}}
    costs: dict[str, float] = {}
    held: dict[str, list[int]] = {}
    for o in options:
        if not o.ok or o.owned:
            continue
        if basis == "run":
            v = o.job_usd
        elif basis == "month":
            v = o.billed_usd_per_month
        else:
            full = full_load(o, w, recorder)
            v = full[0] if full else None
            if full:
                held[o.gpu] = [full[2], full[1]]  # cards, people at once
        if v:
            costs[o.gpu] = v
    return {"basis": basis, "costs": costs, "held": held}


def marked(cost: float, offers: int | None) -> float:
    """A cost as ranked: a price from few offers counts dearer by the well-sourced spread."""
    from gpu_advisor.tools.cost import few_offers, offer_spread

    return cost * (1 + offer_spread().spread) if few_offers(offers) else cost


def clearly_cheaper(lo: float, lo_offers: int | None, hi: float, hi_offers: int | None, margin: float) -> bool:
    """Whether the cost `lo` is cheaper than `hi` as the reply prints them (lo below hi) and by more than `margin`
    with a price from few offers marked dearer (marked): never 'cheaper' for the card whose printed figure is the
    higher one (review AY #10: ¥11,367 'cheaper' than ¥10,264 from one offer)."""
    return lo < hi and marked(hi, hi_offers) > margin * marked(lo, lo_offers)
