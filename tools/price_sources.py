"""Where a card's rental price comes from: each offer on record (provider, offering, price, date, source)
and, per region, the distribution the advisor prices on (median of the offers' midpoints, low, high, how
many offers), as tools.cost.price_quote takes it (`gpu-advisor gpus show ID`)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from gpu_advisor.knowledge import find_gpu, prices, rules
from gpu_advisor.tools.cost import few_offers, try_price

REGIONS = ("global", "us", "eu", "china")  # "global": every offer outside China, as price_quote reads it


class RegionPrice(BaseModel):
    region: str
    usd_per_gpu_hour_median: float
    usd_per_gpu_hour_low: float
    usd_per_gpu_hour_high: float
    offers: int
    few_offers: bool = Field(description="too few offers to stand for a market (rules.few_offers_below)")
    as_of: str = Field(description="the newest snapshot date among the offers")
    providers: list[str]


class Offer(BaseModel):
    provider: str
    region: str
    offering: str
    kind: str
    price_low: float
    price_high: float
    currency: str
    usd_per_gpu_hour_low: float
    usd_per_gpu_hour_high: float
    as_of: str
    source: str


class PriceSources(BaseModel):
    gpu: str
    regions: list[RegionPrice]
    offers: list[Offer]
    currency_note: str


def price_sources(gpu_query: str) -> PriceSources:
    """Every rental offer on record for a card, and the per-region distribution priced on; empty lists when
    none is on record."""
    gpu = find_gpu(gpu_query)
    r = rules()
    rate = {"USD": 1.0, "CNY": r.usd_per_cny}
    offers = [Offer(provider=p.provider, region=p.region, offering=p.offering, kind=p.kind, price_low=p.price_low,
                    price_high=p.price_high, currency=p.currency, usd_per_gpu_hour_low=p.price_low * rate[p.currency],
                    usd_per_gpu_hour_high=p.price_high * rate[p.currency], as_of=p.as_of.isoformat(), source=p.source)
              for p in prices() if p.gpu == gpu.id]
    offers.sort(key=lambda o: (o.region, o.usd_per_gpu_hour_low, o.provider))
    regions = []
    for region in REGIONS:
        there = [o for o in offers if (o.region != "china" if region == "global" else o.region == region)]
        q = try_price(gpu.id, region) if there else None  # type: ignore[arg-type]
        if q is None:
            continue  # no offer there: price_quote would fall back to another region's
        regions.append(RegionPrice(region=region, usd_per_gpu_hour_median=q.usd_per_gpu_hour_typical,
                                   usd_per_gpu_hour_low=q.usd_per_gpu_hour_low,
                                   usd_per_gpu_hour_high=q.usd_per_gpu_hour_high, offers=q.samples,
                                   few_offers=few_offers(q.samples), as_of=q.as_of, providers=q.providers))
    note = f"CNY converted at {r.usd_per_cny} USD per CNY as of {r.usd_per_cny_as_of} ({r.usd_per_cny_source})"
    return PriceSources(gpu=gpu.id, regions=regions, offers=offers,
                        currency_note=note if any(o.currency == "CNY" for o in offers) else "USD")
