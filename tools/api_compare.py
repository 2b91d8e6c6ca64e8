"""Self-hosting on rented cards against a paid API priced per million tokens: the self-hosted cost per million at
the load sized, what the cards cost a month however little they are used, and the monthly volume above which
self-hosting is cheaper (rent per month / the API's price per million)."""

from __future__ import annotations

from pydantic import Field

from gpu_advisor.tools.common import Explained, ToolInput, term
from gpu_advisor.tools.cost import HOURS_PER_MONTH


class ApiCompareInput(ToolInput):
    usd_per_hour: float = Field(gt=0, description="rent of the self-hosted cards per hour, all of them, USD")
    tokens_per_s: float = Field(gt=0, description="aggregate generated tokens/s of those cards at the load sized")
    api_usd_per_million: float | None = Field(None, gt=0, description="the API's price per million output tokens, "
                                                                      "USD; None: only the self-hosted figures")
    hours_per_month: float = Field(HOURS_PER_MONTH, gt=0, le=744, description="hours rented a month")
    usage_million_per_month: float | None = Field(None, gt=0, description="the tokens used a month, in millions, "
                                                                         "when said: both priced at that usage")
    bought_months: int | None = Field(None, gt=0, description="the cards are bought: usd_per_hour is the purchase, "
                                                              "hosting and power over this many months, per hour")


class ApiCompareResult(Explained):
    self_usd_per_million: float
    month_usd: float
    capacity_million_per_month: float
    break_even_million_per_month: float | None = None
    break_even_share: float | None = Field(None, description="the break-even volume over what the cards generate "
                                                             "in a month at this load")
    self_wins_at_capacity: bool | None = None
    price_to_win_usd_per_million: float | None = Field(None, description="at the usage said, the API price per "
                                                                         "million above which self-hosting is cheaper")
    api_usd_at_usage: float | None = Field(None, description="the API's bill a month at the usage said")
    self_wins_at_usage: bool | None = None


def api_compare(inp: ApiCompareInput) -> ApiCompareResult:
    per_million = inp.usd_per_hour / (inp.tokens_per_s * 3600) * 1e6
    month = inp.usd_per_hour * inp.hours_per_month
    capacity = inp.tokens_per_s * 3600 * inp.hours_per_month / 1e6
    terms = [term("self_usd_per_million", "Self-hosted cost per million tokens", per_million, "USD",
                  "USD per hour / (tokens per second x 3600) x 10^6",
                  {"usd_per_hour": inp.usd_per_hour, "tokens_per_s": inp.tokens_per_s}),
             term("month_usd", "Rent per month", month, "USD", "USD per hour x hours a month",
                  {"usd_per_hour": inp.usd_per_hour, "hours_per_month": inp.hours_per_month}),
             term("capacity_million_per_month", "Tokens the cards can generate a month", capacity, "million",
                  "tokens per second x 3600 x hours a month / 10^6",
                  {"tokens_per_s": inp.tokens_per_s, "hours_per_month": inp.hours_per_month})]
    res = ApiCompareResult(self_usd_per_million=per_million, month_usd=month, capacity_million_per_month=capacity,
                           terms=terms, assumptions=[
                               f"the cards are bought: purchase, hosting and power over {inp.bought_months} months, "
                               "spread over every hour, busy or not" if inp.bought_months else
                               "the cards are rented every hour of the month, busy or not"])
    if inp.api_usd_per_million:
        volume = month / inp.api_usd_per_million
        res.break_even_million_per_month = volume
        res.break_even_share = volume / capacity
        res.self_wins_at_capacity = per_million < inp.api_usd_per_million
        res.terms.append(term("break_even_million_per_month", "Volume where self-hosting wins", volume, "million",
                              "rent per month / API price per million", {"month_usd": month,
                                                                        "api_usd_per_million": inp.api_usd_per_million}))
    if inp.usage_million_per_month:
        _at_usage(inp, res, month, inp.usage_million_per_month)
    return res


def _at_usage(inp: ApiCompareInput, res: ApiCompareResult, month: float, usage: float) -> None:
    """The two priced at the usage said: the rent is the same however little is used, the API's bill scales."""
    res.price_to_win_usd_per_million = month / usage
    res.terms.append(term("price_to_win_usd_per_million", "API price per million above which self-hosting wins",
                          month / usage, "USD", "rent per month / millions of tokens used a month",
                          {"month_usd": month, "usage_million_per_month": usage}))
    if inp.api_usd_per_million:
        res.api_usd_at_usage = usage * inp.api_usd_per_million
        res.self_wins_at_usage = month < res.api_usd_at_usage
        res.terms.append(term("api_usd_at_usage", "API bill a month at this usage", res.api_usd_at_usage, "USD",
                              "millions of tokens used a month x API price per million",
                              {"usage_million_per_month": usage, "api_usd_per_million": inp.api_usd_per_million}))
