"""A slow tool's results kept by input (tools.kept): the same input gives an equal copy the caller may change, a new
GPU catalog computes afresh, errors are raised each time; the rate sizing and a replica's capacity keep theirs."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from gpu_advisor.tools import kept as kept_module
from gpu_advisor.tools.common import ToolError
from gpu_advisor.tools.kept import kept_results
from gpu_advisor.tools.queueing import RateInput, capacity, size_by_rate


class In(BaseModel):
    n: int
    label: str = "x"


class Out(BaseModel):
    n: int
    notes: list[str] = []


def _counted(most: int = 2):
    calls: list[int] = []

    @kept_results(most)
    def tool(inp: In) -> Out:
        calls.append(inp.n)
        if inp.n < 0:
            raise ToolError("negative")
        return Out(n=inp.n * 2, notes=[inp.label])

    return tool, calls


@pytest.mark.parametrize("label", ["x", "卡", ""])
def test_the_same_input_is_computed_once_and_each_caller_gets_its_own_copy(label):
    tool, calls = _counted()
    first = tool(In(n=3, label=label))
    first.notes.append("changed by the caller")
    second = tool(In(n=3, label=label))
    assert calls == [3]
    assert second == Out(n=6, notes=[label]) and second is not first
    second.notes.clear()
    assert tool(In(n=3, label=label)).notes == [label]


def test_inputs_that_differ_in_any_field_are_computed_apart():
    tool, calls = _counted(most=8)
    assert [tool(In(n=1, label=s)).notes for s in ("a", "b", "a")] == [["a"], ["b"], ["a"]]
    assert [tool(In(n=k)).n for k in (1, 2, 1)] == [2, 4, 2]  # label "x": a third input, then a fourth
    assert calls == [1, 1, 1, 2]


def test_the_least_recently_used_goes_first_when_full():
    tool, calls = _counted(most=2)
    for k in (1, 2, 1, 3, 1, 2):  # 3 pushes out 2 (1 was used since); 2 is computed again
        tool(In(n=k))
    assert calls == [1, 2, 3, 2]


def test_errors_are_raised_each_time_never_kept():
    tool, calls = _counted()
    for _ in range(2):
        with pytest.raises(ToolError, match="negative"):
            tool(In(n=-1))
    assert calls == [-1, -1]


def test_a_new_gpu_catalog_computes_afresh(monkeypatch):
    tool, calls = _counted()
    tool(In(n=5))
    monkeypatch.setattr(kept_module, "gpus", lambda: ("another catalog",))
    assert tool(In(n=5)).n == 10
    assert calls == [5, 5]


RATE = RateInput(model="llama-3.1-8b", gpu="l40s", requests_per_s=4, prompt_tokens=1000, output_tokens=300,
                 ttft_p99_ms=2000)


def test_rate_sizing_asked_again_is_the_same_plan_and_a_copy():
    first = size_by_rate(RATE)
    first.warnings.append("changed by the caller")
    again = size_by_rate(RATE.model_copy())
    assert again.model_dump() == {**first.model_dump(), "warnings": first.warnings[:-1]}
    assert (again.gpus, again.replicas) == (first.gpus, first.replicas) and again.gpus >= 1


def test_a_replicas_capacity_is_computed_once_for_every_rate_tried():
    capacity.cache_clear()
    size_by_rate(RATE.model_copy(update={"requests_per_s": 3.0}))
    misses = capacity.cache_info().misses
    size_by_rate(RATE.model_copy(update={"requests_per_s": 3.1}))  # another rate on the same replicas
    info = capacity.cache_info()
    assert misses >= 1 and info.misses == misses and info.hits >= misses
