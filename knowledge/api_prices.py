"""A model maker's own API list prices (data/api_prices.yaml): per million input and output tokens, USD, dated, so
self-hosting can be weighed against the API at a price on record when the user gives none."""

from __future__ import annotations

from functools import cache

from pydantic import Field, model_validator

from gpu_advisor.knowledge.loader import DATA_DIR, load_records
from gpu_advisor.knowledge.schema import Record


class ApiPrice(Record):
    """One API's list price: the open models it serves (none for a closed one), how people name it when they say
    they pay for it ('gpt-4o-mini', the vendor's bare name for its main API), per million tokens read (cache miss) and
    written."""

    id: str
    provider: str
    models: list[str] = Field(default_factory=list)
    names: list[str] = Field(default_factory=list)
    usd_per_million_input: float = Field(gt=0)
    usd_per_million_output: float = Field(gt=0)

    @model_validator(mode="after")
    def _found_somehow(self) -> ApiPrice:
        if not self.models and not self.names:
            raise ValueError(f"API price {self.id}: no model it serves and no name to find it by")
        return self


@cache
def api_prices() -> tuple[ApiPrice, ...]:
    return tuple(load_records(DATA_DIR / "api_prices.yaml", ApiPrice))


def api_price_of(model_id: str) -> ApiPrice | None:
    """The maker's API price for the model, or None when none is on record."""
    return next((p for p in api_prices() if model_id in p.models), None)


def api_price_by_id(price_id: str) -> ApiPrice | None:
    return next((p for p in api_prices() if p.id == price_id), None)


def blended(price: ApiPrice, read: float, written: float) -> float:
    """USD per million tokens of a mix that reads `read` tokens for every `written` it writes."""
    return (price.usd_per_million_input * read + price.usd_per_million_output * written) / (read + written)
