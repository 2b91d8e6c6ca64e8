"""`make bench`: accuracy against published measurements, and speed as ratios to a same-run baseline.

Machines here are noisy, so every timing is printed next to a baseline measured in the same run
(`python -c pass` for cold starts) and judged by the ratio.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench.accuracy import print_report, run, summary

ROOT = Path(__file__).resolve().parent.parent
RUNS = 9


def cold_start_seconds(argv: list[str], runs: int = RUNS) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def cli() -> list[str]:
    exe = shutil.which("gpu-advisor", path=str(Path(sys.executable).parent))
    return [exe] if exe else [sys.executable, "-m", "tui.cli"]


def speed_report() -> list[tuple[str, float, float, float, str]]:
    baseline = cold_start_seconds([sys.executable, "-c", "pass"])
    size_cmd = cli() + ["size", "inference", "--model", "llama-3-8b", "--gpu", "h100"]
    subprocess.run(size_cmd, cwd=ROOT, capture_output=True, check=False)  # warm the data-file cache
    size = cold_start_seconds(size_cmd)
    return [("cold start: gpu-advisor size inference", size, baseline, size / baseline, "<= 10x `python -c pass`")]


def main() -> int:
    report = run()
    print_report(report)
    print()
    print("README table (accuracy):")
    print("| tool | source | rows | median abs. error | bias |")
    print("|---|---|---:|---:|---:|")
    for tool, source, n, median, bias, _ in summary(report):
        print(f"| {tool} | {source} | {n} | {median:.1%} | {bias:+.1%} |")
    print()
    print("README table (speed, median of runs):")
    print("| measure | time | baseline | ratio | target |")
    print("|---|---:|---:|---:|---|")
    for name, t, base, ratio, target in speed_report():
        print(f"| {name} | {t * 1000:.0f} ms | {base * 1000:.0f} ms | {ratio:.1f}x | {target} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
