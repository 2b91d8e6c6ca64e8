"""`make bench`: accuracy against published measurements, speed and scale, each against a baseline
measured in the same run (python -m bench [accuracy] [speed] [scale])."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any


def median_seconds(fn: Callable[[], Any], runs: int = 41) -> float:
    """The median time of `runs` calls of fn, after one warm-up call (imports, caches)."""
    fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)
