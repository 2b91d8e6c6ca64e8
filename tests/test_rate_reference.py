"""The request-rate model (tools.queueing) against published serving sweeps (tests/reference/serving_rate.csv).

Few rows are public with their model, card, lengths and load all stated: 8 here, from 3 sources. The rows
that load a replica by its concurrency (vLLM's --max-concurrency) check rate <-> concurrency <-> latency
through Little's law: throughput = concurrency / (first token + (output - 1) x time per output token).
"""

from __future__ import annotations

import csv
import statistics
from pathlib import Path

import pytest

from gpu_advisor.tools.queueing import load_point, unit_physics

ROWS = list(csv.DictReader((Path(__file__).parent / "reference" / "serving_rate.csv").open(encoding="utf-8")))
MODEL = {"mistralai/Mistral-7B-Instruct-v0.3": "mistral-7b-v0.3", "Qwen/Qwen3-0.6B": "qwen3-0.6b",
         "meta-llama/Llama-3.1-8B-Instruct": "llama-3.1-8b"}


def predicted(row: dict[str, str]) -> float:
    prompt, output, load = int(row["prompt_tokens"]), int(row["output_tokens"]), float(row["load"])
    u = unit_physics(MODEL[row["model"]], row["gpu"], "vllm", "bf16", None, 1, 1, prompt, prompt, output)
    assert u is not None
    if row["load_kind"] == "max_concurrency":  # a closed loop of `load` requests: solve Little's law for the rate
        rate, tpot = 1.0, 0.0
        for _ in range(200):
            tpot = u.step(load) / (1 - rate * prompt * u.prefill_s_per_token)
            rate = load / (prompt * u.prefill_s_per_token + u.step(load) + (output - 1) * tpot)
        return {"request_throughput": rate, "tpot_mean": tpot * 1000}[row["metric"]]
    p = load_point(u, load, prompt, prompt, output, output, prompt_cv2=0.0)  # fixed lengths, Poisson arrivals
    return {"tpot_mean": p.tpot_p50_s * 1000, "ttft_mean": p.ttft_p50_s * 1000}[row["metric"]]


def errors() -> list[float]:
    return [predicted(r) / float(r["value"]) - 1 for r in ROWS]


def test_every_row_names_its_source_and_conditions():
    assert len(ROWS) == 8
    for r in ROWS:
        assert r["source_url"].startswith("https://") and r["as_of"] and r["model"] and r["gpu"]


def test_median_error_is_the_one_in_the_readme():
    # README, Accuracy: 8 rows, median absolute error 17%
    assert statistics.median(abs(e) for e in errors()) == pytest.approx(0.174, abs=0.01)


@pytest.mark.parametrize("row", [r for r in ROWS if r["metric"] == "request_throughput"],
                         ids=lambda r: f"{r['source_id']}-c{r['load']}")
def test_throughput_at_a_concurrency_within_20_percent(row):
    # Little's law with the decode and prefill physics: 7-19% low on the RTX 4090 (its decode step is
    # slower in tools.throughput than measured); the conservative side
    assert -0.2 <= predicted(row) / float(row["value"]) - 1 <= 0.05


def test_known_misses_stay_known():
    by = {(r["source_id"], r["metric"]): predicted(r) / float(r["value"]) - 1 for r in ROWS}
    # a 0.6B model: vLLM's per-step overhead (3 ms, fitted on 7B-class rows) is most of its decode step, and
    # the API server's own tens of milliseconds per request, not modelled, are most of its first token
    assert by[("KVCACHED_H100", "tpot_mean")] > 0.4
    assert by[("KVCACHED_H100", "ttft_mean")] < -0.7
