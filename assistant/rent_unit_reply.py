"""A rented plan on part of a server of a card sold only in whole servers (tools.rent_unit; review CE #4: 4 x B200
for a full fine-tune, 'B200 usually comes as 8-GPU nodes'): why that count is available (the providers on record that
rent an instance of it), or the instance the plan must pay for and its hourly price, with the clouds that rent the
card only as whole nodes."""

from __future__ import annotations

from gpu_advisor.assistant.catalog import say
from gpu_advisor.knowledge.clouds import clouds
from gpu_advisor.tools.recommend import Recommendation


def rent_unit_lines(rec: Recommendation, lang: str) -> list[str]:
    u, best = rec.rent_unit, rec.best
    if u is None or best is None:
        return []
    from gpu_advisor.assistant.writers import cash

    sep = say(lang, "list_sep")
    named = [clouds()[c] for c in u.whole_only if c in clouds()]
    where = sep.join(c.name_zh if lang == "zh" else c.name for c in named)
    also = say(lang, "rent_unit.clouds", clouds=where, sold=u.sold_in) if named else ""
    if u.unit == u.gpus and u.providers:
        line = say(lang, "rent_unit.offered", card=best.gpu_name, sold=u.sold_in, n=u.gpus,
                   providers=sep.join(u.providers), clouds=also)
    elif u.unit_usd_per_hour is not None:
        line = say(lang, "rent_unit.whole", card=best.gpu_name, sizes=sep.join(map(str, u.sizes)), clouds=also,
                   n=u.gpus, unit=u.unit, usd=cash(u.unit_usd_per_hour, rec))
    else:
        return []
    return [line, ""]
