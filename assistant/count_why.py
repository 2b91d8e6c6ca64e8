"""The plan's count asked why, a smaller count tried ('为什么要3台服务器？两台不够吗', "why do I need 3 servers?
wouldn't 2 be enough?", '为什么需要24张卡？16张不够吗'; the reader: assistant/reading/count_why.py). The plan's card is
sized on the count tried (that many servers of the plan's server size, or that many cards), as '只用16张910B够不够'
is, and the answer opens with why the plan on screen took its count: the memory of the weights and of the users'
cache on each card against what a card has, and the servers that is (writers.write_why, from the plan's own
figures)."""

from __future__ import annotations

from typing import Any

SERVER_GPUS = 8  # a server's cards when the plan does not say (tools.scale)


def tried_updates(ask: dict[str, Any], results: dict[str, Any] | None) -> dict[str, Any] | None:
    """The profile's updates that size the plan's card on the count tried: only (and the server size, for servers);
    None when no smaller count was tried or no plan is on screen."""
    from gpu_advisor.tools.recommend import Recommendation

    why = ask.get("count_why") or {}
    if not why.get("tried") or not results or not results.get("recommend"):
        return None
    best = Recommendation.model_validate(results["recommend"]).best
    if best is None or best.owned or best.owned_gpus:
        return None
    per = best.server_gpus or SERVER_GPUS
    if why["unit"] == "servers":
        return {"only": [f"{why['tried'] * per}x {best.gpu}"], "server_gpus": per}
    return {"only": [f"{why['tried']}x {best.gpu}"]}


def why_first(ask: dict[str, Any], results: dict[str, Any] | None, lang: str) -> str:
    """Why the plan on screen took its count, said before the count tried is answered; '' when not asked."""
    from gpu_advisor.assistant.writers import write_why

    if not (ask.get("count_why") or {}).get("tried") or not results or not results.get("recommend"):
        return ""
    return write_why(results, lang)[0]
