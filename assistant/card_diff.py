"""What the US export rules mean for the cards a question names ('H20和H800到底有啥区别？为啥国内买不到H100', 'is the
h100 banned in china?'), from knowledge/data/export_rules.yaml: each card's status as a table cell, the rules behind
it with their dates, and the cards that can be sold there. The facts are the data's; the sentences are the
catalog's (export.*)."""

from __future__ import annotations

import re
from typing import Any

# Words of a card's full name that are its form or memory, not its model ('SXM', '80GB', '(HGX)').
_FORM = re.compile(r"^(?:\d+GB|SXM\d?|PCIe|NVL|OAM|\(.*)$")


def short_name(gpu_id: str) -> str:
    """'NVIDIA A100 SXM4 80GB' -> 'A100', 'NVIDIA GeForce RTX 4090 D 24GB' -> 'RTX 4090 D'."""
    from gpu_advisor.knowledge import find_gpu

    words = find_gpu(gpu_id).name.replace("NVIDIA ", "").replace("GeForce ", "").split()
    kept: list[str] = []
    for word in words:
        if _FORM.match(word):
            break
        kept.append(word)
    return " ".join(kept) or find_gpu(gpu_id).name


def _names(ctx: Any, ids: list[str]) -> str:
    return ctx.say("list_sep").join(dict.fromkeys(short_name(g) for g in ids))


def market_cell(ctx: Any, gpu_id: str) -> str:
    """The card's standing in China, each rule that named it in date order ('made for China under the 2022-10-07
    rule; barred since 2023-10-17'), else what its record says."""
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.knowledge.export_rules import china_status, export_rules

    ctx.data.setdefault("market", {})[gpu_id] = china_status(gpu_id)
    parts = []
    for rule in export_rules():
        if gpu_id in rule.made_for_china + rule.barred:
            _dated(ctx, rule)
        if gpu_id in rule.made_for_china:
            parts.append(ctx.say("export.cell.made_for", date=rule.date.isoformat()))
        if gpu_id in rule.barred:
            key = "export.cell.licence" if rule.criterion == "licence" else "export.cell.barred"
            parts.append(ctx.say(key, date=rule.date.isoformat()))
    if parts:
        return ctx.say("export.cell_sep").join(parts)
    gpu = find_gpu(gpu_id)
    if gpu.domestic_china:
        return ctx.say("export.cell.domestic")
    return ctx.say("export.cell.limited" if gpu.export_limited else "export.cell.open")


def _dated(ctx: Any, rule: Any) -> None:
    """The rule's date among the reply's results (ctx.data["export_dates"]): every figure shown is on record."""
    dates = ctx.data.setdefault("export_dates", {})
    dates[rule.id] = rule.date.isoformat()


def export_lines(ctx: Any, gpu_ids: list[str]) -> list[str]:
    """The rules behind the cards asked, oldest first, and what can be sold in China now (ctx.data["export"])."""
    from gpu_advisor.knowledge import find_gpu, gpus
    from gpu_advisor.knowledge.export_rules import china_status, rules_for

    rules = rules_for(gpu_ids)
    later = [g for g in gpu_ids if not rules_for([g]) and find_gpu(g).export_limited]
    lines = [ctx.say("export.head")]
    for rule in rules:
        _dated(ctx, rule)
        links = [float(find_gpu(g).nvlink_gbps or 0) for g in rule.made_for_china if find_gpu(g).nvlink_gbps]
        if links:  # the link speed the cut-down cards were held to (their records)
            ctx.data.setdefault("export_link_gbps", {})[rule.id] = min(links)
        lines.append(ctx.say(f"export.rule.{rule.criterion}", date=rule.date.isoformat(), link=f"{min(links or [0]):,.0f}",
                             barred=_names(ctx, rule.barred), made=_names(ctx, rule.made_for_china)))
    if later:
        lines.append(ctx.say("export.later", cards=_names(ctx, later)))
    sold = [g.id for g in gpus() if china_status(g.id) == "made_for"]
    domestic = [g.id for g in gpus() if g.domestic_china]
    if sold or domestic:
        lines.append(ctx.say("export.sold", made=_names(ctx, sold), domestic=_names(ctx, domestic)))
    ctx.data["export"] = {"rules": [r.id for r in rules], "status": {g: china_status(g) for g in gpu_ids},
                          "sold": sold}
    return lines


def export_answer(ctx: Any) -> str:
    """The reply to an export question alone ('为什么国内买不到H100'): each card's status, then the rules."""
    cards = list(ctx.turn.ask.get("export") or ctx.turn.cards or [])
    status = [ctx.say("export.card", gpu=short_name(g), status=market_cell(ctx, g)) for g in cards]
    return "\n".join([*_legal_lead(ctx, cards), *status, "", *export_lines(ctx, cards)])


def _legal_lead(ctx: Any, cards: list[str]) -> list[str]:
    """'Can we legally buy H100s in Shanghai?': yes or no first, from each card's standing under the rules on record."""
    from gpu_advisor.knowledge.export_rules import china_status

    if not ctx.turn.ask.get("legal_buy"):
        return []
    barred = [g for g in cards if china_status(g) == "barred"]
    licence = [g for g in cards if china_status(g) == "licence"]  # the H20: said once as uncertain, never barred
    key = "export.legal_no" if barred and len(barred) == len(cards) else "export.legal_some" if barred \
        else "advice.legal_licence" if licence else "export.legal_yes"
    return [ctx.say(key, cards=_names(ctx, barred or licence or cards)), ""]
