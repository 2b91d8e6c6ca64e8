"""A server bought whole: 'is buying an H20 server or renting A800s cheaper' for a job that takes two cards weighs
the 8-card server against the two rented (review AY 20), never two H20s nobody sells alone. The reader marks the
purchase said as a machine (reading.buy_weighed.bought_as_server, u.ask['buy_or_rent']['server'])."""

from __future__ import annotations

from math import ceil
from typing import Any

from gpu_advisor.knowledge import find_gpu, rules


def whole_server(spec: dict[str, Any], n: int) -> int:
    """The cards bought for a job that takes `n`: whole servers of the card when the purchase is said as a server
    (a server-class card; a desktop card goes into the PC the user has), else `n`."""
    if not spec.get("server"):
        return n
    gpu = find_gpu(spec["buy"])
    if gpu.host_kind == "consumer":
        return n
    per = gpu.sold_in if gpu.sold_in > 1 else rules().host_systems[gpu.host_kind].gpus
    return ceil(n / per) * per if per > 1 else n
