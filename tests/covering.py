"""Pairwise (2-way) covering arrays for the generated tests: rows in which every pair of values of any two
dimensions appears together at least once, so every value of every dimension is said, and said beside every value
of every other dimension, in far fewer rows than the full cartesian product (fillers x spellings x orders x
languages: 7,350 messages become about 50).

Built deterministically (IPOG: the two longest dimensions crossed in full, then each further dimension, longest
first, added to the rows so as to cover the most pairs not yet covered, the lowest value first on a tie, and rows
added for the pairs left): the same rows on every run, in the same order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def pairwise(*dims: Sequence[Any]) -> list[tuple[Any, ...]]:
    """Rows (one value of each dimension, in the dimensions' order) covering every pair of values of any two
    dimensions. One dimension gives each of its values once; an empty dimension gives no rows."""
    if not dims or 0 in map(len, dims):
        return []
    if len(dims) == 1:
        return [(v,) for v in dims[0]]
    order = sorted(range(len(dims)), key=lambda d: -len(dims[d]))  # longest first: the fewest rows
    return [tuple(row[order.index(d)] for d in range(len(dims))) for row in _ipog([dims[d] for d in order])]


def _ipog(dims: Sequence[Sequence[Any]]) -> list[tuple[Any, ...]]:
    sizes = [len(d) for d in dims]
    rows: list[list[int | None]] = [[a, b] for a in range(sizes[0]) for b in range(sizes[1])]
    for k in range(2, len(dims)):
        uncovered = {(i, a, b) for i in range(k) for a in range(sizes[i]) for b in range(sizes[k])}
        for row in rows:  # each row takes the value of dimension k that covers the most pairs still uncovered
            best = max(range(sizes[k]), key=lambda b: (sum((i, row[i], b) in uncovered for i in range(k)), -b))
            row.append(best)
            uncovered -= {(i, row[i], best) for i in range(k)}
        added: list[list[int | None]] = []
        for i, a, b in sorted(uncovered):  # the pairs left: into a row added for its value of dimension k, or a new one
            row = next((r for r in added if r[k] == b and r[i] is None), None)
            if row is None:
                row = [None] * k + [b]
                added.append(row)
            row[i] = a
        rows += added
    # a value no pair needed: the dimension's values in turn, row by row
    return [tuple(dims[d][v if v is not None else n % sizes[d]] for d, v in enumerate(row)) for n, row in enumerate(rows)]


def uncovered_pairs(rows: Sequence[Sequence[Any]], *dims: Sequence[Any]) -> list[tuple[int, Any, int, Any]]:
    """The pairs (dimension i, its value, dimension j, its value) that no row holds together: none for a covering
    array."""
    held = {(i, row[i], j, row[j]) for row in rows for i in range(len(dims)) for j in range(i + 1, len(dims))}
    return [(i, a, j, b) for i in range(len(dims)) for j in range(i + 1, len(dims))
            for a in dims[i] for b in dims[j] if (i, a, j, b) not in held]
