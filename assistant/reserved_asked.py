"""On demand against a one-year reservation, asked with no reserved price (reading.reserved_asked): the plan's
on-demand month, and the hourly price a reservation must beat at the plan's billed hours. A reservation is billed
every hour of its term, on demand only the hours used, so it is cheaper below on-demand x (hours used / hours in
the month); no reserved prices are on record, so none is invented."""

from __future__ import annotations

from gpu_advisor.assistant.advice import Answer
from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.writers import cash, gpu_words, pct
from gpu_advisor.tools.cost import HOURS_PER_MONTH


def reserved_line(answer: Answer, lang: str) -> str | None:
    rec = answer.recommend
    best = rec.best
    if best is None or best.owned or not best.usd_per_hour or best.billed_usd_per_month is None:
        return None
    billed = best.gpus - best.owned_gpus
    per_gpu = best.usd_per_hour / max(billed, 1)
    share = min(1.0, best.billed_usd_per_month / (best.usd_per_hour * HOURS_PER_MONTH))
    key = "reserved.no_price_full" if share >= 0.999 else "reserved.no_price"
    return say(lang, key, option=gpu_words(best, lang), month=cash(best.billed_usd_per_month, rec),
               per_gpu=cash(per_gpu, rec), share=pct(share), beat=cash(per_gpu * share, rec))


def with_reserved(text: str, answer: Answer, lang: str, asked: bool) -> str:
    """The reply with the reservation weighed right above the plan's headline, when it was asked."""
    line = reserved_line(answer, lang) if asked else None
    if not line:
        return text
    at = text.find("\n## ")
    if at < 0:
        return line + "\n\n" + text
    return text[:at].rstrip("\n") + "\n\n" + line + "\n\n" + text[at:].lstrip("\n")
