"""The pairwise covering arrays the generated tests use (tests/covering.py): every pair of values of any two
dimensions in some row, every value of every dimension said, the same rows on every run, far fewer than the product."""

from __future__ import annotations

import itertools
import math

import pytest

from tests.covering import pairwise, uncovered_pairs

SHAPES = [(7, 5, 7, 5, 3, 2), (2, 5, 7, 3, 7, 5), (3, 3, 3, 3), (2,) * 10, (10, 10, 2, 2), (5, 1, 4), (4, 3), (1, 1)]


def _dims(shape: tuple[int, ...]) -> list[list[str]]:
    return [[f"d{d}v{i}" for i in range(n)] for d, n in enumerate(shape)]


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_every_pair_of_values_of_any_two_dimensions_is_in_a_row(shape):
    dims = _dims(shape)
    rows = pairwise(*dims)
    assert uncovered_pairs(rows, *dims) == []
    assert all(len(row) == len(dims) and all(row[d] in dims[d] for d in range(len(dims))) for row in rows)
    for d, values in enumerate(dims):  # every value of every dimension is said
        assert {row[d] for row in rows} == set(values)


@pytest.mark.parametrize(("shape", "rows"), [((7, 5, 7, 5, 3, 2), 50), ((2, 5, 7, 3, 7, 5), 50), ((3, 3, 3, 3), 10),
                                             ((2,) * 10, 14), ((10, 10, 2, 2), 100)])
def test_the_rows_are_few_and_the_same_on_every_run(shape, rows):
    dims = _dims(shape)
    first = pairwise(*dims)
    assert len(first) == rows < math.prod(shape)
    assert pairwise(*dims) == first
    assert len(first) >= sorted(shape)[-1] * sorted(shape)[-2]  # no fewer than the two longest dimensions crossed


def test_two_dimensions_are_crossed_in_full_and_one_is_listed():
    assert pairwise("ab", "xy") == [("a", "x"), ("a", "y"), ("b", "x"), ("b", "y")]
    assert sorted(pairwise("ab", "xy")) == sorted(itertools.product("ab", "xy"))
    assert pairwise("abc") == [("a",), ("b",), ("c",)]
    assert pairwise("ab", "") == [] and pairwise() == []


def test_a_missing_pair_is_found():
    rows = [("a", "x", "1"), ("b", "y", "1")]
    assert uncovered_pairs(rows, "ab", "xy", "12") == [
        (0, "a", 1, "y"), (0, "b", 1, "x"), (0, "a", 2, "2"), (0, "b", 2, "2"), (1, "x", 2, "2"), (1, "y", 2, "2")]
