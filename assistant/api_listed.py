"""The API's price when the user gives none (knowledge/api_prices.py): the model maker's list price on record, blended
at the plan's mix of tokens read and written (the split said, '80/20 in/out', or the requests sized), and said with
its source date, so self-hosting against the API is answered with the decisive number, not left to the user."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.knowledge.api_prices import ApiPrice, api_price_of, blended


def on_record(rec: Any, traffic: Any, per_output: bool = False) -> tuple[float, ApiPrice] | None:
    """(USD per million tokens at the plan's mix, the price record) for the plan's model, or None. per_output: the
    API's bill per million tokens written (what it charges for the reads too), set against self-hosting's per token
    generated."""
    price = api_price_of(rec.model_id) if rec is not None else None
    if price is None:
        return None
    read, written = (traffic.prompt_tokens, traffic.output_tokens) if traffic is not None else (4, 1)
    mix = blended(price, read, written)
    return (mix * (read + written) / written if per_output else mix), price


def listed_line(price: ApiPrice, traffic: Any, money: Callable[[float], str], lang: str) -> str:
    """Where the API price came from, and what it is at the plan's mix of tokens read and written."""
    read, written = (traffic.prompt_tokens, traffic.output_tokens) if traffic is not None else (4, 1)
    share = read / (read + written)
    return say(lang, "load.api_listed", provider=price.provider, api_in=money(price.usd_per_million_input),
               api_out=money(price.usd_per_million_output), date=price.as_of.isoformat(), share=f"{share:.0%}",
               api=money(blended(price, read, written)))
