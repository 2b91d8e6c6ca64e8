"""A model maker's own API list prices (data/api_prices.yaml): per million input and output tokens, USD, dated, so
self-hosting can be weighed against the API at a price on record when the user gives none."""

from __future__ import annotations

from functools import cache

from pydantic import Field

from gpu_advisor.knowledge.loader import DATA_DIR, load_records
from gpu_advisor.knowledge.schema import Record


class ApiPrice(Record):
    """One API's list price: the models it serves, per million tokens read (cache miss) and written."""

    id: str
    provider: str
    models: list[str] = Field(min_length=1)
    usd_per_million_input: float = Field(gt=0)
    usd_per_million_output: float = Field(gt=0)


@cache
def api_prices() -> tuple[ApiPrice, ...]:
    return tuple(load_records(DATA_DIR / "api_prices.yaml", ApiPrice))


def api_price_of(model_id: str) -> ApiPrice | None:
    """The maker's API price for the model, or None when none is on record."""
    return next((p for p in api_prices() if model_id in p.models), None)


def blended(price: ApiPrice, read: float, written: float) -> float:
    """USD per million tokens of a mix that reads `read` tokens for every `written` it writes."""
    return (price.usd_per_million_input * read + price.usd_per_million_output * written) / (read + written)
