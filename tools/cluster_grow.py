"""A training cluster of your own that misses a deadline grows on its own fabric.

'We have 32 H100, how many more to finish in two weeks?', '我们集群现在有32张H100…两周内搞定还要再加多少卡': the cards
added are bought (or leased) into the same cluster, on its InfiniBand fabric, so one job spans them all; rented
cloud cards cannot join it (gradients synced over the internet), but more of the same card in the same racks can.
The count is then the total the deadline needs less the cards owned (review AU17: a separate 64 x H800 cluster was
rented instead). Only data-centre cards in whole servers (a cluster, not a workstation) grow this way."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gpu_advisor.knowledge.schema import Gpu
    from gpu_advisor.tools.recommend import Workload

# The fewest cards owned that make a training cluster (one HGX/DGX server's worth)
CLUSTER_FROM = 8


def grows_cluster(w: Workload, gpu: Gpu, count: int) -> bool:
    """Whether a training job on `count` owned `gpu` cards that misses its deadline may add more of the same card
    beside them (bought into the same cluster): data-centre cards, a whole server or more, a deadline said."""
    return bool(w.spec.trains and w.deadline_hours and gpu.segment == "datacenter" and count >= CLUSTER_FROM)
