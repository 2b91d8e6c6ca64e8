"""A buy-or-rent weighed before, asked again on a follow-up (review BY #4: 'should i buy a 5090 or just rent h100s
for lora finetuning qwen2.5 14b?', then 'what if i just do qlora on the 5090, is it worth buying then' /
'那在5090上做qlora呢，值得买吗'): the card named this turn (else the one weighed before) to buy, against the card
rented before, weighed again on this turn's job (assistant/buy_or_rent.py). The card rented in the turn before is
one side of that question, never a rule that only it may be planned on."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage


def weighed_before(messages: list[Any]) -> dict[str, Any] | None:
    """The buy-or-rent figures of the last answer, when it weighed one card bought against renting."""
    for m in reversed(messages or []):
        if isinstance(m, AIMessage) and m.content:
            data = (m.additional_kwargs or {}).get("gpu_advisor") or {}
            v = data.get("buy_or_rent")
            return v if isinstance(v, dict) and v.get("buy") and v.get("rented") else None
    return None


def spec(turn: Any, messages: list[Any]) -> dict[str, Any] | None:
    """The buy-or-rent asked this turn, said outright or continued from the turn before ('is it worth buying then',
    '值得买吗' with one card named, or the rent-or-buy asked with none); None otherwise."""
    said = turn.ask.get("buy_or_rent")
    if said:
        return said
    asked = turn.ask.get("buy_asked") or turn.ask.get("card_good")
    if not (asked or turn.has("rent_buy")):
        return None
    before = weighed_before(messages)
    if before is None:
        return None
    cards = list(turn.cards or [])
    buy = asked or (cards[0] if len(cards) == 1 else None) or before["buy"]
    if buy == before["rented"]:
        return None  # buying the card rented: the setup's own question (assistant.setup_buy_rent)
    return {"buy": buy, "rented": before["rented"], "hours": None, "server": False,
            **({"buy_n": before["buy_n"]} if buy == before["buy"] and (before.get("buy_n") or 1) > 1 else {})}
