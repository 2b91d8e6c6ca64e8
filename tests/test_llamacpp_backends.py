"""llama.cpp efficiencies by backend and kind of weights, and big-MoE decode (issue 9)."""

from __future__ import annotations

from gpu_advisor.knowledge import find_gpu, find_precision
from gpu_advisor.tools.throughput import SpeedInput, efficiency, speed, weights_kind


def test_apple_uses_metal_records_not_the_cuda_fit():
    gpu, q4 = find_gpu("M3 Max 30-core 36GB"), find_precision("q4_k_m")
    e = efficiency("llama.cpp", gpu, q4)
    assert e["record"].id == "metal-k-quant"
    assert weights_kind(find_precision("q4_0")) == "legacy"


def test_m3_max_prefill_is_no_longer_nvidia_slow():
    # #4167: 40-core M3 Max Q4_0 pp512 about 759 t/s for a 6.74B model; 30 of 40 cores, 8.03B, K-quant
    r = speed(SpeedInput(model="llama-3.1-8b", precision="q4_k_m", gpu="M3 Max 30-core 36GB", context=512))
    assert 300 < r.prefill_tokens_per_s < 500
    assert any("metal backend" in a for a in r.assumptions)


def test_k_quants_decode_slower_than_q4_0_on_metal():
    q4_0 = speed(SpeedInput(model="llama-2-7b", precision="q4_0", gpu="apple-m2-max-30c-96gb", context=64))
    q4_k = speed(SpeedInput(model="llama-2-7b", precision="q4_k_m", gpu="apple-m2-max-30c-96gb", context=64))
    assert q4_k.decode_tokens_per_s < q4_0.decode_tokens_per_s


def test_vulkan_only_when_asked():
    cuda = speed(SpeedInput(model="llama-3-8b", precision="q4_0", gpu="rtx-3090"))
    vk = speed(SpeedInput(model="llama-3-8b", precision="q4_0", gpu="rtx-3090", llamacpp_backend="vulkan"))
    assert cuda.terms[0].inputs["llamacpp_backend"] == "cuda"
    assert vk.terms[0].inputs["llamacpp_backend"] == "vulkan"


def test_deepseek_r1_decode_on_8_h200_is_a_range_covering_public_reports():
    r = speed(SpeedInput(model="deepseek-r1", precision="fp8", gpu="h200", gpus=8, batch=10, context=1536))
    slow, fast = (10 * x for x in r.decode_tokens_per_s_range)
    assert slow < 250 < 600 < r.aggregate_decode_tokens_per_s < fast  # vLLM Feb 2025 ~200; SGLang 0.5.7 ~600-700
    assert "grouped_gemm_efficiency" in r.terms[0].inputs and r.terms[0].inputs["expert_dispatch_s"] > 0
    # SGLang v0.5.7 TP8: mean TPOT 12.8 ms at 8 concurrent
    r8 = speed(SpeedInput(model="deepseek-r1", precision="fp8", gpu="h200", gpus=8, batch=8, context=1536))
    assert abs(r8.time_per_output_token_s / 12.8e-3 - 1) < 0.1
