"""One answer to 'rent A or buy B?' ('租云上H800划算还是自己买四张4090 48G魔改卡', 'rent H100s or buy 4090s?'): the
cost verdict of assistant.setup_buy_rent weighed with what the two setups are apart from their cost, so the reply
ends with one recommendation, its trade-off said once (review s27: 'buy 4 × 4090 48GB' as the rent-or-buy verdict,
then 'pick the H800' as the comparison's, the plan on the 4090s).

The trade-off, from the rows tools.recommend sized for the job at the counts weighed: each one's speed per user, and
the risks of the setup to buy (a consumer card for a service others rely on: no ECC, no datacenter warranty; a card
sold in China through grey channels only). Buying cheaper, but on a card the answer warns against, while the rented
setup does the job: rent first, own later once the traffic is known and the risks are accepted (the rule the
comparison's verdict follows: verdict.pick_among never picks a card it warns against). The codes:
  buy         owning costs less; the speed the rented setup gives more said beside it
  rent        renting costs less
  rent_first  owning costs less, on a card warned against: rent now, with what owning would save and when
Words: catalog rbone.*."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.verdict import even


def row(rec: Any, gpu: str, n: int) -> Any:
    """The option of `n` cards of `gpu` for the job: the plan's own row, else sized (tools.recommend.evaluate)."""
    if rec is None or getattr(rec, "workload", None) is None:
        return None
    for o in [rec.best, *rec.options]:
        if o is not None and not o.owned and o.gpu == gpu and o.gpus == n:
            return o
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.recommend import evaluate

    try:
        o = evaluate(rec.workload, find_gpu(gpu), n)
    except (ToolError, LookupError, ValueError):
        o = None
    if o is None or not o.ok:  # beyond one server (12 × 4090): the fewest that do it, when that is the count
        from gpu_advisor.assistant.rent_sized import sized

        fit = sized(rec, gpu)
        o = fit if fit is not None and fit.gpus == n else o
    return o


def risks(rec: Any, bought: Any, region: str) -> list[str]:
    """The risk codes of the setup to buy: consumer (warned against for this service), grey (China, no official
    channel: no warranty)."""
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.knowledge.china_channel import officially_sold

    out = ["consumer"] if bought is not None and bought.avoid else []
    if region == "china" and bought is not None and not officially_sold(find_gpu(bought.gpu)):
        out.append("grey")
    return out


def weigh(rec: Any, v: dict[str, Any], region: str) -> dict[str, Any]:
    """The trade-off and the one verdict code, added to the setup's figures `v` (code: the cheaper way)."""
    bought, rented = row(rec, v["buy"], v["buy_gpus"]), row(rec, v["rented"], v["rented_gpus"])
    speeds = {}
    if bought is not None and rented is not None and bought.decode_tokens_per_s and rented.decode_tokens_per_s \
            and not v["same"] and rec.workload.spec.serves:
        speeds = {"buy_tps": bought.decode_tokens_per_s, "rent_tps": rented.decode_tokens_per_s}
    said = risks(rec, bought, region)
    code = v["code"]
    if code == "buy" and "consumer" in said and rented is not None and rented.ok and not v["same"]:
        code = "rent_first"
    return {**v, **speeds, "risks": said, "cost_code": v["code"], "verdict": code,
            "code": "rent" if code == "rent_first" else code}


def speed_words(v: dict[str, Any], lang: str, setup: str, rented: str) -> str:
    """Each setup's speed per user when they differ (' '-led in English): '' when about the same or unknown."""
    from gpu_advisor.assistant.catalog import say
    from gpu_advisor.assistant.writers import tps

    a, b = v.get("rent_tps"), v.get("buy_tps")
    if not (a and b) or even(a, b, tps):
        return ""
    fast, slow, fa, sa = (rented, setup, a, b) if a > b else (setup, rented, b, a)
    return say(lang, "rbone.speed", fast=fast, slow=slow, a=tps(fa), b=tps(sa), x=f"{fa / sa:.1f}")


def risk_words(v: dict[str, Any], lang: str, card: str) -> str:
    """The setup's risks in one clause; '' without any."""
    from gpu_advisor.assistant.catalog import say

    if not v.get("risks"):
        return ""
    return say(lang, "rbone.risks", card=card,
               risks=say(lang, "rbone.and").join(say(lang, f"rbone.risk.{r}") for r in v["risks"]))


def verdict(v: dict[str, Any], lang: str, setup: str, rented: str, gap: str, use: str, key: str, **values: Any) -> str:
    """The one verdict line: the cheaper way's (catalog `key`), or rent first, with the trade-off said after it."""
    from gpu_advisor.assistant.catalog import say

    sep = "" if lang == "zh" else " "
    card = v["buy_name"]
    if v.get("verdict") == "rent_first":
        payback = v.get("payback_months")
        back = say(lang, "rbone.payback", months=f"{payback:,.0f}") if payback is not None else ""
        speed = speed_words(v, lang, setup, rented)
        return say(lang, "rbone.rent_first", rented=rented, setup=setup, gap=gap, months=v["months"], use=use,
                   payback=back, risks=risk_words(v, lang, card)) \
            + (sep + speed if speed else "") + sep + say(lang, "rbone.later", setup=setup)
    line = say(lang, key, setup=setup, rented=rented, gap=gap, use=use, **values)
    extra = [x for x in (speed_words(v, lang, setup, rented), risk_words(v, lang, card) if v["code"] == "buy" else "")
             if x]
    return line + "".join(sep + x for x in extra)


def one_verdict(ctx: Any, sized: str | None) -> str | None:
    """The comparison's closing verdict, or, when this reply weighed renting against buying first (engine:
    results["rent_buy_said"]), a pointer to that verdict: one recommendation per reply, never a second one."""
    if not sized or not (ctx.results or {}).get("rent_buy_said"):
        return sized
    ctx.data["verdict_of"] = "rent_or_buy"
    return ctx.say("rbone.plan")


def needed_rows(rec: Any, v: dict[str, Any]) -> Any:
    """The plan's rows with the rented card at the count the rent-or-buy weighed (4 × H800), in place of a row of
    it that does not do the job at another count (1 × H800, 'no': a strawman beside the setup bought)."""
    gpu, k = v["rented"], v["rented_gpus"]
    kept = [o for o in rec.options if not (o.gpu == gpu and o.gpus != k and not o.ok and not o.owned)]
    if not any(o is not None and o.gpu == gpu and o.gpus == k for o in [rec.best, *kept]):
        o = row(rec, gpu, k)
        if o is not None and o.ok:
            kept.append(o)
    return rec.model_copy(update={"options": kept}) if kept != rec.options else rec


def asked_rows(options: list[Any], rec: Any, v: dict[str, Any]) -> list[Any]:
    """The rows of the cards asked about (advice.Answer.options) with the rented card at the count weighed in place
    of a count of it that does not do the job (needed_rows)."""
    gpu, k = v["rented"], v["rented_gpus"]
    if not any(o.gpu == gpu and o.gpus != k and not o.ok and not o.owned for o in options):
        return options
    o = row(rec, gpu, k)
    out: list[Any] = []
    for x in options:
        if x.gpu == gpu and x.gpus != k and not x.ok and not x.owned:
            x = o if o is not None and o.ok else x
        if all((x.gpu, x.gpus, x.owned) != (y.gpu, y.gpus, y.owned) for y in out):
            out.append(x)
    return out


def doing_count(rec: Any, gpu: str, n: int) -> tuple[int, dict[str, Any]]:
    """The cards of `gpu` weighed for buying: `n` when they do the job (or when the job is not known), else the
    fewest that do it, with the count said that falls short ({"short_gpus": n, "short_why": reason}); 0 when none
    do. `n` 0 (no count said): the fewest that do it."""
    if rec is None or getattr(rec, "workload", None) is None:
        return n, {}
    o = row(rec, gpu, n) if n else None
    if o is not None and o.ok:
        return n, {}
    from gpu_advisor.assistant.rent_sized import sized

    fit = sized(rec, gpu)
    if fit is None:
        return (n, {}) if n and o is None else (0, {})
    if not n:
        return fit.gpus, {}
    return fit.gpus, {"short_gpus": n, "short_why": o.reasons[0] if o is not None and o.reasons else None}


def short_line(v: dict[str, Any], lang: str, setup: str, rented: str) -> str:
    """The count said to buy that cannot do the job, and the count weighed instead; '' when the count said does."""
    from gpu_advisor.assistant.catalog import localise, say

    n = v.get("short_gpus")
    if not n:
        return ""
    why = localise(lang, v["short_why"]) if v.get("short_why") else say(lang, "owned.short")
    return say(lang, "rbone.short", said=f"{n} × {v['buy_name']}", why=why, need=setup, rented=rented)
