"""What buying N cards really costs: whole purchasable units plus the machines they go into.

A single H100 SXM module cannot be bought; it comes on an 8-GPU board inside an HGX server, and two
RTX 4090s need a PC around them. Pricing "N x card price" alone understates board parts by an
order of magnitude and makes consumer cards look free of a host.
"""

from __future__ import annotations

from math import ceil

from gpu_advisor.knowledge.loader import rules
from gpu_advisor.knowledge.schema import Gpu


def whole_boards(n: int, sold_in: int) -> int:
    """The cards bought to have `n` of a card sold only in boards of `sold_in` (5 H100 SXM -> 8): the one place
    that rounds up to whole servers."""
    return ceil(n / sold_in) * sold_in


def purchase_usd(gpu: Gpu, n: int) -> float | None:
    """Cost of buying `n` of this card ready to run, in USD; None when the card has no price on record.

    ceil(n / sold_in) * sold_in cards (whole boards) + ceil(n / host gpus) host machines.
    """
    if n < 1:
        raise ValueError("a purchase needs at least one card")
    if gpu.buy_price_usd is None:
        return None
    cards = whole_boards(n, gpu.sold_in)
    return cards * gpu.buy_price_usd + host_usd(gpu, n)


def host_usd(gpu: Gpu, n: int) -> float:
    """The machines around `n` cards (PCs, workstations, server chassis), in USD: part of purchase_usd."""
    host = rules().host_systems[gpu.host_kind]
    return ceil(n / host.gpus) * host.usd


def server_usd_per_gpu(gpu: Gpu, n: int) -> float | None:
    """The price per card of buying `n` ready to run (purchase_usd over the cards): the whole server, chassis and
    all, for cards that go into one; a desktop card alone (it goes into the PC you have). None when unpriced."""
    if gpu.host_kind == "consumer":
        return gpu.buy_price_usd
    whole = purchase_usd(gpu, n)
    return whole / n if whole is not None else None
