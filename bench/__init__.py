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


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0-100) with linear interpolation between the closest ranks (numpy's default,
    statistics.quantiles' 'inclusive' method): rank q/100 x (n - 1) of the sorted values."""
    if not values:
        raise ValueError("percentile of no values")
    xs = sorted(values)
    pos = q / 100 * (len(xs) - 1)
    i = int(pos)
    if i + 1 >= len(xs):
        return xs[-1]
    return xs[i] + (xs[i + 1] - xs[i]) * (pos - i)


# One row of an error summary: (what, source, rows, median absolute error, 90th percentile of the absolute
# error, bias, the worst rows). Issue 23 states its targets as median and p90 per engine and backend.
Summary = tuple[str, str, int, float, float, float, list[Any]]


def error_summary(what: str, source: str, errors: list[float], worst: list[Any]) -> Summary:
    """One summary row from the signed relative errors of its rows."""
    magnitudes = [abs(e) for e in errors]
    return (what, source, len(errors), statistics.median(magnitudes), percentile(magnitudes, 90),
            statistics.mean(errors), worst)


def print_errors(title: str, heading: str, rows: list[Summary], worst: Callable[[Any], str], width: int = 18) -> None:
    """An error summary as the bench prints it: one line per (what, source), with its worst rows."""
    print(title)
    print(f"{heading:32} {'source':{width}} {'rows':>5} {'median':>8} {'p90':>8} {'bias':>7}  worst rows")
    for what, source, n, median, p90, bias, bad in rows:
        print(f"{what:32} {source:{width}} {n:5d} {median:8.1%} {p90:8.1%} {bias:+7.1%}  "
              + "; ".join(worst(x) for x in bad))


def print_readme_table(name: str, heading: str, rows: list[Summary]) -> None:
    """The same summary as the README's markdown table."""
    print()
    print(f"README table ({name}):")
    print(f"| {heading} | source | rows | median abs. error | p90 abs. error | bias |")
    print("|---|---|---:|---:|---:|---:|")
    for what, source, n, median, p90, bias, _ in rows:
        print(f"| {what} | {source} | {n} | {median:.1%} | {p90:.1%} | {bias:+.1%} |")
