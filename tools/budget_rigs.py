"""The biggest model a budget buys or rents, no card and no model named ('what's the biggest model i can run
locally on a $3000 budget', '3000美元预算，本地最大能跑多大的模型', '$300 a month'): the rigs the money pays for,
each with the largest catalog model it holds (tools.largest), ranked by that model's size, then by the size
bound (room left), then by price.

- A one-off budget buys: the cards people buy to run models at home (tools.recommend.HOME_BUYING), the
  workstation card sold singly (BUYING_SERVER) and the Macs the catalog prices, each at as many cards as one
  machine of its kind takes (rules.host_systems), priced as a plan prices them (tools.recommend.evaluate: the
  used price where used is accepted, or where the card is no longer sold new (knowledge used_prices
  `used_only`); the computer around consumer cards only when the user has none).
- A monthly budget rents: each card on record with a rent in the region, at the most cards (1, 2, 4, 8) whose
  typical hourly rent x the month's hours (730, or the share said) fits.

Weights in 4-bit (a GGUF Q4_K_M file on desktop cards and Macs, INT4 on server cards) unless a format is said;
fine-tuning: the largest model QLoRA trains. Memory decides; each rig's single-user speed is reported."""

from __future__ import annotations

from functools import cache

from pydantic import BaseModel, Field

from gpu_advisor.knowledge import find_gpu, gpus, rules, used_prices
from gpu_advisor.knowledge.schema import Gpu
from gpu_advisor.tools.cost import HOURS_PER_MONTH, few_offers, try_price
from gpu_advisor.tools.largest import FOUR_BIT, Largest, largest
from gpu_advisor.tools.recommend import (
    BUYING_SERVER,
    COUNTS,
    HOME_BUYING,
    Workload,
    evaluate,
    software_risk_unasked,
)

MOST_RIGS = 4  # card rigs shown; the Mac within the budget that holds the largest model is shown beside them
TRAIN_METHOD = "qlora"  # what a budget's fine-tuning question is sized with: the method that holds the largest model


class Rig(BaseModel):
    """One card x count the budget pays for, and the largest catalog model it holds."""

    gpu: str
    gpus: int
    buy: bool = Field(description="bought (a one-off budget) rather than rented (a monthly one)")
    used: bool = Field(False, description="priced at its used price (knowledge used_prices)")
    usd: float = Field(description="bought: the purchase; rented: a month at the hours counted")
    usd_per_gpu_hour: float | None = Field(None, description="rented: the typical rent of one card")
    offers: int | None = Field(None, description="rented: the offers the rent rests on")
    few_offers: bool = Field(False, description="rented: too few offers to stand for a market (rules.few_offers_below)")
    host_usd: float | None = Field(None, description="bought: the computer around the cards, included in usd")
    whole_computer: bool = Field(False, description="the price is a whole computer (a Mac)")
    model: str = Field(description="the largest catalog model it holds (a MoE by its total parameters)")
    params_b: float
    active_params_b: float | None = None
    precision: str | None = None
    decode_tokens_per_s: float | None = Field(None, description="serving: each user's tokens/s on that model")
    per_gpu_gb: float
    capacity_gb: float
    dense_model: str | None = Field(None, description="the largest dense model it holds, when the largest is a MoE")
    dense_params_b: float | None = None
    dense_tokens_per_s: float | None = None
    size_b: float = Field(description="tools.largest's size bound: the largest dense size that fits")


class BudgetRigs(BaseModel):
    """The rigs a budget buys or rents, the one that holds the largest model first (ties: the cheaper)."""

    budget_usd: float
    monthly: bool
    hours_per_month: float | None = Field(None, description="rented: the hours a month counted")
    trains: bool
    method: str | None = None
    precision: str | None = Field(None, description="the weight format said (None: 4-bit per card)")
    used_said: bool = Field(False, description="used cards accepted by the user")
    has_host: bool = Field(True, description="bought consumer cards go into a computer the user has")
    pc_usd: float = Field(description="a desktop PC for up to two cards (rules.host_systems), were one needed")
    context: int
    users: int = Field(1, description="serving: the users at once each rig is sized for (their KV cache held)")
    seq_len: int
    rigs: list[Rig]


def _format(w: Workload, gpu: Gpu) -> str:
    return w.serve_precision or (FOUR_BIT[0] if gpu.segment in ("consumer", "workstation", "apple") else FOUR_BIT[1])


def _holding(r: Largest) -> tuple[float, ...] | None:
    """The largest catalog model in `r` first, then the largest dense one (None: nothing fits)."""
    if not r.examples:
        return None
    return max(e.params_b for e in r.examples), r.params_b


def _rig(w: Workload, gpu: Gpu, n: int, buy: bool, usd: float, **priced: object) -> Rig | None:
    r = largest(w, gpu.id, n, method=TRAIN_METHOD if w.spec.trains else None,
                precision=None if w.spec.trains else _format(w, gpu))
    if _holding(r) is None:
        return None
    top = max(r.examples, key=lambda e: (e.params_b, e.active_params_b is None))
    dense = next((e for e in r.examples if e.active_params_b is None), None) if top.active_params_b else None
    return Rig(gpu=gpu.id, gpus=n, buy=buy, usd=round(usd, 2), model=top.model, params_b=top.params_b,
               active_params_b=top.active_params_b, precision=top.precision,
               decode_tokens_per_s=top.decode_tokens_per_s, per_gpu_gb=top.per_gpu_gb, capacity_gb=r.capacity_gb,
               dense_model=dense.model if dense else None, dense_params_b=dense.params_b if dense else None,
               dense_tokens_per_s=dense.decode_tokens_per_s if dense else None, size_b=r.params_b,
               **priced)


def _bought(w: Workload, cap: float) -> list[Rig]:
    sold_used = [g for g, p in used_prices().items() if p.used_only]
    priced = w.model_copy(update={"used_ok": True, "used_cards": None if w.used_ok else sold_used,
                                  "phase": "serve", "budget_usd": None})
    ids = list(dict.fromkeys([*HOME_BUYING, *BUYING_SERVER,
                              *(g.id for g in gpus() if g.segment == "apple" and g.buy_price_usd)]))
    found = []
    for gpu in map(find_gpu, ids):
        most = rules().host_systems[gpu.host_kind].gpus
        for n in (c for c in COUNTS if c <= most):
            o = evaluate(priced, gpu, n)
            if o is None or o.purchase_usd is None or o.purchase_usd > cap:
                continue
            rig = _rig(w, gpu, n, True, o.purchase_usd, used=o.used_price, host_usd=o.host_usd,
                       whole_computer=gpu.host_kind == "apple")
            if rig is not None:
                found.append(rig)
    return found


def _rented(w: Workload, cap: float, hours: float) -> list[Rig]:
    found = []
    for gpu in gpus():
        quote = try_price(gpu.id, w.region)
        if quote is None or gpu.laptop or (few_offers(quote.samples) and software_risk_unasked(w, gpu)):
            continue
        each = quote.usd_per_gpu_hour_typical * hours
        n = max((c for c in COUNTS if c * each <= cap), default=None)
        if n is None:
            continue
        rig = _rig(w, gpu, n, False, n * each, usd_per_gpu_hour=quote.usd_per_gpu_hour_typical,
                   offers=quote.samples, few_offers=few_offers(quote.samples))
        if rig is not None:
            found.append(rig)
    return found


def _rank(r: Rig) -> tuple[float, float, float, int, str]:
    """The largest catalog model held first; of two holding the same one, the larger size bound (more room: one
    5090 before two 16 GB cards), then the cheaper."""
    return -r.params_b, -r.size_b, r.usd, r.gpus, r.gpu


def _ranked(found: list[Rig], most: int) -> list[Rig]:
    """One count a card (the one holding the largest model, then the cheaper): the `most` card rigs that hold the
    largest models, ties by price, and the Mac that holds the largest beside them."""
    best: dict[str, Rig] = {}
    for r in sorted(found, key=_rank):
        best.setdefault(r.gpu, r)
    ranked = list(best.values())
    shown = [r for r in ranked if not r.whole_computer][:most] + [r for r in ranked if r.whole_computer][:1]
    return sorted(shown, key=_rank)


@cache
def _cached(raw: str, hours: float, most: int) -> BudgetRigs:
    w = Workload.model_validate_json(raw)
    monthly = w.budget_usd_per_month is not None
    budget = float((w.budget_usd_per_month if monthly else w.budget_usd) or 0)
    cap = budget * (1 + w.budget_leeway / 100)
    found = _rented(w, cap, hours) if monthly else _bought(w, cap)
    return BudgetRigs(budget_usd=budget, monthly=monthly, hours_per_month=hours if monthly else None,
                      trains=w.spec.trains, method=TRAIN_METHOD if w.spec.trains else None,
                      precision=None if w.spec.trains else w.serve_precision, used_said=w.used_ok,
                      has_host=w.has_host, pc_usd=rules().host_systems["consumer"].usd, context=w.context,
                      users=1 if w.spec.trains else (w.users or 1),
                      seq_len=w.seq_len, rigs=_ranked(found, most))


def budget_rigs(w: Workload, hours_per_month: float = HOURS_PER_MONTH, most: int = MOST_RIGS) -> BudgetRigs:
    """The rigs `w`'s budget (budget_usd: bought; budget_usd_per_month: rented for `hours_per_month`) pays for,
    each with the largest catalog model it serves (w.serve_precision, else 4-bit) or fine-tunes with QLoRA (a
    training phase), for w.users at once (one when unsaid) at w.context. Deterministic: the same workload gives the same rigs."""
    if not (w.budget_usd or w.budget_usd_per_month):
        raise ValueError("a budget is needed: budget_usd (bought) or budget_usd_per_month (rented)")
    return _cached(w.model_dump_json(), round(hours_per_month, 1), most).model_copy(deep=True)
