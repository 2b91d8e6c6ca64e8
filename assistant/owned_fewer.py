"""A follow-up that keeps fewer of the user's own cards ("what if we only get one of the servers", "what if we can only
use one of the two boxes", "只能用其中一台呢", "half of them", "一半的卡"; reading/fewer.py puts {'servers': 1},
{'gpus': 8} or {'share': 0.5} in the turn's ask): the plan is sized again on that many of their cards (review CA #4:
"Sorry, I didn't understand that"). Said beside the cards themselves (a first message), the owned cards stay and the
run's time on fewer is said after the plan instead (assistant/fewer_time.py)."""

from __future__ import annotations

from typing import Any


def owned_fewer(ask: dict[str, Any], owned: list[str] | None, server_gpus: int | None,
                updates: dict[str, Any]) -> list[str] | None:
    """The cards of their own left ('8x a100-80gb-sxm' of '16x a100-80gb-sxm'), or None when the turn keeps no fewer of
    them (nothing asked, the cards said in this turn, several kinds owned, or not fewer than they have)."""
    fewer = ask.get("fewer")
    if not isinstance(fewer, dict) or "owned" in updates or not owned or len(owned) != 1:
        return None
    count, _x, card = owned[0].partition("x ")
    card = card.strip()
    if not count.isdigit() or not card:
        return None
    have = int(count)
    per = server_gpus or _server_cards(card)
    if "share" in fewer:
        share = float(fewer["share"])
        servers = have // per if per and have % per == 0 else 0
        n = max(1, round(servers * share)) * per if fewer.get("servers") and servers > 1 else max(1, round(have * share))
    else:
        n = int(fewer.get("gpus") or 0) or int(fewer.get("servers") or 0) * per
    if not 0 < n < have:
        return None
    return [f"{n}x {card}"]


def _server_cards(card: str) -> int:
    """The cards in one server of this card when the user did not say (a whole board, or the host table's server)."""
    from gpu_advisor.assistant.reading.cards import servers_of

    try:
        return servers_of(card, 1, "servers")[0]
    except (LookupError, ValueError, KeyError):
        return 8
