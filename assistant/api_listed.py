"""The API's price when the user gives none (knowledge/api_prices.py): the model maker's list price on record, blended
at the plan's mix of tokens read and written (the split said, '80/20 in/out', or the requests sized), and said with
its source date, so self-hosting against the API is answered with the decisive number, not left to the user."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.knowledge.api_prices import ApiPrice, api_price_by_id, api_price_of, blended


def price_for(rec: Any, named: str | None) -> ApiPrice | None:
    """The price record of the API weighed: the plan model's own API, unless the API the user named is another
    vendor's or another model's ('we use deepseek's api … self-host qwen3-32b': DeepSeek's main API, deepseek-chat;
    'gpt-4o-mini api': OpenAI's); the model's own when the named one is its maker's ('deepseek r1 … the deepseek api')."""
    own = api_price_of(rec.model_id) if rec is not None else None
    said = api_price_by_id(named) if named else None
    return own if own is not None and (said is None or said.provider == own.provider) else said


def on_record(rec: Any, traffic: Any, per_output: bool = False, named: str | None = None) -> tuple[float, ApiPrice] | None:
    """(USD per million tokens at the plan's mix, the price record) for the API weighed (price_for), or None.
    per_output: the API's bill per million tokens written (what it charges for the reads too), set against
    self-hosting's per token generated."""
    price = price_for(rec, named)
    if price is None:
        return None
    read, written = (traffic.prompt_tokens, traffic.output_tokens) if traffic is not None else (4, 1)
    mix = blended(price, read, written)
    return (mix * (read + written) / written if per_output else mix), price


def listed_line(price: ApiPrice, traffic: Any, money: Callable[[float], str], lang: str, rec: Any = None) -> str:
    """Where the API price came from, and what it is at the plan's mix of tokens read and written; an API that is
    not the plan model's own is named with it ('OpenAI's gpt-4o-mini')."""
    read, written = (traffic.prompt_tokens, traffic.output_tokens) if traffic is not None else (4, 1)
    share = read / (read + written)
    own = rec is None or rec.model_id in price.models
    return say(lang, "load.api_listed" if own else "load.api_listed_named", provider=price.provider, name=price.id,
               api_in=money(price.usd_per_million_input), api_out=money(price.usd_per_million_output),
               date=price.as_of.isoformat(), share=f"{share:.0%}", api=money(blended(price, read, written)))
