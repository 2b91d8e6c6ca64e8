"""vLLM's accounting by release and SGLang's KV pool, checked against arithmetic written out by hand.

vLLM (vllm/v1/worker/gpu_worker.py determine_available_memory): available KV = capacity x
gpu_memory_utilization - weights - torch peak of the profile run - non-torch memory inside the budget.
SGLang (model_runner_kv_cache_mixin.profile_max_num_token): KV pool = mem_fraction_static x free
memory before the weights load - weights.
"""

from __future__ import annotations

import math

import pytest

from gpu_advisor.knowledge import find_gpu
from gpu_advisor.tools.common import GIB
from gpu_advisor.tools.inference import (
    InferenceMemoryInput,
    inference_memory,
    sglang_default_mem_fraction,
    vllm_batch_defaults,
)

# Llama-3-8B: hidden 4096, MLP 14336, vocabulary 128256; 131,072 KV bytes per token at 16 bits.
H, INTER, VOCAB, KV_TOKEN = 4096, 14336, 128256, 131_072
CAPACITY_80 = 80 * GIB * 0.99


def mem(**kw):
    return inference_memory(InferenceMemoryInput(**kw))


def test_v1_is_the_default_and_the_answer_says_so():
    r = mem(model="llama-3-8b", gpu="h100-sxm")
    assert r.engine_version == "v1"
    assert any("current release" in a for a in r.assumptions)


def test_v1_batch_defaults_depend_on_the_card():
    # >= 70 GiB and not an A100: 8192 batched tokens, 1024 sequences; otherwise 2048 and 256
    assert vllm_batch_defaults(find_gpu("h100-sxm"), "v1") == (8192, 1024)
    assert vllm_batch_defaults(find_gpu("a100-80gb-sxm"), "v1") == (2048, 256)
    assert vllm_batch_defaults(find_gpu("rtx-4090"), "v1") == (2048, 256)
    assert vllm_batch_defaults(find_gpu("h100-sxm"), "v0") == (8192, 256)


def test_v1_sampler_warm_up_sets_the_peak_for_a_large_vocabulary():
    # H100, FlashInfer top-k/top-p (the 0.21+ default): 1024 sequences x 128,256 x 14 bytes = 1,838,678,016
    # > forward 8192 x 2 x (4h + 4I) = 1,207,959,552
    r = mem(model="llama-3-8b", gpu="h100-sxm")
    assert r.per_gpu_activation_bytes == 1024 * VOCAB * 14 == 1_838_678_016
    assert "sampler" in r.term("activation_bytes").label
    # fewer sequences (A100 defaults): the sampler is 256 x 128,256 x 14 = 459,669,504, still above
    # the forward pass of 2048 tokens (301,989,888)
    a = mem(model="llama-3-8b", gpu="a100-80gb-sxm")
    assert a.per_gpu_activation_bytes == 256 * VOCAB * 14
    # the PyTorch-native path sorts every row: 28 bytes a logit in 0.21+, 38 before
    assert mem(model="llama-3-8b", gpu="a100-80gb-sxm", vllm_sampler="native").per_gpu_activation_bytes == 256 * VOCAB * 28
    old = mem(model="llama-3-8b", gpu="a100-80gb-sxm", engine_version="v1-before-0.21")
    assert old.per_gpu_activation_bytes == 256 * VOCAB * 38


def test_v1_kv_budget_leaves_context_and_nccl_outside():
    # v1 (0.21+): inside the 90 % budget: weights, sampler peak, CUDA graphs 0.5 GiB, non-torch increase 0.11 GiB
    r = mem(model="llama-3-8b", context=8192, gpu="h100-sxm")
    free = 0.9 * CAPACITY_80 - 16.06e9 - 1024 * VOCAB * 14 - 0.5 * GIB - 0.11 * GIB
    assert r.term("available_kv_cache_bytes").value == pytest.approx(free)
    assert r.kv_cache_capacity_tokens == math.floor(free / (KV_TOKEN * 16)) * 16  # whole 16-token blocks
    # the device also holds the CUDA context (0.5 GB) outside the budget; NCCL adds 2.0 GiB per GPU when split
    assert r.per_gpu_overhead_bytes == pytest.approx(0.5e9 + 0.5 * GIB + 0.11 * GIB)
    assert r.fits is True
    two = mem(model="llama-3-8b", context=8192, gpu="h100-sxm", gpus=2)
    assert two.per_gpu_overhead_bytes == pytest.approx(0.5e9 + 2.0 * GIB + 0.5 * GIB + 0.11 * GIB)


def test_v1_a_16gb_card_holds_an_8b_int4_model():
    # 0.9 x 17.0e9 budget + 0.5 GB CUDA context outside it still fits the card
    r = mem(model="llama-3-8b", precision="int4", context=8192, gpu="rtx-4060-ti-16gb")
    assert r.fits is True


def test_v1_before_021_keeps_graphs_and_context_in_the_headroom():
    # 0.9 to 0.20: the start-up snapshot holds the CUDA context; only what NCCL and the profile run add
    # outside PyTorch (0.11 GiB, 0.10 GiB more when split) is inside the budget; graphs come after
    r = mem(model="llama-3-8b", context=8192, gpu="h100-sxm", engine_version="v1-before-0.21")
    free = 0.9 * CAPACITY_80 - 16.06e9 - 1024 * VOCAB * 38 - 0.11 * GIB
    assert r.term("available_kv_cache_bytes").value == pytest.approx(free)
    assert r.per_gpu_overhead_bytes == pytest.approx(0.11 * GIB + 0.5e9 + 0.5 * GIB)
    # split over NVLink (custom all-reduce up): 0.41 GiB more; over PCIe 0.10 GiB
    two = mem(model="llama-3-8b", context=8192, gpu="h100-sxm", gpus=2, engine_version="v1-before-0.21")
    assert two.per_gpu_overhead_bytes == pytest.approx(0.52 * GIB + 0.5e9 + 0.5 * GIB)
    pcie = mem(model="llama-3-8b", context=8192, gpu="l40s", gpus=2, engine_version="v1-before-0.21")
    assert pcie.per_gpu_overhead_bytes == pytest.approx(0.21 * GIB + 0.5e9 + 0.5 * GIB)


def test_v0_keeps_the_constants_of_its_log():
    # reference rows 623-629 (VLLM_PR10511): 53.29 GiB available for KV on an 80 GB card at TP1
    r = mem(model="llama-3-8b", gpu="a100-80gb-sxm", engine_version="v0")
    assert r.term("available_kv_cache_bytes").value / GIB == pytest.approx(53.29, abs=0.01)


def test_two_figures_allocator_and_device():
    r = mem(model="llama-3-8b", context=8192, gpu="h100-sxm")
    assert r.per_gpu_allocator_peak_bytes == pytest.approx(16.06e9 + 8192 * KV_TOKEN + 1024 * VOCAB * 14)
    assert r.per_gpu_device_bytes == pytest.approx(r.per_gpu_allocator_peak_bytes + r.per_gpu_overhead_bytes)
    assert r.per_gpu_device_bytes == r.per_gpu_total_bytes


# --- SGLang ---------------------------------------------------------------------------------------

def test_sglang_default_mem_fraction_rule():
    # H100 80 GB (81,920 MiB), TP1: 512 + 8192 x 1.5 + 256 x 2 + 1/8 x 1024 = 13,440 MiB -> 0.836
    assert sglang_default_mem_fraction(find_gpu("h100-sxm"), 1, 1) == round((81920 - 13440) / 81920, 3) == 0.836
    # RTX 4090 (24 GB = 24,576 MiB), TP1: 512 + 2048 x 1.5 + 24 x 2 + 128 = 3,760 MiB -> 0.847
    assert sglang_default_mem_fraction(find_gpu("rtx-4090"), 1, 1) == round((24576 - 3760) / 24576, 3)
    assert sglang_default_mem_fraction(None, 1, 1) == 0.88


def test_sglang_kv_pool_for_qwen3_235b_fp8_tp4():
    # reference rows 639-641 (VLLM_ISSUE21348, --mem-fraction-static 0.93): 367,404 tokens, K = V = 8.23 GiB
    r = mem(model="qwen3-235b-a22b", precision="fp8", gpus=4, engine="sglang", gpu="h100-sxm",
            mem_fraction_static=0.93)
    before_load = CAPACITY_80 - 0.5e9 - 2.0 * GIB
    pool = 0.93 * before_load - r.per_gpu_weights_bytes
    assert r.term("kv_pool_bytes").value == pytest.approx(pool)
    per_token = 94 * 2 * 1 * 128 * 2  # one KV head per rank at TP4
    assert r.kv_cache_capacity_tokens == int(pool // per_token)
    assert r.kv_cache_capacity_tokens == pytest.approx(367_404, rel=0.03)
    assert pool / 2 / GIB == pytest.approx(8.23, rel=0.03)


def test_sglang_is_named_and_refused_where_it_does_not_run():
    r = mem(model="llama-3-8b", engine="sglang", gpu="h100-sxm")
    assert r.engine == "sglang"
    assert any(a.startswith("engine SGLang") for a in r.assumptions)
    with pytest.raises(ValueError):
        mem(model="llama-3-8b", engine="sglang", gpu="m2-max-64gb")


def test_time_per_output_token_is_one_decode_step():
    from gpu_advisor.tools.throughput import SpeedInput, speed

    r = speed(SpeedInput(model="llama-3-8b", gpu="h100-sxm", batch=8, context=4096))
    assert r.time_per_output_token_s == pytest.approx(1 / r.decode_tokens_per_s)
    lo, hi = r.time_per_output_token_s_range
    assert lo <= r.time_per_output_token_s <= hi
    assert r.term("time_per_output_token_s").value == r.time_per_output_token_s
