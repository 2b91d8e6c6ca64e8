"""Whether a card may be bought in China, asked with the job ('can my team in shanghai legally buy h100s to serve qwen2.5
72b for 30 people?'; reading/legal_buy.py reads it as u.ask["legal_beside"]): yes or no from the export rules on
record (knowledge/data/export_rules.yaml, dated), each card's standing, and what is sold there, under the plan's
headline; the plan itself is sized in China on the cards that can be had there."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from gpu_advisor.assistant.catalog import say


def legal_beside(cards: list[str] | None, lang: str) -> tuple[str, dict[str, Any]] | None:
    """The legality answer for the cards asked (text, data); None when none was asked."""
    from gpu_advisor.assistant.card_diff import _legal_lead, export_lines, market_cell, short_name

    if not cards:
        return None
    ctx = SimpleNamespace(say=lambda key, **values: say(lang, key, **values), data={},
                          turn=SimpleNamespace(ask={"legal_buy": True}))
    lead = _legal_lead(ctx, cards)
    status = [ctx.say("export.card", gpu=short_name(g), status=market_cell(ctx, g)) for g in cards]
    sold = [line for line in export_lines(ctx, cards) if line.startswith(say(lang, "export.sold", made="", domestic="")[:6])]
    text = "\n".join([*lead, *status, *sold])
    return text, {"code": "legal_buy", **ctx.data}
