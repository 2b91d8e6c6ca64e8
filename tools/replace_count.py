"""How many of one card take over the throughput of a count of another ('需要多少张910B才能顶上原来 8 张 A800 的吞吐',
'how many 910B to replace our 8 A800s'): serving throughput at load follows memory bandwidth (each decode step reads
the weights and the KV cache), so the cards needed are the old cards' bandwidth over one new card's, rounded up, and
never fewer than the model needs to fit. Sold in whole servers: the servers that hold them, and the share of today's
throughput one server fewer keeps (review AO 15: 8 A800 -> 11 x 910B, two 8-card servers, or one at 78%)."""

from __future__ import annotations

import math

from pydantic import BaseModel

from gpu_advisor.knowledge import find_gpu


class ReplaceCount(BaseModel):
    old_gpu: str
    old_count: int
    new_gpu: str
    bandwidth_ratio: float  # one old card's bandwidth over one new card's
    needed: int  # new cards for the same throughput
    server_gpus: int
    servers: int  # whole servers that hold `needed`
    fewer_share: float | None  # share of today's throughput with one server fewer (None: one server already)


def replace_count(old_gpu: str, old_count: int, new_gpu: str, fit_gpus: int = 1, server_gpus: int = 8) -> ReplaceCount:
    """The new cards that match `old_count` old cards' serving throughput (bandwidth-bound), at least `fit_gpus`."""
    old, new = find_gpu(old_gpu), find_gpu(new_gpu)
    ratio = old.memory_bandwidth_gbps / new.memory_bandwidth_gbps
    needed = max(math.ceil(old_count * ratio - 1e-9), fit_gpus, 1)
    servers = math.ceil(needed / server_gpus)
    fewer = None
    if servers > 1:
        fewer = min(1.0, (servers - 1) * server_gpus / (old_count * ratio))
    return ReplaceCount(old_gpu=old.id, old_count=old_count, new_gpu=new.id, bandwidth_ratio=ratio, needed=needed,
                        server_gpus=server_gpus, servers=servers, fewer_share=fewer)
