"""'cost per 1M output tokens if i self host … vs paying an api … at what volume does self hosting win': the plan's
cards against the API's price per million tokens (tools.api_compare), after the cost per million tokens
(assistant/per_token.py). With no API price given, what the cards cost a month and the price it needs."""

from __future__ import annotations

from functools import partial
from typing import Any

from gpu_advisor.assistant.advice import Answer, Recorder, _call
from gpu_advisor.assistant.api_listed import listed_line, on_record
from gpu_advisor.assistant.api_paid import paid_lines, paid_per_million
from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.writers import cash, gpu_words, pct, tps
from gpu_advisor.tools.api_compare import ApiCompareInput, api_compare
from gpu_advisor.tools.cost import HOURS_PER_MONTH


def _usd(price: dict[str, float], rec: Any, traffic: Any = None, per_output: bool = False,
         volumes: tuple[float, float] | None = None) -> float | None:
    """The API's price per million tokens in USD: the one said, or the two said for tokens read and written
    ('0.27 in / 1.1 out') blended at the user's own monthly volumes read and written when said (so usage × price is
    read × its price + written × its price), else at the plan's mix (per token written when per_output: what the API
    bills for a token generated with its share of the reading), as knowledge.api_prices blends a listed price."""
    from gpu_advisor.knowledge import rules

    rate = 1.0 if price.get("usd") or price.get("usd_in") else (rec.usd_per_cny or rules().usd_per_cny)
    if price.get("usd") or price.get("cny"):
        return float(price.get("usd") or price["cny"]) * rate
    read_price, written_price = price.get("usd_in") or price.get("cny_in"), price.get("usd_out") or price.get("cny_out")
    if read_price is None or written_price is None:
        return None
    read, written = volumes or ((traffic.prompt_tokens, traffic.output_tokens) if traffic is not None else (4, 1))
    mix = (read * read_price + written * written_price) / (read + written)
    return (mix * (read + written) / written if per_output else mix) * rate


def _hourly(rec: Any, best: Any) -> tuple[float, int | None] | None:
    """What the plan's cards cost an hour, and over how many months when bought: a plan headed 'Buy' is priced at
    its purchase, hosting and power over the rent-or-buy horizon (tools.cost.rent_vs_buy), spread over every hour;
    one rented, at its rent. None when neither is on record."""
    rb = getattr(rec, "rent_or_buy", None)
    if rec is not None and best is not None and rec.action == "buy" and rb is not None and rb.gpu == best.gpu \
            and rb.buy_total_usd > 0 and (rb.buy_gpus or rb.gpus) == best.gpus:
        return rb.buy_total_usd / (rb.horizon_months * HOURS_PER_MONTH), rb.horizon_months
    return (best.usd_per_hour, None) if best is not None and best.usd_per_hour else None


def _words(usage: float, lang: str) -> str:
    from gpu_advisor.assistant.usage_api import _millions as said

    return said(usage, lang)


def _at_list(recorder: Recorder | None, inp: ApiCompareInput, listed: float) -> Any:
    """The same comparison at the list price on record, when the price paid said is weighed instead."""
    at = inp.model_copy(update={"api_usd_per_million": listed})
    return _call(recorder, "api_compare", at.model_dump(mode="json"), partial(api_compare, at))


def api_block(answer: Answer, asked: dict[str, Any], lang: str, recorder: Recorder | None = None) -> str:
    """The comparison with the API asked ({'api_price': {'usd'|'cny': amount}, 'break_even': bool}); '' when the plan
    has no rented setup with a speed."""
    rec = answer.recommend
    best = rec.best if rec is not None else None
    hourly = _hourly(rec, best)
    if best is None or best.owned or hourly is None or not best.aggregate_tokens_per_s:
        return ""
    traffic = rec.traffic if rec.traffic is not None and rec.traffic.requests_per_s else None
    load = traffic.requests_per_s * traffic.output_tokens if traffic else best.aggregate_tokens_per_s
    said = asked.get("break_even")
    usage = said.get("usage_million_per_month") if isinstance(said, dict) else None
    ways = (said.get("read_million_per_month"), said.get("written_million_per_month")) \
        if isinstance(said, dict) else (None, None)
    volumes = (float(ways[0]), float(ways[1])) if ways[0] and ways[1] else None
    api = _usd(asked.get("api_price") or {}, rec, traffic, per_output=not usage, volumes=volumes)
    paid = paid_per_million(asked, usage) if api is None else None  # 'spending like 18k/month': the price paid now
    listed = on_record(rec, traffic, not usage, asked.get("api_named")) if api is None else None  # its list price
    api = paid or (listed[0] if listed else api)
    inp = ApiCompareInput(usd_per_hour=hourly[0], tokens_per_s=load, api_usd_per_million=api,
                          usage_million_per_month=usage, bought_months=hourly[1])
    r = _call(recorder, "api_compare", inp.model_dump(mode="json"), partial(api_compare, inp))
    answer.api_compare = r.model_dump(mode="json")
    money = partial(cash, rec=rec)
    if usage:  # 'about 15M tokens a month … would self hosting be cheaper?': both at that usage (assistant.usage_api)
        from gpu_advisor.assistant.usage_api import usage_lines

        both = usage_lines(r, usage, api, gpu_words(best, lang), money, lang, hourly[1])
        if paid:
            at_list = _at_list(recorder, inp, listed[0]) if listed else None
            return "\n- ".join([both, *paid_lines(asked, usage, listed, at_list, traffic, money, _words(usage, lang), lang)])
        return both + ("\n- " + listed_line(listed[1], traffic, money, lang, rec) if listed else "")
    head = say(lang, "advice.api_head_buy", option=gpu_words(best, lang), hour=money(hourly[0]), tps=tps(load),
               months=hourly[1]) if hourly[1] else \
        say(lang, "api.head", option=gpu_words(best, lang), hour=money(hourly[0]), tps=tps(load))
    lines = [head,
             "- " + say(lang, "api.self", self=money(r.self_usd_per_million), month=money(r.month_usd),
                        capacity=_words(r.capacity_million_per_month, lang))]
    if api is None or r.break_even_million_per_month is None:
        lines.append(say(lang, "api.need_price", month=money(r.month_usd)))
        return "\n".join(lines)
    volume = r.break_even_million_per_month
    key = "api.vs_wins" if r.self_wins_at_capacity else "api.vs_loses"
    lines.append("- " + say(lang, key, api=money(api), volume=_words(volume, lang), day=_words(volume / 30, lang),
                            share=pct(r.break_even_share or 0), self=money(r.self_usd_per_million)))
    if listed:
        lines.append("- " + listed_line(listed[1], traffic, money, lang, rec))
    return "\n".join(lines)
