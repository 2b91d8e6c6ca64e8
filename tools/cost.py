"""Money: rental price ranges, the cost of a run, the cost per million tokens, rent versus buy."""

from __future__ import annotations

import statistics
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, Field

from gpu_advisor.knowledge import find_gpu, prices, rules
from gpu_advisor.knowledge.schema import Gpu
from gpu_advisor.tools.common import GPU_HELP, REGION_HELP, Explained, ToolError, ToolInput, term

Region = Literal["global", "us", "eu", "china"]
HOURS_PER_MONTH = 730.0

# Defaults for owning a card, each an explicit input the user can change.
DEFAULT_ELECTRICITY_USD_PER_KWH = {"global": 0.15, "us": 0.15, "eu": 0.25, "china": 0.10}
# Server share (CPU, RAM, fans, PSU losses) on top of the card's own board power.
HOST_POWER_FACTOR = 1.3
DEFAULT_HOSTING_USD_PER_GPU_MONTH = 100.0  # rack space, network, a share of the chassis
DEFAULT_HORIZON_MONTHS = 36


class PriceQuote(BaseModel):
    gpu: str
    region: Region
    currency_note: str
    usd_per_gpu_hour_low: float
    usd_per_gpu_hour_typical: float
    usd_per_gpu_hour_high: float
    providers: list[str]
    as_of: str = Field(description="the newest snapshot date among the quotes used")
    samples: int


@lru_cache(maxsize=512)
def price_quote(gpu_query: str, region: Region = "global") -> PriceQuote:
    """Rental $/GPU-hour from the price snapshots: on-demand offers first, in the region if any.

    Typical is the median of the offers' midpoints; CNY prices are converted at the rules' rate.
    """
    gpu = find_gpu(gpu_query)
    r = rules()
    offers = [p for p in prices() if p.gpu == gpu.id]
    if not offers:
        raise ToolError(f"no rental prices on record for {gpu.name}")
    in_region = [p for p in offers if p.region == region] if region != "global" else [
        p for p in offers if p.region != "china"]
    pool = in_region or offers
    on_demand = [p for p in pool if p.kind in ("on-demand", "marketplace")] or pool
    rate = {"USD": 1.0, "CNY": r.usd_per_cny}
    lows = [p.price_low * rate[p.currency] for p in on_demand]
    highs = [p.price_high * rate[p.currency] for p in on_demand]
    mids = [(lo + hi) / 2 for lo, hi in zip(lows, highs, strict=True)]
    note = "USD"
    if any(p.currency == "CNY" for p in on_demand):
        note = f"CNY converted at {r.usd_per_cny} USD per CNY ({r.usd_per_cny_source})"
    return PriceQuote(
        gpu=gpu.id, region=region if in_region else "global", currency_note=note,
        usd_per_gpu_hour_low=min(lows), usd_per_gpu_hour_typical=statistics.median(mids),
        usd_per_gpu_hour_high=max(highs), providers=sorted({p.provider for p in on_demand}),
        as_of=max(p.as_of for p in on_demand).isoformat(), samples=len(on_demand),
    )


def try_price(gpu_id: str, region: Region = "global") -> PriceQuote | None:
    try:
        return price_quote(gpu_id, region)
    except ToolError:
        return None


class OfferSpread(BaseModel):
    """How far a well-sourced card's offers run below its typical price: the margin a price from few offers
    must beat (rules.few_offers_below) to rank ahead of one a market stands behind."""
    spread: float = Field(description="median over the well-sourced cards of (typical - low) / typical")
    cards: list[str] = Field(description="the cards measured: priced from at least rules.well_sourced_offers offers")
    few_offers_below: int
    well_sourced_offers: int


@lru_cache(maxsize=1)
def offer_spread() -> OfferSpread:
    """The spread of rental prices on the cards priced from many offers (global quotes, as price_quote takes
    them): a card priced from one or two offers is ranked as if it cost this share more."""
    r = rules()
    quotes = [q for q in (try_price(g) for g in sorted({p.gpu for p in prices()})) if q is not None]
    well = [q for q in quotes if q.samples >= r.well_sourced_offers and q.usd_per_gpu_hour_typical > 0]
    spreads = [(q.usd_per_gpu_hour_typical - q.usd_per_gpu_hour_low) / q.usd_per_gpu_hour_typical for q in well]
    return OfferSpread(spread=statistics.median(spreads) if spreads else 0.0, cards=[q.gpu for q in well],
                       few_offers_below=r.few_offers_below, well_sourced_offers=r.well_sourced_offers)


def few_offers(samples: int | None) -> bool:
    """Whether a price on record rests on too few offers to stand for a market (rules.few_offers_below)."""
    return samples is not None and samples < rules().few_offers_below


class RentBuyInput(ToolInput):
    gpu: str = Field(description=GPU_HELP)
    gpus: int = Field(1, gt=0, le=1024, description="GPUs rented or bought")
    utilisation: float = Field(0.5, ge=0, le=1, description="share of hours the cards are busy")
    region: Region = Field("global", description=REGION_HELP)
    rent_usd_per_gpu_hour: float | None = Field(None, gt=0, description="default: typical rental price on record")
    rent_usd_per_gpu_month: float | None = Field(None, gt=0, description="a monthly rental instead, paid whether the "
                                                                         "card is busy or not")
    purchase_usd_per_gpu: float | None = Field(None, gt=0, description="default: catalog price of the card")
    power_w: float | None = Field(None, gt=0, description="wall power per GPU under load; default TDP x 1.3")
    electricity_usd_per_kwh: float | None = Field(None, ge=0, description="electricity price in USD per kWh; "
                                                                        "default: the region's typical price")
    hosting_usd_per_gpu_month: float = Field(DEFAULT_HOSTING_USD_PER_GPU_MONTH, ge=0,
                                             description="space, cooling and upkeep per bought GPU per month, in USD")
    horizon_months: int = Field(DEFAULT_HORIZON_MONTHS, gt=0, le=120, description="months the comparison covers")
    resale_fraction: float = Field(0.0, ge=0, lt=1, description="share of the price recovered at the end")
    buy_gpu: str | None = Field(None, description="the card bought instead of the one rented, when the two options "
                                                  "are different cards; default: the same card")
    buy_gpus: int | None = Field(None, gt=0, le=1024, description="cards bought; default: as many as rented")
    buy_utilisation: float | None = Field(None, ge=0, le=1, description="share of hours the bought cards are busy "
                                          "when they take longer (or less) than the rented ones for the same work "
                                          "(a slower card bought); default: utilisation")


class RentBuyResult(Explained):
    gpu: str
    gpus: int
    utilisation: float
    horizon_months: int
    rent_total_usd: float
    buy_total_usd: float
    break_even_utilisation: float | None = Field(description="None: buying never pays off within the horizon "
                                                             "(or the rent is monthly: see break_even_months)")
    break_even_months: float | None = Field(None, description="a monthly rental: months after which owning has "
                                                              "cost less; None when it never does")
    rent_usd_per_gpu_month: float | None = Field(None, description="the monthly rental compared, if it was one")
    payback_months: float | None = Field(None, description="months of owning after which the purchase is paid back "
                                                           "by the rent it saves (rent at this use - hosting - "
                                                           "power); None when owning never saves rent")
    cheaper: Literal["rent", "buy"]
    rule_of_thumb: tuple[float, float]
    buy_gpu: str | None = Field(None, description="the card bought, when it is not the card rented")
    buy_gpus: int | None = Field(None, description="cards bought, when not as many as rented")
    owning_saves: float | None = Field(None, description="share of the rent that owning saves over the horizon "
                                                         "(1 - buy / rent); None when owning costs as much or more")
    rent_usd_per_month: float | None = Field(None, description="renting, a month of it: rent_total_usd / months")


def rent_vs_buy(inp: RentBuyInput) -> RentBuyResult:
    """Rent: price x busy hours. Buy: purchase + hosting + electricity for busy hours - resale.
    Break-even utilisation u* = (purchase - resale + hosting x months) / (hours x (rent - power cost per hour)).
    Two different options ('rent one L20 or buy two 4090s'): the rent of all the cards rented is set against each
    card bought (rent x rented / bought), the bought card's own price and power."""
    gpu: Gpu = find_gpu(inp.gpu)
    bought: Gpu = find_gpu(inp.buy_gpu) if inp.buy_gpu else gpu
    m = inp.buy_gpus or inp.gpus
    share = inp.gpus / m  # rented cards per card bought: 1.0 when both options are the same cards
    r = rules()
    assumptions: list[str] = []
    monthly = inp.rent_usd_per_gpu_month
    if monthly is not None:
        rent = monthly / HOURS_PER_MONTH
    elif inp.rent_usd_per_gpu_hour is None:
        quote = price_quote(gpu.id, inp.region)
        rent = quote.usd_per_gpu_hour_typical
        assumptions.append(f"rent {rent:.2f} USD/GPU-hour: typical of {quote.samples} offers "
                           f"({', '.join(quote.providers)}; newest {quote.as_of})")
        if inp.region == "china" and quote.region != "china":  # a Chinese user is not quoted a US cloud's rent silently
            assumptions.append(f"no provider serving mainland China has a rental price on record for {gpu.name}: "
                               "the rent above is from providers outside China (ask AutoDL, Alibaba Cloud, Volcano Engine or Tencent Cloud)")
    else:
        rent = inp.rent_usd_per_gpu_hour
    purchase = inp.purchase_usd_per_gpu or bought.buy_price_usd
    if purchase is None:
        raise ToolError(f"no purchase price on record for {bought.name}: pass purchase_usd_per_gpu")
    power_kw = (inp.power_w or bought.tdp_w * HOST_POWER_FACTOR) / 1000
    kwh_price = (inp.electricity_usd_per_kwh if inp.electricity_usd_per_kwh is not None
                 else DEFAULT_ELECTRICITY_USD_PER_KWH[inp.region])
    hours = inp.horizon_months * HOURS_PER_MONTH
    busy = hours * inp.utilisation
    owned_busy = inp.utilisation if inp.buy_utilisation is None else inp.buy_utilisation
    n = inp.gpus
    fixed = (purchase * (1 - inp.resale_fraction) + inp.hosting_usd_per_gpu_month * inp.horizon_months) * m
    energy = power_kw * kwh_price * hours * owned_busy * m
    buy_total = fixed + energy
    break_even = break_even_months = payback = None
    if monthly is not None:  # paid every month, busy or not: owning wins after the purchase is paid back
        rent_total = monthly * inp.horizon_months * n
        saved = monthly * share - inp.hosting_usd_per_gpu_month - power_kw * kwh_price * HOURS_PER_MONTH * owned_busy
        break_even_months = purchase * (1 - inp.resale_fraction) / saved if saved > 0 else None
        rent_term = term("rent_total_usd", "Renting over the horizon", rent_total, "USD",
                         "monthly rental x months x GPUs", {"usd_per_gpu_month": monthly,
                                                           "months": inp.horizon_months, "gpus": n})
    else:
        rent_total = rent * busy * n
        saved_month = (rent * share * inp.utilisation - power_kw * kwh_price * owned_busy) * HOURS_PER_MONTH \
            - inp.hosting_usd_per_gpu_month
        payback = purchase * (1 - inp.resale_fraction) / saved_month if saved_month > 0 else None
        slower = owned_busy / inp.utilisation if inp.utilisation else 1.0  # hours owned per hour rented
        margin = rent * share - power_kw * kwh_price * slower
        if margin > 0:
            u = fixed / m / (hours * margin)
            break_even = u if u <= 1 else None
        rent_term = term("rent_total_usd", "Renting over the horizon", rent_total, "USD",
                         "rental price x hours x utilisation x GPUs",
                         {"usd_per_gpu_hour": rent, "hours": hours, "utilisation": inp.utilisation, "gpus": n})
    terms = [
        rent_term,
        term("buy_total_usd", "Owning over the horizon", buy_total, "USD",
             "(purchase x (1 - resale) + hosting x months) x GPUs + power x electricity price x busy hours x GPUs",
             {"purchase_usd_per_gpu": purchase, "resale_fraction": inp.resale_fraction,
              "hosting_usd_per_gpu_month": inp.hosting_usd_per_gpu_month, "months": inp.horizon_months,
              "power_kw": power_kw, "usd_per_kwh": kwh_price,
              **({"gpu": bought.id, "gpus": m} if bought.id != gpu.id or m != n else {})}),
        term("break_even_utilisation", "Break-even utilisation", break_even if break_even is not None else 1.0,
             "fraction", "(purchase x (1 - resale) + hosting x months) / (hours x (rental price - power cost per hour))",
             {"hours": hours, "usd_per_gpu_hour": rent}),
    ]
    lo, hi = r.buy_utilisation_low, r.buy_utilisation_high
    assumptions += [
        f"{inp.horizon_months}-month horizon, {inp.utilisation:.0%} utilisation, resale {inp.resale_fraction:.0%}",
        f"power {power_kw * 1000:.0f} W per GPU at the wall"
        + ("" if inp.power_w else f" (board power x {HOST_POWER_FACTOR})") + f", {kwh_price:.2f} USD/kWh; "
        f"hosting {inp.hosting_usd_per_gpu_month:.0f} USD per GPU-month",
    ]
    warnings = []
    if monthly is not None:
        if break_even_months is None or break_even_months > inp.horizon_months:
            warnings.append("at this monthly rent owning does not pay for itself within the horizon")
    elif break_even is None:
        warnings.append("at this rental price buying never pays off within the horizon")
    elif not lo <= break_even <= hi:
        warnings.append(
            f"the guide's rule of thumb says buy above {lo:.0%}-{hi:.0%} utilisation; with these prices the "
            f"arithmetic puts the line at {break_even:.0%}. The rule holds when purchase plus hosting is about "
            f"{lo:.0%}-{hi:.0%} of what renting around the clock would cost over the horizon")
    return RentBuyResult(
        gpu=gpu.id, gpus=n, utilisation=inp.utilisation, horizon_months=inp.horizon_months,
        rent_total_usd=rent_total, buy_total_usd=buy_total, break_even_utilisation=break_even,
        break_even_months=break_even_months, rent_usd_per_gpu_month=monthly,
        payback_months=break_even_months if monthly is not None else payback,
        cheaper="buy" if buy_total < rent_total else "rent", rule_of_thumb=(lo, hi),
        rent_usd_per_month=rent_total / inp.horizon_months,
        buy_gpu=bought.id if bought.id != gpu.id else None, buy_gpus=m if m != n else None,
        owning_saves=1 - buy_total / rent_total if 0 < buy_total < rent_total else None,
        terms=terms, assumptions=assumptions, warnings=warnings,
    )


class CostInput(ToolInput):
    gpu: str = Field(description=GPU_HELP)
    gpus: int = Field(1, gt=0, le=1024, description="GPUs rented")
    region: Region = Field("global", description=REGION_HELP)
    hours: float | None = Field(None, gt=0, description="length of a run, for its cost")
    tokens_per_s: float | None = Field(None, gt=0, description="aggregate generated tokens/s, for $ per million tokens")
    utilisation: float = Field(1.0, gt=0, le=1, description="share of paid hours spent generating")
    usd_per_gpu_hour: float | None = Field(None, gt=0, description="rental price per GPU-hour in USD; default: "
                                                                   "the typical price on record for the region")


class CostResult(Explained):
    gpu: str
    gpus: int
    usd_per_hour: float
    usd_per_hour_range: tuple[float, float]
    run_usd: float | None = None
    usd_per_million_tokens: float | None = None


def cost(inp: CostInput) -> CostResult:
    gpu = find_gpu(inp.gpu)
    assumptions: list[str] = []
    if inp.usd_per_gpu_hour:
        low = typ = high = inp.usd_per_gpu_hour
    else:
        q = price_quote(gpu.id, inp.region)
        low, typ, high = q.usd_per_gpu_hour_low, q.usd_per_gpu_hour_typical, q.usd_per_gpu_hour_high
        assumptions.append(f"{gpu.name}: {low:.2f}-{high:.2f} USD/GPU-hour across {q.samples} offers "
                           f"({', '.join(q.providers)}), typical {typ:.2f}; prices as of {q.as_of}; {q.currency_note}")
    n = inp.gpus
    terms = [term("usd_per_hour", "Rental per hour", typ * n, "USD/h", "typical price per GPU-hour x GPUs",
                  {"usd_per_gpu_hour": typ, "gpus": n})]
    res = CostResult(gpu=gpu.id, gpus=n, usd_per_hour=typ * n, usd_per_hour_range=(low * n, high * n),
                     terms=terms, assumptions=assumptions)
    if inp.hours:
        res.run_usd = typ * n * inp.hours
        res.terms.append(term("run_usd", "Cost of the run", res.run_usd, "USD", "USD per hour x hours",
                          {"usd_per_hour": typ * n, "hours": inp.hours}, rel_low=1 - low / typ, rel_high=high / typ - 1))
    if inp.tokens_per_s:
        res.usd_per_million_tokens = typ * n / (inp.tokens_per_s * 3600 * inp.utilisation) * 1e6
        res.terms.append(term("usd_per_million_tokens", "Cost per million generated tokens", res.usd_per_million_tokens,
                          "USD", "USD per hour / (tokens per second x 3600 x utilisation) x 10^6",
                          {"usd_per_hour": typ * n, "tokens_per_s": inp.tokens_per_s, "utilisation": inp.utilisation},
                          rel_low=1 - low / typ, rel_high=high / typ - 1))
    return res


class ReservedInput(ToolInput):
    """Two rental prices for the same cards: on demand (paid for the hours used) and reserved (paid for
    every hour of the term, busy or not)."""

    gpu: str
    gpus: int = Field(1, gt=0, le=4096)
    on_demand_usd_per_gpu_hour: float = Field(gt=0)
    reserved_usd_per_gpu_hour: float = Field(gt=0)
    utilisation: float = Field(1.0, gt=0, le=1, description="share of hours the cards are needed")
    term_months: int = Field(12, gt=0, le=60, description="the reservation's length")


class ReservedResult(Explained):
    gpu: str
    gpus: int
    utilisation: float
    term_months: int
    on_demand_usd_per_month: float
    reserved_usd_per_month: float
    on_demand_term_usd: float
    reserved_term_usd: float
    break_even_utilisation: float = Field(description="above this share of hours in use, the reservation is cheaper")
    cheaper: Literal["reserved", "on_demand"]
    saving_fraction: float = Field(description="what the cheaper one saves, as a share of the dearer one")


def reserved_vs_on_demand(inp: ReservedInput) -> ReservedResult:
    """On demand costs rate x GPUs x hours x utilisation a month; a reservation costs its rate x GPUs x every
    hour. The reservation pays off above utilisation u* = reserved rate / on-demand rate."""
    gpu = find_gpu(inp.gpu)
    hours = HOURS_PER_MONTH * inp.gpus
    on_demand = inp.on_demand_usd_per_gpu_hour * hours * inp.utilisation
    reserved = inp.reserved_usd_per_gpu_hour * hours
    cheaper: Literal["reserved", "on_demand"] = "reserved" if reserved < on_demand else "on_demand"
    saving = 1 - min(on_demand, reserved) / max(on_demand, reserved)
    break_even = min(1.0, inp.reserved_usd_per_gpu_hour / inp.on_demand_usd_per_gpu_hour)
    values = {"gpus": inp.gpus, "hours_per_month": HOURS_PER_MONTH, "utilisation": inp.utilisation}
    terms = [
        term("on_demand_usd_per_month", "On demand, per month", on_demand, "USD",
             "on-demand price x GPUs x hours per month x utilisation",
             {**values, "usd_per_gpu_hour": inp.on_demand_usd_per_gpu_hour}),
        term("reserved_usd_per_month", "Reserved, per month", reserved, "USD",
             "reserved price x GPUs x hours per month (every hour, busy or not)",
             {**values, "usd_per_gpu_hour": inp.reserved_usd_per_gpu_hour}),
        term("break_even_utilisation", "Reservation pays off above", break_even, "fraction",
             "reserved price / on-demand price",
             {"reserved": inp.reserved_usd_per_gpu_hour, "on_demand": inp.on_demand_usd_per_gpu_hour}),
    ]
    assumptions = [f"{HOURS_PER_MONTH:g} hours a month; a reservation is paid for every hour of its "
                   f"{inp.term_months}-month term; on demand only for the hours used ({inp.utilisation:.0%})",
                   f"{gpu.name}: the prices you gave"]
    return ReservedResult(gpu=gpu.id, gpus=inp.gpus, utilisation=inp.utilisation, term_months=inp.term_months,
                          on_demand_usd_per_month=on_demand, reserved_usd_per_month=reserved,
                          on_demand_term_usd=on_demand * inp.term_months, reserved_term_usd=reserved * inp.term_months,
                          break_even_utilisation=break_even, cheaper=cheaper, saving_fraction=saving, terms=terms,
                          assumptions=assumptions)


class RentBuyRule(BaseModel):
    """Rent or buy with no price on record (a card sold by quote: Ascend 910B, Atlas servers): the guide's rule
    of thumb on utilisation, and which way the use said leans, until the user's quotes give the exact line."""
    low: float = Field(description="buying pays off above about this share of the hours busy (rules)")
    high: float
    horizon_months: int
    utilisation: float
    lean: Literal["rent", "buy", "either"] = Field(description="below low: rent; above high: buy; between: either")


def rent_buy_rule(utilisation: float, horizon_months: int = DEFAULT_HORIZON_MONTHS) -> RentBuyRule:
    """The rule of thumb (rules.buy_utilisation_low/high) applied to the utilisation said; the exact break-even is
    (purchase + hosting x months) / (months x hours a month x (rent per hour - power per hour)) once priced."""
    r = rules()
    lo, hi = r.buy_utilisation_low, r.buy_utilisation_high
    lean: Literal["rent", "buy", "either"] = "rent" if utilisation < lo else "buy" if utilisation > hi else "either"
    return RentBuyRule(low=lo, high=hi, horizon_months=horizon_months, utilisation=utilisation, lean=lean)
