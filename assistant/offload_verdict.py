"""The first line when the user asked to run the model with part of it in system RAM and that plan leads (review AV
EN2: 'rtx 3080 10gb … with some layers offloaded to cpu? how fast' was answered 'No … not even for one person', then
'About 50 tokens/s' with offload, then a 2-bit file): yes, on the one card they have, with the offload plan's own
figures (tools.offload), so the verdict, the speed and the plan below say the same thing."""

from __future__ import annotations

import math

from gpu_advisor.assistant.catalog import say
from gpu_advisor.tools.recommend import Recommendation


def offload_verdict(rec: Recommendation | None, lang: str) -> str | None:
    """'**Yes**, with part of it in system RAM: …'; None unless the offload plan is the answer."""
    from gpu_advisor.assistant.writers import model_words, tps

    if rec is None or not rec.offload_leads or rec.offload is None:
        return None
    o = rec.offload
    low, high = o.decode_tokens_per_s_range
    return say(lang, "mixed.offload_yes", count=o.gpus, gpu=o.gpu, model=model_words(o.model, lang),
               precision=o.precision.upper(), cards=say(lang, "offload.cards." + ("one" if o.gpus == 1 else "many")),
               gpu_gb=f"{o.gpu_gb:.1f}", ram_gb=f"{o.ram_gb:.1f}", tps=tps(o.decode_tokens_per_s),
               low=tps(low), high=tps(high), flags=o.flags) \
        + offload_target(o.decode_tokens_per_s, rec.workload.min_tokens_per_s if rec.workload else None, lang)


def offload_target(speed: float, target: float | None, lang: str) -> str:
    """The speed the user asked for, said met or missed beside the split's speed ('want like 20+ tok/s'; review CUA
    #1: the reply left the user to compare 43 with 20); '' when none was asked."""
    from gpu_advisor.assistant.writers import tps

    if not target:
        return ""
    return say(lang, "literal.offload_target_met" if speed >= target else "literal.offload_target_missed",
               target=tps(target), tps=tps(speed))


def offload_ram_short(rec: Recommendation | None, lang: str) -> str:
    """' With part of it in system RAM it would run on your cards …, but that takes about N GB and you have M GB.'
    when the offload plan on the user's own cards holds on the cards but not in the RAM said; else ''."""
    from gpu_advisor.assistant.writers import tps

    o = rec.offload if rec is not None else None
    said = rec.workload.system_ram_gb if rec is not None else None
    if o is None or o.ram_ok is not False or said is None:
        return ""
    low, high = o.decode_tokens_per_s_range
    return say(lang, "literal.offload_ram_short", flags=o.flags, tps=tps(o.decode_tokens_per_s), low=tps(low),
               high=tps(high), ram=f"{math.ceil(o.ram_needed_gb):,}", said=f"{said:g}")
