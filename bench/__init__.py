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


# One row of an error summary: (what, source, rows, median absolute error, bias, the worst rows).
Summary = tuple[str, str, int, float, float, list[Any]]


def print_errors(title: str, heading: str, rows: list[Summary], worst: Callable[[Any], str], width: int = 18) -> None:
    """An error summary as the bench prints it: one line per (what, source), with its worst rows."""
    print(title)
    print(f"{heading:32} {'source':{width}} {'rows':>5} {'median':>8} {'bias':>7}  worst rows")
    for what, source, n, median, bias, bad in rows:
        print(f"{what:32} {source:{width}} {n:5d} {median:8.1%} {bias:+7.1%}  " + "; ".join(worst(x) for x in bad))


def print_readme_table(name: str, heading: str, rows: list[Summary]) -> None:
    """The same summary as the README's markdown table."""
    print()
    print(f"README table ({name}):")
    print(f"| {heading} | source | rows | median abs. error | bias |")
    print("|---|---|---:|---:|---:|")
    for what, source, n, median, bias, _ in rows:
        print(f"| {what} | {source} | {n} | {median:.1%} | {bias:+.1%} |")
