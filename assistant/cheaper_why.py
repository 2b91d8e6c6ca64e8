"""The cheapest way asked ('cheapest setup?', '租什么卡最省钱', '便宜点'), and a row in the table shows less than the plan:
the reply says why that row does not lead, from the options' own figures (review AU8, AU12, AT C2): one copy split over
more cards (over PCIe where the card has no NVLink), split across servers, or little memory to spare. A thinly priced
row is explained by writers._cheaper_row_lines; this covers every other cheaper row."""

from __future__ import annotations

from collections.abc import Callable

from gpu_advisor.assistant.advice import Answer
from gpu_advisor.assistant.catalog import say
from gpu_advisor.knowledge import find_gpu
from gpu_advisor.tools.recommend import TIGHT_HEADROOM, Option


def cheaper_why_lines(answer: Answer, lang: str, rows: list[Option], words: Callable[..., str],
                      price: Callable[[Option, float | None], str]) -> list[str]:
    """One line for the cheapest row below the plan, when the cheapest way was asked; none when the plan is it."""
    rec = answer.recommend
    best, w = rec.best, rec.workload
    if best is None or best.owned or not w.cheapest:
        return []
    key = "purchase_usd" if rec.action == "buy" else \
        "job_usd" if best.job_usd is not None and not w.spec.serves else "usd_per_hour"
    mine = getattr(best, key)
    cheaper = [o for o in rows if o.ok and not o.owned and getattr(o, key) and getattr(o, key) < mine
               and (o.gpu, o.gpus) != (best.gpu, best.gpus)]
    if not mine or not cheaper:
        return []
    o = min(cheaper, key=lambda x: getattr(x, key))
    why = _why(o, best, lang)
    if not why:
        return []
    theirs = getattr(o, key)
    return [say(lang, "buybox.cheaper_why", option=words(o), price=price(o, theirs), pick=price(best, mine),
                pct=f"{(mine / theirs - 1) * 100:.0f}", why=say(lang, "sep").join(why)), ""]


def _why(o: Option, best: Option, lang: str) -> list[str]:
    why = []
    per_copy, best_copy = o.gpus // max(o.replicas, 1), best.gpus // max(best.replicas, 1)
    if per_copy > best_copy:
        split = o.engine != "llama.cpp" and not find_gpu(o.gpu).has_nvlink
        why.append(say(lang, "buybox.why_pcie" if split else "buybox.why_cards", n=f"{per_copy:,}"))
    if o.pp > 1 and best.pp <= 1:
        why.append(say(lang, "buybox.why_servers"))
    if o.headroom_fraction < max(TIGHT_HEADROOM, best.headroom_fraction) and o.headroom_fraction < 0.15:
        why.append(say(lang, "buybox.why_tight", spare=f"{o.headroom_fraction * 100:.0f}"))
    if o.avoid and not best.avoid:
        why.append(say(lang, "buybox.why_warned"))
    return why
