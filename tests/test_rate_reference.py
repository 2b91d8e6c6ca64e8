"""The request-rate model (tools.queueing) against published serving sweeps (tests/reference/serving_rate.csv).

Few rows are public with their model, card, lengths and load all stated: 25 here, from 6 sources (vLLM 0.11-0.23,
SGLang 0.5; an RTX 4090, an L4, an A100 40GB, H100s). The rows that load a replica by its concurrency (vLLM's
--max-concurrency, closed loops) check rate <-> concurrency <-> latency through Little's law:
throughput = concurrency / (first token + (output - 1) x time per output token); the one at a request rate
(Poisson arrivals) goes through tools.queueing.load_point.
"""

from __future__ import annotations

import csv
import statistics
from pathlib import Path

import pytest

from gpu_advisor.tools.queueing import load_point, unit_physics

ROWS = list(csv.DictReader((Path(__file__).parent / "reference" / "serving_rate.csv").open(encoding="utf-8")))
MODEL = {"mistralai/Mistral-7B-Instruct-v0.3": "mistral-7b-v0.3", "Qwen/Qwen3-0.6B": "qwen3-0.6b",
         "meta-llama/Llama-3.1-8B-Instruct": "llama-3.1-8b", "Qwen/Qwen2.5-0.5B-Instruct": "qwen2.5-0.5b",
         "Qwen/Qwen3-8B": "qwen3-8b"}
# the time per output token, read as a mean or a median (the model gives one figure for a steady batch), and the
# median gap between tokens, which at a steady batch is the same decode step
PER_TOKEN = ("tpot_mean", "tpot_median", "itl_median")


def predicted(row: dict[str, str]) -> float:
    prompt, output, load = int(row["prompt_tokens"]), int(row["output_tokens"]), float(row["load"])
    engine = "sglang" if row["engine"] == "sglang" else "vllm"
    u = unit_physics(MODEL[row["model"]], row["gpu"], engine, "bf16", None, 1, 1, prompt, prompt, output)
    assert u is not None
    if row["load_kind"] == "max_concurrency":  # a closed loop of `load` requests: solve Little's law for the rate
        rate, tpot = 1.0, 0.0
        for _ in range(200):
            tpot = u.step(load) / (1 - rate * prompt * u.prefill_s_per_token)
            rate = load / (prompt * u.prefill_s_per_token + u.step(load) + (output - 1) * tpot)
        return {"request_throughput": rate, **dict.fromkeys(PER_TOKEN, tpot * 1000)}[row["metric"]]
    p = load_point(u, load, prompt, prompt, output, output, prompt_cv2=0.0)  # fixed lengths, Poisson arrivals
    return {**dict.fromkeys(PER_TOKEN, p.tpot_p50_s * 1000), "ttft_mean": p.ttft_p50_s * 1000}[row["metric"]]


def errors() -> list[float]:
    return [predicted(r) / float(r["value"]) - 1 for r in ROWS]


def median_abs(rows: list[dict[str, str]]) -> float:
    return statistics.median(abs(predicted(r) / float(r["value"]) - 1) for r in rows)


def test_every_row_names_its_source_and_conditions():
    assert len(ROWS) == 25
    assert len({r["source_id"] for r in ROWS}) == 6
    for r in ROWS:
        assert r["source_url"].startswith("https://") and r["as_of"] and r["engine_version"] and r["notes"]
        assert r["model"] in MODEL and r["gpu"] and int(r["prompt_tokens"]) > 0 and int(r["output_tokens"]) > 0


def test_median_error_is_the_one_in_the_readme():
    # README, Accuracy: 25 rows, median absolute error 23%
    assert statistics.median(abs(e) for e in errors()) == pytest.approx(0.232, abs=0.01)


@pytest.mark.parametrize(("metrics", "median"), [(("request_throughput",), 0.172), (PER_TOKEN, 0.347),
                                                 (("ttft_mean",), 0.868)])
def test_median_error_per_metric_is_the_one_in_the_readme(metrics, median):
    # README, Accuracy: request throughput 17% (13 rows), time per output token 35% (11), first token 87% (1)
    assert median_abs([r for r in ROWS if r["metric"] in metrics]) == pytest.approx(median, abs=0.01)


@pytest.mark.parametrize("row", [r for r in ROWS if r["metric"] == "request_throughput"],
                         ids=lambda r: f"{r['source_id']}-{r['engine']}-c{r['load']}")
def test_throughput_at_a_concurrency_within_30_percent_low(row):
    # Little's law with the decode and prefill physics: 4-28% low over four cards (the decode step's fixed
    # overhead is larger in tools.throughput than in vLLM 0.11-0.23, see below); the conservative side
    assert -0.3 <= predicted(row) / float(row["value"]) - 1 <= 0.05


@pytest.mark.parametrize("row", [r for r in ROWS if r["metric"] in PER_TOKEN and r["source_id"] != "KVCACHED_H100"],
                         ids=lambda r: f"{r['source_id']}-{r['engine']}-c{r['load']}-{r['metric']}")
def test_time_per_token_within_50_percent_high(row):
    # +24% to +45% at 1-32 in flight on an L4, an A100 and H100s: tools.throughput's vLLM step overhead (3 ms
    # + 10 us a layer, fitted on older vLLM rows) against the 0-1.1 ms these runs imply; -12% at 16 in flight
    assert -0.15 <= predicted(row) / float(row["value"]) - 1 <= 0.5


def test_time_per_token_is_high_at_small_batches_on_every_card():
    # the systematic error, kept visible: at 1-4 in flight every card's decode step is predicted 28-45% slow
    small = [predicted(r) / float(r["value"]) - 1 for r in ROWS if r["metric"] in PER_TOKEN and float(r["load"]) <= 4
             and r["source_id"] != "KVCACHED_H100"]
    assert len(small) == 7 and min(small) > 0.25 and max(small) < 0.5


def test_known_misses_stay_known():
    by = {(r["source_id"], r["metric"]): predicted(r) / float(r["value"]) - 1 for r in ROWS}
    # a 0.6B model: vLLM's per-step overhead (3 ms, fitted on 7B-class rows) is most of its decode step, and
    # the API server's own tens of milliseconds per request, not modelled, are most of its first token
    assert by[("KVCACHED_H100", "tpot_mean")] > 0.4
    assert by[("KVCACHED_H100", "ttft_mean")] < -0.7
