"""Issue 23 states `make bench`'s targets as median and p90 error per engine and backend: the bench's summary
carries the 90th percentile of the absolute error beside the median, and prints it in both tables."""

from __future__ import annotations

import pytest

from bench import percentile, print_errors, print_readme_table
from bench.accuracy import Report, Scored, summary


def _report(tool: str, source: str, errors: list[float]) -> Report:
    # predicted = measured x (1 + error) on a measured value of 100
    return Report(scored=[Scored(tool, source, str(i), f"row {i}", 100.0, 100.0 * (1 + e)) for i, e in enumerate(errors)])


@pytest.mark.parametrize("errors", [
    [0.01, -0.02, 0.03, -0.04, 0.05, -0.06, 0.07, -0.08, 0.09, -0.10],
    [0.5, 0.0, 0.0, 0.0, 0.0],
    [-0.3, 0.1],
    [0.02],
])
def test_summary_gives_median_and_p90_of_the_absolute_error(errors):
    (row,) = summary(_report("llama.cpp decode", "SOURCE", errors))
    tool, source, n, median, p90, bias, worst = row
    magnitudes = sorted(abs(e) for e in errors)
    assert (tool, source, n) == ("llama.cpp decode", "SOURCE", len(errors))
    assert p90 == pytest.approx(percentile(magnitudes, 90))
    assert median <= p90 <= max(magnitudes) + 1e-12
    assert bias == pytest.approx(sum(errors) / len(errors))
    assert abs(worst[0].error) == pytest.approx(max(magnitudes))


def test_p90_is_the_interpolated_rank_not_the_worst_row():
    # ten rows 1 %..10 %: rank 0.9 x 9 = 8.1 -> 9.1 %; the median is 5.5 %
    (row,) = summary(_report("vLLM KV capacity", "S", [i / 100 for i in range(1, 11)]))
    assert row[3] == pytest.approx(0.055) and row[4] == pytest.approx(0.091)


def test_every_engine_line_and_the_all_sources_line_get_a_p90():
    report = _report("llama.cpp decode", "A", [0.1, 0.2])
    report.scored += _report("llama.cpp decode", "B", [0.3, 0.4, 0.5]).scored
    rows = {(r[0], r[1]): r for r in summary(report)}
    assert set(rows) == {("llama.cpp decode", "A"), ("llama.cpp decode", "B"), ("llama.cpp decode", "all sources")}
    assert rows[("llama.cpp decode", "all sources")][4] == pytest.approx(percentile([0.1, 0.2, 0.3, 0.4, 0.5], 90))


def test_both_printed_tables_show_the_p90_column(capsys):
    rows = summary(_report("inference memory", "S", [0.01, 0.02, 0.03, 0.04, 0.2]))
    print_errors("title", "tool", rows, lambda s: s.label)
    print_readme_table("accuracy", "tool", rows)
    out = capsys.readouterr().out
    assert "p90" in out.splitlines()[1]
    assert "| tool | source | rows | median abs. error | p90 abs. error | bias |" in out
    assert "| inference memory | S | 5 | 3.0% | 13.6% | +6.0% |" in out
