"""llama.cpp MoE decode and prefill (issue 9): the routed experts' share and fixed time per expert by
backend (knowledge/data/llamacpp_moe.yaml), fitted to tests/reference/throughput.csv rows 1579-1601."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from pydantic import ValidationError

from bench.accuracy import LLAMACPP_MOE_MODELS, Report, throughput_rows
from gpu_advisor.knowledge.llamacpp_moe import LlamaCppMoe, llamacpp_moe_records, moe_record_for
from gpu_advisor.tools.throughput import SpeedInput, moe_figures, speed

REFERENCE = Path(__file__).parent / "reference" / "throughput.csv"


def run(model: str, precision: str, gpu: str, gpus: int = 1, context: int = 64, **kw):
    return speed(SpeedInput(model=model, precision=precision, gpu=gpu, gpus=gpus, context=context, engine="llama.cpp", **kw))


def row(row_id: int) -> dict[str, str]:
    with REFERENCE.open(encoding="utf-8") as f:
        return next(r for r in csv.DictReader(f) if r["row_id"] == str(row_id))


def test_r1_iq1_s_on_two_h100_is_current_builds_with_january_2025_at_the_slow_end():
    # central: no fixed time per routed expert (builds after PR #15525 pick the experts on the GPU); row 1579,
    # about 14 tokens/s single-user (Unsloth blog, January 2025 build), lies at the band's slow end
    r = run("deepseek-r1", "iq1_s", "h100-sxm", 2, 1024)
    assert r.decode_tokens_per_s == pytest.approx(116.9, abs=0.1)
    lo, hi = r.decode_tokens_per_s_range
    assert lo < float(row(1579)["value"]) < r.decode_tokens_per_s < hi
    assert r.terms[0].inputs["expert_fixed_s"] == 0.0
    assert "grouped_gemm_efficiency" not in r.terms[0].inputs  # the vLLM/SGLang path is not taken
    assert any(a.startswith("llama.cpp MoE on cuda:") and "0 us per layer per routed expert (band 0-195 us)" in a
               and "cuda-moe, decode measured, prefill not measured on cuda" in a for a in r.assumptions)


def test_r1_iq1_s_on_two_a100_covers_the_issue_11474_figure():
    # row 1580: llama-cli eval 9.41 tokens/s over 1316 tokens after a 20-token prompt (January 2025): the slow end
    r = run("deepseek-r1", "iq1_s", "a100-80gb-sxm", 2, 20 + 1316 // 2)
    lo, hi = r.decode_tokens_per_s_range
    assert lo == pytest.approx(8.3, abs=0.1) and lo < 9.41 < hi
    assert r.decode_tokens_per_s == pytest.approx(86.0, abs=0.1)


def test_qwen3_30b_a3b_on_two_3090s_old_build_is_inside_the_band():
    # row 1582: 40-50 tokens/s (build 5228, a "slow with CUDA" bug report): inside the band, not the central
    r = run("qwen3-30b-a3b", "q6_k", "rtx-3090", 2, 1024)
    assert r.decode_tokens_per_s == pytest.approx(159.3, abs=0.1)
    lo, hi = r.decode_tokens_per_s_range
    assert lo < 40 and hi > 50


def test_metal_moe_runs_near_the_dense_rate():
    # row 1601: DeepSeek-R1 Q4_K_M on an 80-core M3 Ultra, tg128 20.21 (build 7315)
    r = run("deepseek-r1", "q4_k_m", "apple-m3-ultra-512gb")
    assert r.decode_tokens_per_s == pytest.approx(20.6, abs=0.1)
    lo, hi = r.decode_tokens_per_s_range
    assert lo < 20.21 < hi
    assert r.terms[0].inputs["expert_fixed_s"] == 0.0 and r.terms[0].inputs["routed_expert_share"] == 0.93
    # row 1599: pp512 168.90 (the December 2025 build the central prefill share is fitted on)
    p = run("deepseek-r1", "q4_k_m", "apple-m3-ultra-512gb", context=512)
    # (168.6 before MLA prefill attention counted its 128-wide values, not 192: now 1.5% above the row)
    assert p.prefill_tokens_per_s == pytest.approx(171.4, abs=0.5)
    assert p.prefill_tokens_per_s == pytest.approx(168.90, rel=0.02)
    assert p.prefill_tokens_per_s_range[0] < 168.90 < p.prefill_tokens_per_s_range[1]


def test_mixtral_prefill_band_reaches_the_december_2023_build():
    # rows 1583-1597 (odd): pp512 40-89 tokens/s on a 38-core M2 Max the week Mixtral support landed
    r = run("mixtral-8x7b", "q6_k", "apple-m2-max-96gb", context=512)
    lo, hi = r.prefill_tokens_per_s_range
    assert lo < 40.27 < 89.41 < r.prefill_tokens_per_s < hi
    d = run("mixtral-8x7b", "q8_0", "apple-m2-max-96gb")  # row 1598: tg128 22.87
    assert d.decode_tokens_per_s == pytest.approx(22.87, rel=0.02)


def test_m2_ultra_r1_iq1_s_keeps_metals_dense_rate():
    # scenario 124's machine: no Metal row shows CUDA's fixed time per expert; a token reads the attention, shared
    # and dense tensors at their own types plus 8 of 256 experts (8.3 GB), so the bandwidth bound is near 39; but the
    # 1-bit i-quant's codebook decode keeps it well under that (h-facts, review AX #14: people measure 10-15 tokens/s;
    # knowledge apple_iquant_moe), so about 14 tokens/s, was 39.1 (31.4-45.2)
    r = run("deepseek-r1", "iq1_s", "apple-m2-ultra-192gb", context=2048)
    assert r.decode_tokens_per_s == pytest.approx(13.8, abs=0.1)
    assert r.decode_tokens_per_s_range == pytest.approx((11.2, 16.4), abs=0.1)


def test_dense_models_are_unchanged():
    # Llama 3 70B Q4_K_M on 2 x RTX 4090 (rows 1278, 1282): the figures issue 9's layer-split tests fixed
    r = run("llama-3-70b", "q4_k_m", "rtx-4090", 2, 512)
    assert r.decode_tokens_per_s == pytest.approx(18.7, abs=0.1)
    assert not any(a.startswith("llama.cpp MoE") for a in r.assumptions)
    assert "expert_fixed_s" not in r.terms[0].inputs
    p = run("llama-3-70b", "q4_k_m", "rtx-4090", 2, 1024)
    assert p.prefill_tokens_per_s == pytest.approx(683, abs=3)


def test_vllm_moe_keeps_its_grouped_gemm_path():
    r = speed(SpeedInput(model="deepseek-r1", precision="fp8", gpu="h200", gpus=8, batch=8, context=1536))
    assert abs(r.time_per_output_token_s / 12.8e-3 - 1) < 0.1
    assert "grouped_gemm_efficiency" in r.terms[0].inputs and "expert_fixed_s" not in r.terms[0].inputs


def test_records_cover_every_backend_once_and_rocm_borrows_cuda():
    assert [r.id for r in llamacpp_moe_records()] == ["cuda-moe", "metal-moe", "vulkan-moe"]
    assert moe_record_for("rocm").id == "cuda-moe"
    rec = moe_record_for("cuda")
    assert moe_figures(rec, "slow") == (1.0, 195e-6, 0.11)
    assert moe_figures(rec, "fast") == (1.0, 0.0, 1.0)
    with pytest.raises(ValidationError):
        LlamaCppMoe(id="x", backends=["cuda"], routed_decode_eff=0.5, routed_decode_eff_range=(0.6, 1.0),
                    expert_overhead_s=0.0, expert_overhead_s_range=(0.0, 0.0), routed_prefill_eff=1.0,
                    routed_prefill_eff_range=(1.0, 1.0), decode_measured=False, prefill_measured=False,
                    fitted_on="none", source="test", as_of="2025-01-01")


def test_the_bench_scores_the_moe_rows():
    report = Report()
    throughput_rows(report)
    moe = {s.row_id: s for s in report.scored if s.source in LLAMACPP_MOE_MODELS}
    assert len(moe) == 22  # rows 1579-1601 less the 20-token prompt (row 1581)
    assert "1581" not in moe
    # the January and April 2025 builds (a CPU-side expert selection and synchronisation) run 3.4-9.6x below
    # today's central figure (inside its range, at the slow end)
    assert moe["1579"].error == pytest.approx(7.35, abs=0.01)
    assert moe["1580"].error == pytest.approx(8.14, abs=0.01)
    assert moe["1582"].error == pytest.approx(2.54, abs=0.01)
    assert moe["1601"].error == pytest.approx(0.02, abs=0.01)
    assert all(s.tool in ("llama.cpp MoE decode", "llama.cpp MoE prefill") for s in moe.values())
