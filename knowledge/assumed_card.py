"""The figures a card is sized with when only its memory is known (a card the catalog does not hold, named with its
memory: 'rx 5995 16gb', 'Radeon Pro W7800 (32gb)'): the median bandwidth and 16-bit compute of the catalog's desktop
and workstation cards with that much memory (the nearest memory on record when none has exactly that), so that the
user's own card is sized as theirs, with what is assumed said, rather than swapped for one to buy."""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from functools import cache

from gpu_advisor.knowledge.loader import builtin_gpus


@dataclass(frozen=True)
class AssumedFigures:
    bandwidth_gbps: float  # the peers' median memory bandwidth
    bf16_tflops: float  # the peers' median dense 16-bit compute
    peer_memory_gb: float  # the memory of the peers (the memory said, or the nearest on record)
    peers: int  # how many cards the medians are taken over


def _peers() -> list:
    return [g for g in builtin_gpus() if g.segment in ("consumer", "workstation") and not g.laptop]


@cache
def assumed_figures(memory_gb: float) -> AssumedFigures:
    """The figures a card of `memory_gb` with no record is sized with (see the module's words)."""
    cards = _peers()
    peer = min({g.memory_gb for g in cards}, key=lambda m: (abs(m - memory_gb), m))  # a tie: the smaller memory
    same = sorted((g for g in cards if g.memory_gb == peer), key=lambda g: g.id)
    return AssumedFigures(bandwidth_gbps=round(statistics.median(g.memory_bandwidth_gbps for g in same)),
                          bf16_tflops=round(statistics.median(g.bf16_tflops for g in same), 1),
                          peer_memory_gb=same[0].memory_gb, peers=len(same))


__all__ = ["AssumedFigures", "assumed_figures"]
