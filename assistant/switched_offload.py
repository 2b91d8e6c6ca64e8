"""One card with the rest of the model in system RAM, asked in place of a plan already given ('two used 3090s …'
then 'actually scratch that, what if i just get one 4090 and offload the rest to cpu ram', '算了，就买一张4090，剩下的
放内存'): the headline is that card with offload (tools.offload's tok/s) against the plan before (its tok/s and its
price), and which is the better buy; the all-on-cards plan sized for the new card follows as the alternative."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.considered import READABLE, WORTH

_USD_KEYS = ("purchase_usd",)


def _tps(n: float) -> str:
    return f"{n:,.0f}" if n >= 10 else f"{n:,.1f}"


def _money(usd: float, usd_per_cny: float | None) -> str:
    dollars = f"${usd:,.0f}"
    return f"¥{usd / usd_per_cny:,.0f} ({dollars})" if usd_per_cny else dollars


def _before(previous: dict[str, Any]) -> dict[str, Any] | None:
    rec = previous.get("recommend") or {}
    best = rec.get("best") or {}
    return best if best.get("gpus") and best.get("decode_tokens_per_s") else None


def switched_block(answer: Any, profile: Any, previous: dict[str, Any], lang: str) -> tuple[str, dict[str, Any]] | None:
    rec = answer.recommend
    plan = rec.offload
    only = profile.only or []
    if not (profile.cpu_offload and plan is not None and plan.fits and len(only) == 1 and only[0].startswith("1x ")):
        return None
    was = _before(previous)
    gpu = only[0].partition("x ")[2].strip()
    if was is None or (was.get("gpu") == gpu and int(was["gpus"]) == 1):
        return None
    card = plan.gpu  # the card's name
    before = f"{int(was['gpus'])} × {was['gpu_name']}"
    price = was.get("purchase_usd")
    cost = say(lang, "switched.price", price=_money(float(price), rec.usd_per_cny)) if price else ""
    alone, then = plan.decode_tokens_per_s, float(was["decode_tokens_per_s"])
    lines = ["## " + say(lang, "switched.head", card=card, tps=_tps(alone), before=before, then=_tps(then))]
    lines.append(say(lang, "switched.offload", card=card, model=plan.model, precision=plan.precision,
                     ngl=plan.gpu_layers, layers=plan.layers, tps=_tps(alone),
                     low=_tps(plan.decode_tokens_per_s_range[0]), high=_tps(plan.decode_tokens_per_s_range[1])))
    lines.append(say(lang, "switched.before", before=before, then=_tps(then), cost=cost))
    verdict = "before" if then >= READABLE and then >= WORTH * alone else "one"
    lines.append(say(lang, f"switched.verdict_{verdict}", card=card, before=before, tps=_tps(alone), then=_tps(then)))
    data = {"code": "switched_offload", "gpu": gpu, "offload_tokens_per_s": round(alone, 2),
            "before_gpu": was.get("gpu"), "before_gpus": int(was["gpus"]), "before_tokens_per_s": round(then, 2),
            "before_purchase_usd": price, "verdict": verdict}
    return "\n\n".join(lines), data


def with_switched(text: str, extra: dict[str, Any], answer: Any, profile: Any, previous: dict[str, Any] | None,
                  lang: str) -> tuple[str, dict[str, Any]]:
    """The block first; the plan's own headline (all on cards) follows as the alternative, not the answer."""
    if not previous or answer is None:
        return text, extra
    block = switched_block(answer, profile, previous, lang)
    if block is None:
        return text, extra
    head, sep, rest = text.partition("\n\n")
    if head.startswith("## "):
        text = say(lang, "switched.all_on_cards", head=head[3:]) + sep + rest
    return block[0] + "\n\n" + text, {**extra, "switched_offload": block[1]}
