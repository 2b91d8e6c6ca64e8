"""The link between the accelerators inside one server, from the card's record (knowledge gpus.yaml interconnect):
NVLink, Infinity Fabric and Huawei's HCCS are fast in-server links; a card with none talks over PCIe.

HCCS (Huawei Cache Coherence System) links the 8 NPUs of an Atlas 800T/800I A2 server (Ascend 910B) all-to-all;
the card's record holds no sourced per-chip bandwidth (nvlink_gbps empty), so a tensor-parallel all-reduce over it
is sized at HCCS_FLOOR_GBPS in one direction: a conservative floor, a quarter of the ~392 GB/s per NPU that
third-party pages give for the 8-card full mesh (7 links), four times PCIe 4.0 x16. Said as such, never as a
measurement."""
from __future__ import annotations

from gpu_advisor.knowledge.schema import Gpu

# one direction, GB/s: the floor a fast in-server link with no sourced figure is sized at (see above)
HCCS_FLOOR_GBPS = 100.0
# the in-server links the speed model treats like NVLink, by the record's interconnect
FAST_LINKS = ("nvlink", "nvlink-bridge", "infinity-fabric", "hccs")


def fast_link_gbps(gpu: Gpu) -> float | None:
    """GB/s in one direction of the card's fast in-server link, None when it has none (PCIe only): the record's
    figure halved (nvlink_gbps counts both directions), else HCCS_FLOOR_GBPS for an HCCS card."""
    if gpu.interconnect not in FAST_LINKS:
        return None
    if gpu.nvlink_gbps:
        return gpu.nvlink_gbps / 2
    return HCCS_FLOOR_GBPS if gpu.interconnect == "hccs" else None


def in_server_link(gpu: Gpu) -> str | None:
    """The name of the card's fast in-server link ('nvlink', 'hccs', 'infinity-fabric', 'nvlink-bridge'), None
    when tensor parallelism goes over PCIe."""
    return gpu.interconnect if fast_link_gbps(gpu) is not None else None
