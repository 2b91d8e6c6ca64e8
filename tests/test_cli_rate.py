"""`gpu-advisor size serving`: GPUs and replicas from a request rate, run as a separate process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
SERVING = ("size", "serving", "-m", "llama-3.1-8b", "--prompt", "1000", "--output", "200", "--gpu", "h100")


def run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "GPU_ADVISOR_DB": str(tmp_path / "h.db"), "GPU_ADVISOR_CACHE_DIR": str(tmp_path / "c"),
           "GPU_ADVISOR_CONFIG": str(tmp_path / "settings.toml")}
    return subprocess.run([sys.executable, "-m", "gpu_advisor.tui.cli", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)


def test_the_readme_example_sizes_two_h100s(tmp_path):
    r = run(tmp_path, *SERVING, "--rps", "20", "--ttft-p99", "2s", "--tpot", "50ms")
    assert r.returncode == 0, r.stderr
    assert "Plan: 2 replica(s) of 1 GPU = 2 GPUs in 1 server(s)" in r.stdout
    assert "Little's law" in r.stdout and "Erlang C" in r.stdout


def test_json_says_the_concurrency_replicas_and_latencies(tmp_path):
    r = run(tmp_path, *SERVING, "--rpm", "1200", "--ttft-p99", "2000", "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["requests_per_s"] == 20
    assert {"concurrency", "concurrency_per_replica", "replicas", "gpus", "servers", "ttft_p99_s", "tpot_p50_s",
            "utilisation", "formula"} <= set(data)
    assert list(data)[-1] == "terms"


def test_explain_prints_the_formulas(tmp_path):
    r = run(tmp_path, *SERVING, "--rps", "5", "--explain")
    assert r.returncode == 0, r.stderr
    assert "rate x time in system" in r.stdout and "Allen-Cunneen" in r.stdout


@pytest.mark.parametrize("extra,words", [
    (("--rps", "-2"), "must be positive"),
    (("--rps", "2", "--rpm", "60"), "give the request rate once"),
    (("--tpot", "50ms"), "give the request rate once"),
    (("--rps", "20", "--ttft-p99", "10ms"), "below the physics"),
    (("--rps", "20", "--tpot", "fast"), "expected a time like 2s"),
    (("--rps", "9000", "--max-gpus", "8"), "needs more than 8"),
])
def test_bad_input_is_one_line_and_status_2(tmp_path, extra, words):
    r = run(tmp_path, *SERVING, *extra)
    assert r.returncode == 2
    assert words in r.stderr and len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr


def test_recommend_takes_a_request_rate_and_says_the_concurrency(tmp_path):
    r = run(tmp_path, "recommend", "-m", "llama-3.1-8b", "--phase", "serve", "--requests-per-second", "20",
            "--prompt-tokens", "1000", "--output-tokens", "200", "--ttft-p99-ms", "2000", "--tpot-p99-ms", "50",
            "--max-gpus", "16", "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    traffic = data["traffic"]
    assert traffic["requests_per_s"] == 20 and traffic["ttft_p99_s"] <= 2.0
    assert data["workload"]["users"] == traffic["users_sized"] and data["workload"]["context"] == 1200
    assert data["best"]["gpus"] == traffic["gpus"]
