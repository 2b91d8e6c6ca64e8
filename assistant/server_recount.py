"""The servers owned put right, of the cards already said ('actually 3 boxes not 4', '不好意思说错了，只有一台，8 张卡',
'sorry, just one box with 8 cards', 'three nodes, 8 cards each'): the card type stays, the count becomes the servers
times the cards in each, and no question about the cards is asked (review s29: '只有一台，8 张卡' after 'two 8-card
A6000 servers' asked which cards the one server holds)."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.premise import counted


def servers_recounted(servers: int, profile: Any, updates: dict[str, Any]) -> dict[str, Any] | None:
    """The owned cards and cards per server for `servers` servers of the one card the user owns, or None when the
    card is not known (no owned cards, or several kinds) or a card other than theirs is named this turn. A count said
    with the servers is the cards in each when one server held that many ('three nodes, 8 cards each', '一台8卡的'),
    else the total over them ('two boxes, 12 cards' after 8-card servers)."""
    if not profile.owned or len(profile.owned) != 1:
        return None
    card = counted(profile.owned[0])[1]
    per = int(profile.server_gpus or 0)
    said = updates.get("owned")
    if said:
        if len(said) != 1 or counted(said[0])[1] != card:
            return None  # another card named: theirs to read, not a recount
        n = counted(said[0])[0]
        if not per or n > per:
            return {"owned": [f"{n}x {card}"], "server_gpus": max(1, -(-n // servers))}  # a total over the servers
        per = n  # no more than one server held: the cards in each
    if not per:
        return None
    return {"owned": [f"{servers * per}x {card}"], "server_gpus": per}
