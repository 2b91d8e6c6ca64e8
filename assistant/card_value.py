"""Which card is better value for inference ('H20和A100哪个跑推理划算？不是要配置，就想知道区别', 'which is better bang for
buck for inference, h100 or a100'; reading/card_value.py sets ask["value"]): each card's rental price in the market
asked about and its purchase price where known (tools.card_value), divided into memory bandwidth (decoding) and BF16
TFLOPS (prefill, large batches, fine-tuning), with the card that wins each and a price missing said. Written under
the spec table of compare_cards (assistant/inform.py). ctx.data["card_value"] holds the tool's result."""

from __future__ import annotations

from typing import Any

from gpu_advisor.tools.card_value import CardValueInput, card_value

TIE = 1.05  # within 5% per dollar: about the same


def _local(ctx: Any, usd: float) -> float:
    from gpu_advisor.knowledge.loader import rules

    return usd / rules().usd_per_cny if ctx.region == "china" else usd


def _units(ctx: Any) -> tuple[str, str]:
    return ("¥1", "¥") if ctx.region == "china" else ("$1", "$")


def _rent_line(ctx: Any, c: Any) -> str:
    if c.rent_usd_per_hour is None:
        return ctx.say("cval.no_rent", gpu=c.name)
    price = _local(ctx, c.rent_usd_per_hour)
    key = "cval.rent" if c.rent_region == ctx.region or ctx.region == "global" else "cval.rent_elsewhere"
    return ctx.say(key, gpu=c.name, price=ctx.usd(c.rent_usd_per_hour), providers=ctx.say("list_sep").join(c.rent_providers),
                   unit=_units(ctx)[0], bw=f"{c.bandwidth_gbps / price:,.0f}", tf=f"{c.bf16_tflops / price:,.1f}")


def _buy_line(ctx: Any, cards: list[Any]) -> str:
    rows = []
    for c in cards:
        if c.buy_usd is None:
            rows.append(ctx.say("cval.no_buy", gpu=c.name))
            continue
        price = _local(ctx, c.buy_usd) / 1000
        rows.append(ctx.say("cval.buy_row", gpu=c.name, price=ctx.usd(c.buy_usd), unit=_units(ctx)[1],
                            bw=f"{c.bandwidth_gbps / price:,.0f}", tf=f"{c.bf16_tflops / price:,.1f}"))
    return ctx.say("cval.buy", rows=ctx.say("sep").join(rows))


def _winner(ctx: Any, cards: list[Any], key: str, best: str | None, line: str) -> str | None:
    if best is None:
        return None
    win = next(c for c in cards if c.gpu == best)
    other = max((c for c in cards if c.gpu != best and getattr(c, key)), key=lambda c: float(getattr(c, key)))
    ratio = float(getattr(win, key)) / float(getattr(other, key))
    if ratio < TIE:
        return ctx.say(f"{line}_tie")
    return ctx.say(line, gpu=win.name, other=other.name, ratio=f"{ratio:.1f}")


def value_lines(ctx: Any, facts: list[dict[str, Any]]) -> list[str]:
    """The value block for the cards' facts (inform._card_facts): their purchase prices as the table shows them, none
    for a card with no street price where it is bought (list_only)."""
    from gpu_advisor.assistant.followups import _call

    region = ctx.region if ctx.region in ("global", "us", "eu", "china") else "global"
    buy = [None if f.get("list_only") else f.get("buy_price_usd") for f in facts]
    r = _call(ctx, "card_value", card_value, CardValueInput(gpus=[f["id"] for f in facts], region=region, buy_usd=buy))
    cards = r.cards
    lines = [ctx.say("cval.head", market=ctx.say(f"cval.market.{region}")), *(_rent_line(ctx, c) for c in cards)]
    if any(c.buy_usd for c in cards):
        lines.append(_buy_line(ctx, cards))
    verdicts = [v for v in (_winner(ctx, cards, "bandwidth_per_rent", r.decode_rent, "cval.decode"),
                            _winner(ctx, cards, "tflops_per_rent", r.prefill_rent, "cval.prefill")) if v]
    fp8 = [c for c in cards if c.fp8_tflops]
    if fp8 and len(fp8) < len(cards):
        verdicts.append(ctx.say("cval.fp8", gpu=fp8[0].name, tf=f"{fp8[0].fp8_tflops:,.0f}",
                                others=ctx.say("list_sep").join(c.name for c in cards if not c.fp8_tflops)))
    if r.decode_buy and r.prefill_buy:
        verdicts.append(ctx.say("cval.buy_verdict", decode=next(c.name for c in cards if c.gpu == r.decode_buy),
                                prefill=next(c.name for c in cards if c.gpu == r.prefill_buy)))
    if not (r.decode_rent or r.decode_buy):
        verdicts.append(ctx.say("cval.no_verdict"))
    ctx.data["card_value"] = r.model_dump(mode="json", exclude={"terms"})
    return [*lines, "", *verdicts]
