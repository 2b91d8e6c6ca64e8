"""llama.cpp's layer split over several GPUs (issue 9): prefill pipelining by kind of weights and model
size, fitted to XiongjieDai's llama-bench tables (tests/reference/throughput.csv XJ_LLAMACPP)."""

from __future__ import annotations

import csv
import re
import statistics
from pathlib import Path

import pytest
from pydantic import ValidationError

from bench.accuracy import Report, throughput_rows
from gpu_advisor.knowledge.llamacpp_split import LlamaCppLayerSplit, layer_split_for, llamacpp_layer_splits
from gpu_advisor.knowledge.loader import residuals
from gpu_advisor.tools.throughput import SpeedInput, pipeline_speedup, speed

REFERENCE = Path(__file__).parent / "reference" / "throughput.csv"


def pp(model: str, precision: str, gpu: str, gpus: int, prompt: int, **kw):
    return speed(SpeedInput(model=model, precision=precision, gpu=gpu, gpus=gpus, context=prompt, engine="llama.cpp", **kw))


def xj(row_id: int) -> dict[str, str]:
    with REFERENCE.open(encoding="utf-8") as f:
        return next(r for r in csv.DictReader(f) if r["row_id"] == str(row_id))


def test_quantized_70b_prefill_on_two_gpus_is_about_that_on_four():
    # rows 1282 / 1298: 4090 x2 pp1024 905.38, x4 898.17 (two GPUs ~ four)
    two, four = pp("llama-3-70b", "q4_k_m", "rtx-4090", 2, 1024), pp("llama-3-70b", "q4_k_m", "rtx-4090", 4, 1024)
    one = pp("llama-3-70b", "q4_k_m", "rtx-4090", 1, 1024)
    assert two.prefill_tokens_per_s == pytest.approx(four.prefill_tokens_per_s, rel=0.01)
    assert two.prefill_tokens_per_s == pytest.approx(one.prefill_tokens_per_s, rel=0.01)  # one GPU at a time
    assert two.prefill_tokens_per_s == pytest.approx(683, abs=3)
    for r, row in ((two, 1282), (four, 1298)):
        lo, hi = r.prefill_tokens_per_s_range
        assert lo < float(xj(row)["value"]) < hi
    assert any("barely any prefill speed" in a and "two GPUs prefill about as fast as four" in a for a in two.assumptions)
    assert any("cuda-split-quantized-large-few-gpus" in a for a in two.assumptions)


def test_f16_70b_pipelines_over_four_gpus():
    # rows 1417-1419, RTX A6000 x4 F16: pp512 510.31, pp1024 792.23, pp4096 751.37
    r512, r1024, r4096 = (pp("llama-3-70b", "f16", "rtx-a6000", 4, n) for n in (512, 1024, 4096))
    assert r1024.prefill_tokens_per_s / r512.prefill_tokens_per_s == pytest.approx(1.56, abs=0.02)  # 1.6 less attention
    assert r512.prefill_tokens_per_s == pytest.approx(523, abs=3)
    assert r1024.prefill_tokens_per_s == pytest.approx(816, abs=3)
    # three of a 2048-token call's four micro-batches overlap: 4 x 3 / (3 + 3) = 2.0
    assert pipeline_speedup(4, 4096, 3) == pytest.approx(2.0)
    for r, row in ((r512, 1417), (r1024, 1418), (r4096, 1419)):
        lo, hi = r.prefill_tokens_per_s_range
        assert lo < float(xj(row)["value"]) < hi
    assert any("pipelined prefill" in a for a in r1024.assumptions)
    assert any("2.0x one GPU at a time" in a and "cuda-split-f16-large" in a for a in r4096.assumptions)


def test_quantized_70b_on_eight_gpus_pipelines_like_f16():
    # rows 1321-1322, 4090 x8 Q4_K_M: pp512 812.95, pp1024 1336.26 (1.64 x)
    four, eight = pp("llama-3-70b", "q4_k_m", "rtx-4090", 4, 1024), pp("llama-3-70b", "q4_k_m", "rtx-4090", 8, 1024)
    assert eight.prefill_tokens_per_s / four.prefill_tokens_per_s == pytest.approx(16 / 9, rel=0.01)  # 8 x 2 / (2 + 7)
    assert eight.prefill_tokens_per_s == pytest.approx(1214, abs=5)
    lo, hi = eight.prefill_tokens_per_s_range
    assert lo < 1336.26 < hi


def test_8b_still_reaches_the_whole_pipeline():
    # 8B Q4_K_M on 4 x 4090: all four micro-batches of a 2048-token call overlap, 4 x 4 / 7
    one, four = pp("llama-3-8b", "q4_k_m", "rtx-4090", 1, 4096), pp("llama-3-8b", "q4_k_m", "rtx-4090", 4, 4096)
    assert four.prefill_tokens_per_s / one.prefill_tokens_per_s == pytest.approx(16 / 7, rel=1e-6)
    # quantized: the range still reaches down to no overlap (the 30B size boundary is a choice), at the
    # low end of the measured prefill band: one GPU's speed / (1 + p90)
    p90 = residuals()["prefill speed (llama.cpp)"].p90
    assert four.prefill_tokens_per_s_range[0] == pytest.approx(one.prefill_tokens_per_s / (1 + p90), rel=1e-6)


def test_decode_gains_nothing_from_more_cards():
    # rows 1278 / 1294: 4090 x2 tg1024 19.06, x4 18.83
    two, four = pp("llama-3-70b", "q4_k_m", "rtx-4090", 2, 512), pp("llama-3-70b", "q4_k_m", "rtx-4090", 4, 512)
    assert four.decode_tokens_per_s < two.decode_tokens_per_s < 19.06 * 1.05
    assert two.decode_tokens_per_s == pytest.approx(18.7, abs=0.1)


def test_a_backend_without_multi_gpu_rows_takes_cudas_figures_and_says_so():
    r = pp("llama-3-70b", "q4_k_m", "rtx-3090", 2, 1024, llamacpp_backend="vulkan")
    assert any("CUDA's figures, none measured on vulkan" in a for a in r.assumptions)
    rec, measured = layer_split_for("rocm", "k-quant", 70.6, 4)
    assert rec.id == "cuda-split-quantized-large-few-gpus" and not measured


def test_records_cover_every_case_once_and_hold_their_central_figure():
    ids = [r.id for r in llamacpp_layer_splits()]
    assert ids == ["cuda-split-f16-small", "cuda-split-quantized-small", "cuda-split-f16-large",
                   "cuda-split-quantized-large-few-gpus", "cuda-split-quantized-large-many-gpus"]
    assert layer_split_for("cuda", "k-quant", 70.6, 5)[0].in_flight == 1  # no 5-GPU rows: the 2-4 GPU figure
    assert layer_split_for("cuda", "k-quant", 70.6, 6)[0].in_flight == 3
    assert layer_split_for("cuda", "q8_0", 8.03, 2)[0].in_flight == 4
    with pytest.raises(ValidationError):
        LlamaCppLayerSplit(id="x", backend="cuda", weights=["f16"], in_flight=3, in_flight_range=(1, 2),
                           fitted_on="none", source="test", as_of="2024-05-12")


def _row_ids(fitted_on: str) -> list[int]:
    ids: list[int] = []
    for a, b in re.findall(r"(\d{2,4})-(\d{2,4})", fitted_on):
        ids += range(int(a), int(b) + 1)
    return ids


@pytest.mark.parametrize("rec", llamacpp_layer_splits(), ids=lambda r: r.id)
def test_each_record_names_the_prefill_rows_it_was_fitted_on(rec):
    with REFERENCE.open(encoding="utf-8") as f:
        rows = {int(r["row_id"]): r for r in csv.DictReader(f)}
    ids = _row_ids(rec.fitted_on.split("; the slow end")[0])
    assert ids
    for i in ids:
        r = rows[i]
        assert r["source_id"] == "XJ_LLAMACPP" and r["metric"].startswith("prefill") and int(r["num_gpus"]) > 1
        assert (r["quant"] == "GGUF F16") == (rec.weights == ["f16"])
        assert rec.min_params_b <= float(r["size_label"].rstrip("B")) < (rec.max_params_b or 1e9)
        assert rec.min_gpus <= int(r["num_gpus"]) <= (rec.max_gpus or 64)


def test_the_bench_scores_70b_rows_as_llama_3_70b_within_the_targets():
    report = Report()
    throughput_rows(report)
    xj70 = [s for s in report.scored if s.source == "XJ_LLAMACPP" and s.label.startswith("llama-3-70b ")]
    assert len(xj70) == 248  # 31 configurations x 8 llama-bench tests; the 62 OOM rows are not scored
    decode = [abs(s.error) for s in report.scored if s.source == "XJ_LLAMACPP" and s.tool == "llama.cpp decode"]
    prefill = [abs(s.error) for s in report.scored if s.source == "XJ_LLAMACPP" and s.tool == "llama.cpp prefill"]
    assert statistics.median(decode) < 0.10 and statistics.median(prefill) < 0.20
    multi70 = [abs(s.error) for s in xj70 if s.tool == "llama.cpp prefill" and " x1 " not in s.label]
    assert statistics.median(multi70) < 0.17  # 25 % before the layer-split records
