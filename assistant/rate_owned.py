"""Cards you own that hold a request rate's requests but do not keep up with it (review AZ #12: 'do we need more?
we own 16 H100 … 30 requests/sec' got '**Yes** … the plan below, 16 × H100, does it' above a body that needs about
40): the answer first is how many more of that card the rate takes (tools.recommend's traffic: needed_gpus, the
queueing model), never the failing cards named as the fix. One source: the traffic the plan was sized with."""

from __future__ import annotations

from typing import Any

from gpu_advisor.tools.recommend import Option, Recommendation


def rate_more(rec: Recommendation, mine: Option) -> dict[str, Any] | None:
    """The 'more_cards' verdict for your cards short of a request rate: {code, added, total}; None when the rate is
    not what they miss, or no count of their kind was sized."""
    t, best = rec.traffic, rec.best
    if t is None or not t.owned_short or not t.needed_gpus or best is None or best.gpu != mine.gpu:
        return None
    have = t.owned_gpus or mine.gpus
    if t.needed_gpus <= have:
        return None
    return {"code": "more_cards", "added": t.needed_gpus - have, "total": t.needed_gpus}


def fp8_line(rec: Recommendation, lang: str) -> str:
    """FP8 on the cards you own, said after 'Yes, N more' when they serve in 16 bits (tools.rate_fp8): how far it
    gets them, or that it is enough; '' when not sized."""
    from gpu_advisor.assistant.catalog import say
    from gpu_advisor.assistant.writers import rate_said

    t, best = rec.traffic, rec.best
    if t is None or best is None or t.fp8_needed_gpus is None or t.fp8_owned_rps is None or not t.needed_gpus:
        return ""
    have = t.owned_gpus or 0
    rate = f"{t.requests_per_s:,.3g}"
    if t.fp8_needed_gpus <= have:
        return say(lang, "onevoice.fp8_enough", owned=f"{have:,}", sustain=rate_said(t.fp8_owned_rps, lang), rate=rate)
    if t.fp8_needed_gpus >= t.needed_gpus:
        return ""
    return say(lang, "onevoice.fp8_first", owned=f"{have:,}", sustain=rate_said(t.fp8_owned_rps, lang), rate=rate,
               needed=f"{t.fp8_needed_gpus:,}", gpu=best.gpu_name, more=f"{t.fp8_needed_gpus - have:,}",
               more16=f"{t.needed_gpus - have:,}")
