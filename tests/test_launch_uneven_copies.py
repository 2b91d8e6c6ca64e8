"""Copies that do not divide evenly over the servers (5 copies of TP2 on two 8-card servers): the command starts the
first server's share and the note says how many the others run, so the copies started are the plan's (review BK #7:
'--data-parallel-size 2' on each of 2 servers started 4 of 5)."""

from __future__ import annotations

import pytest

from gpu_advisor.tools.launch import launch_for
from gpu_advisor.tools.recommend import Workload, recommend

RATE = dict(phase="serve", model="qwen2.5-14b", context=2304, prompt_tokens=2048, output_tokens=256, ttft_ms=500.0,
            region="china", preference="rent", utilisation=1.0, candidates=["h800-sxm"])


def _argv_value(argv: list[str], flag: str) -> int | None:
    return int(argv[argv.index(flag) + 1]) if flag in argv else None


@pytest.mark.parametrize(("precision", "rate"), [("awq", 25.0), ("fp8", 25.0), ("bf16", 25.0), ("awq", 12.0),
                                                 ("fp8", 60.0)])
def test_the_copies_started_are_the_plans(precision: str, rate: float) -> None:
    rec = recommend(Workload(**RATE, serve_precision=precision, requests_per_s=rate))
    best = rec.best
    cmd = launch_for(rec)
    per = _argv_value(cmd.argv, "--data-parallel-size") or 1
    servers = best.servers or 1
    split = next((n for n in cmd.notes if n.code == "each_server_split"), None)
    if split is None:
        assert per * servers == best.replicas
    else:
        v = split.values
        assert v["copies"] == per and v["fewer"] == per - 1
        assert v["fuller"] * per + v["rest"] * (per - 1) == best.replicas == v["total"]
    assert per * (cmd.tp or 1) <= 8  # one server's share fits its 8 cards


def test_review_bk7_awq_five_copies_on_two_servers() -> None:
    rec = recommend(Workload(**RATE, serve_precision="awq", requests_per_s=25.0))
    assert (rec.best.gpus, rec.best.tp, rec.best.replicas) == (10, 2, 5)
    cmd = launch_for(rec)
    assert _argv_value(cmd.argv, "--data-parallel-size") == 3
    assert [n.values for n in cmd.notes if n.code == "each_server_split"] == [
        {"servers": 2, "fuller": 1, "copies": 3, "rest": 1, "fewer": 2, "flag": "--data-parallel-size", "total": 5}]
