"""What the cards the user named with a count hold of a service they cannot hold as asked (review CT C8: '说错了，是四张
L20，上下文要64k' for 80 people showed 8 x L20 nobody named and never said what the four carry: about 8 full 64k
conversations at once, twice that with an FP8 KV cache, or all 80 at a shorter context).

One kind of card with one count named for a service of several people at once ('4x l20'), no request rate, nothing
meeting every target on that count: the longest context per user with every user at once, and the most users at once
at the context asked, each with the KV cache as planned and in 8 bits (tools.owned_limit.limits_on, the same search
as on cards you own). Each figure is the card evaluated by tools.recommend; nothing is sized here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gpu_advisor.tools.owned_limit import OwnedLimit, limits_on

if TYPE_CHECKING:
    from gpu_advisor.tools.recommend import Recommendation, Workload

# a service of at least this many people at once: one or two at home are answered by a smaller file or model
NAMED_MIN_USERS = 2


def named_limit(w: Workload, rec: Recommendation) -> OwnedLimit | None:
    """The limits of the count named (see the module); None where it does not apply or the count holds the job."""
    from gpu_advisor.tools.recommend import parse_owned, pinned_cards

    pinned = sorted(pinned_cards(w))
    if len(pinned) != 1 or w.owned or not (w.spec.serves and not w.spec.trains and not w.spec.batch) \
            or w.users < NAMED_MIN_USERS or w.requests_per_s or w._rate_per_s:
        return None
    count, gpu = parse_owned(pinned[0])
    if rec.best is not None and rec.best.ok and rec.best.gpu == gpu.id and rec.best.gpus <= count:
        return None  # the count named does the job
    row = next((o for o in rec.options if o.gpu == gpu.id and o.gpus == count and not o.owned), None)
    if row is None or row.ok:
        return None
    limit = limits_on(w, gpu, count, row.precision, owned=False)
    return limit if limit.holds else None
