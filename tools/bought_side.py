"""The buying side of a rented service's rent-or-buy comparison: the cheapest machine that does the same job,
bought, not the rented card packaged as the whole server it is sold in (review s29: 'rent or buy?' for Phi-4 to 25
users on $20k weighed one rented A100 against a $200,000 8 x A100 server, 'buying never pays off', while the
buy-only answer bought one RTX PRO 6000 for $14,565 that pays back in about 14 months).

The purchase is found by the same search the buy-only answer uses (tools.recommend on the workload as bought: the
ranking by purchase price within the budget, the cards warned against last), so 'we'd rather buy' afterwards names
the same machine. It replaces the rented plan's own purchase only when it costs less to buy; the rent side stays
the rented plan (its cards, its hours). The comparison itself is tools.cost.rent_vs_buy with buy_gpu and buy_gpus:
the rent of every rented card against the cards bought, their own price, power and hosting."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gpu_advisor.tools.cost import RentBuyResult
    from gpu_advisor.tools.recommend import Option, Recommendation, Workload


def weighed(w: Workload, best: Option | None, action: str) -> bool:
    """Whether the rent-or-buy comparison of this plan weighs a purchase of its own choosing: a service rented (one
    that trains too, a job that ends, cards of your own or cards named keep their own comparison)."""
    from gpu_advisor.tools.recommend import pinned_cards

    return (best is not None and action == "rent" and w.spec.serves and not w.spec.trains and not best.owned
            and not best.owned_gpus and not w.owned and not w.only_bought and not w.candidates
            and not pinned_cards(w) and w.preference != "buy")


def bought_side(w: Workload, best: Option | None, action: str, rb: RentBuyResult | None,
                search: Callable[[Workload], Recommendation]) -> tuple[Option | None, RentBuyResult | None]:
    """(the machine bought, the comparison against it) when the cheapest purchase that meets the same targets is
    not the rented plan's own cards and costs less to buy than they do; else (None, rb) unchanged."""
    if best is None or not weighed(w, best, action):
        return None, rb
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.recommend import as_bought, rent_or_buy_of

    try:
        found = search(as_bought(w))
    except (ToolError, LookupError, ValueError):
        return None, rb
    pick = found.best
    if pick is None or not pick.ok or pick.owned or pick.purchase_usd is None \
            or (pick.gpu, pick.gpus) == (best.gpu, best.gpus):
        return None, rb
    if best.purchase_usd is not None and best.purchase_usd <= pick.purchase_usd:
        return None, rb  # (the rented plan's own purchase, its whole server included, is already the cheaper)
    its = rent_or_buy_of(w, best, bought_as=pick)
    return (pick, its) if its is not None else (None, rb)



def weighed_again(rec: Recommendation, search: Callable[[Workload], Recommendation]) -> Recommendation:
    """A plan a lever changed (an FP8 KV cache, a 4-bit file: sized without levers, so with no buying side of its
    own) weighs its buying side again on the workload it now has (session 29: 'phi-4 for 25 users, ¥21,000, 租还是买？'
    rented one 4090 with an FP8 KV cache and weighed no purchase, while a used 3090 bought does the same job)."""
    if rec.bought is not None:
        return rec
    bought, rb = bought_side(rec.workload, rec.best, rec.action, rec.rent_or_buy, search)
    return rec if bought is None else rec.model_copy(update={"bought": bought, "rent_or_buy": rb})
