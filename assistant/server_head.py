"""Headlines for a card sold only as whole servers (knowledge: Gpu.sold_in > 1) when the plan takes fewer of its
cards than a server holds: bought, the server is what is bought, headed as such with its price and the plan's use
of it (review BX #4: 'Buy 2 x H200' priced at a whole $336,000 8-card server); rented, how the card is rented (the
clouds on record that rent it) or that no rental price is on record, never that it can only be bought (review BW
#12: a renter told the Ascend 910B is 'only sold as whole 8-card servers'). Words: catalog head.server_*."""

from __future__ import annotations

from collections.abc import Callable

from gpu_advisor.assistant.catalog import say
from gpu_advisor.knowledge.clouds import clouds
from gpu_advisor.knowledge.purchase import whole_boards
from gpu_advisor.tools.recommend import Option


def partial_server(o: Option) -> bool:
    """The plan takes part of a server's cards (2 of an 8-card machine), none of them owned."""
    return o.sold_in > 1 and o.gpus % o.sold_in != 0 and not o.owned_gpus


def bought_head(o: Option, job: str, lang: str, cash: Callable[[float], str]) -> str:
    """'Buy one 8 × H200 server ($336,000) for serving; the plan runs on 2 of its 8 cards'."""
    cards = whole_boards(o.gpus, o.sold_in)
    servers = cards // o.sold_in
    key = "head.server_buy_one" if servers == 1 else "head.server_buy"
    return say(lang, key, n=servers, unit=o.sold_in, gpu=o.gpu_name, usd=cash(o.purchase_usd or 0.0), job=job,
               used=o.gpus, cards=cards)


def rent_note(o: Option, lang: str) -> str:
    """What a renter is told of a card with no rental price on record: the clouds on record that rent it, else only
    that no rental price is on record (ask a cloud)."""
    names = [c.name_zh if lang == "zh" else c.name for c in clouds().values() if o.gpu in c.gpus]
    if names:
        return say(lang, "head.server_rent_clouds", clouds=say(lang, "list_sep").join(names))
    return say(lang, "head.server_rent_unpriced")


def unit_note(o: Option, action: str, unpriced: bool, server: bool, lang: str, bought: bool = False) -> str:
    """What the headline says after the plan of a card sold in servers or priced nowhere: rented and unpriced, how it
    is rented (review BW #12); bought and unpriced, the server it comes in and a vendor to ask; bought on part of a
    server not already headed as the server, that it is sold only as whole servers."""
    if unpriced and action == "rent":
        return rent_note(o, lang)
    if unpriced:  # `bought`: a purchase said ('数据不出院'), so only the purchase price is missing
        whole = say(lang, "head.unit_part", unit=o.sold_in) if o.gpus % o.sold_in else ""
        return say(lang, "head.unpriced_buy_note" if bought else "head.unpriced_note",
                   unit=whole + say(lang, "sep") if whole else "")
    if action == "buy" and o.gpus % o.sold_in and not server:
        return say(lang, "head.unit", unit=o.sold_in)
    return ""
