"""US export rules for data-centre cards sold into China (data/export_rules.yaml): which rule, on which date, barred
which cards, and which cut-down cards NVIDIA made to sell under it. Facts only; the sentences are the assistant's."""

from __future__ import annotations

from datetime import date
from functools import cache
from typing import Literal

from pydantic import Field

from gpu_advisor.knowledge.loader import DATA_DIR, load_records
from gpu_advisor.knowledge.schema import Record


class ExportRule(Record):
    """One rule: its date, the card ids it bars from China, the ids made to sell under it, what it measures."""

    id: str
    date: date
    barred: list[str] = Field(default_factory=list)
    made_for_china: list[str] = Field(default_factory=list)
    criterion: Literal["compute_and_link", "compute_density", "licence"]


@cache
def export_rules() -> tuple[ExportRule, ...]:
    """The rules, oldest first."""
    return tuple(sorted(load_records(DATA_DIR / "export_rules.yaml", ExportRule), key=lambda r: r.date))


def rules_for(gpu_ids: list[str]) -> list[ExportRule]:
    """The rules that bar one of these cards or that one of them was made to sell under, oldest first."""
    wanted = set(gpu_ids)
    return [r for r in export_rules() if wanted & (set(r.barred) | set(r.made_for_china))]


def china_status(gpu_id: str) -> str:
    """Where the card stands under the rules on record: 'barred' (the latest rule naming it bars it), 'licence' (the
    latest rule naming it requires a US licence to sell it there: sold while one is held, so its standing is
    uncertain: the H20), 'made_for' (made to sell in China under a rule, not barred since), or 'none' (no rule on
    record names it). One standing for the legality answer, the market cell and the China purchase
    (knowledge/china_channel.py: 'licence' there too)."""
    status = "none"
    for rule in export_rules():
        if gpu_id in rule.barred:
            status = "licence" if rule.criterion == "licence" else "barred"
        elif gpu_id in rule.made_for_china:
            status = "made_for"
    return status
