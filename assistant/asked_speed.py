"""The speed asked of the model asked (review WC E1: 'and llama 3.1 70b if i offload part of it to ram, how many
tokens/s roughly?' was headed by the smaller model's 31 tokens/s that the plan ran instead). When the plan runs
another model on the user's card, or offload was asked, and tools.offload sized the model asked with part of it
in system RAM, the first line is that model's speed with the split, and the RAM it needs where the RAM said is
short. Every figure is the offload tool's (recorded with the plan); the words are the catalogs'."""

from __future__ import annotations

import math

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.writers import tps
from gpu_advisor.tools.recommend import Recommendation


def offload_speed(rec: Recommendation, lang: str) -> str | None:
    """'**About 1.2 tokens/s** for Llama 3.1 70B on your RTX 3060 with part of it in system RAM', or None when
    the plan's own speed answers the model asked."""
    o = rec.offload
    if o is None or not o.fits or rec.workload is None:
        return None
    other_model = (rec.relaxed or "").partition("=")[0] == "model" or bool(rec.instead_model)
    if not (other_model or rec.offload_leads or rec.workload.cpu_offload or rec.workload.keep_model):
        return None  # keep_model: a model switched to heads a rented plan, its speed on the user's card asked first
    low, high = o.decode_tokens_per_s_range
    line = say(lang, "literal.speed_offload", tps=tps(o.decode_tokens_per_s), model=o.model, gpu=o.gpu,
               precision=o.precision.upper(), flags=o.flags, low=tps(low), high=tps(high),
               whole=tps(o.all_on_card_tokens_per_s))
    if o.ram_ok is False:
        line += say(lang, "literal.speed_offload_ram", ram=f"{math.ceil(o.ram_needed_gb):,}")
    return line
