"""vLLM's KV capacity against the figures its own start-up logs printed (tests/reference/inference_memory.csv).

Each case names the reference rows it reproduces and the tolerance it is held to. The accounting is vLLM's
(vllm/v1/worker/gpu_worker.py determine_available_memory): available KV = capacity x gpu_memory_utilization
- weights - the profile run's torch peak - the non-torch memory inside the budget, in whole 16-token blocks.
"""

from __future__ import annotations

import pytest

from gpu_advisor.knowledge import find_gpu
from gpu_advisor.tools.common import GIB, ToolError
from gpu_advisor.tools.inference import InferenceMemoryInput, inference_memory, usable_bytes

QWEN2_VOCAB, LLAMA3_VOCAB = 152064, 128256


def mem(**kw):
    kw.setdefault("engine", "vllm")
    return inference_memory(InferenceMemoryInput(**kw))


def qwen2_7b_a100(util: float, gpus: int = 1):
    # vLLM 0.10.1.1 with FlashInfer installed ("Using FlashInfer for top-p & top-k sampling"); the TP2 log
    # has custom all-reduce off for want of P2P, so PCIe A100s
    return mem(model="qwen2-7b", gpu="a100-80gb-pcie", gpus=gpus, context=16384, gpu_memory_utilization=util,
               engine_version="v1-before-0.21", vllm_sampler="flashinfer")


@pytest.mark.parametrize(("util", "gpus", "logged_gib", "logged_tokens"), [
    (0.25, 1, 5.01, 93_872),      # rows 660-661
    (0.5, 1, 24.83, 464_848),     # rows 663-664
    (0.5, 2, 31.83, 1_192_160),   # rows 666-667
])
def test_qwen2_7b_on_a100_matches_vllm_0_10_logs(util, gpus, logged_gib, logged_tokens):
    r = qwen2_7b_a100(util, gpus)
    assert r.term("available_kv_cache_bytes").value / GIB == pytest.approx(logged_gib, rel=0.01)
    assert r.kv_cache_capacity_tokens == pytest.approx(logged_tokens, rel=0.01)
    assert r.kv_cache_capacity_tokens % 16 == 0  # whole blocks, as vLLM allocates them


def test_qwen2_7b_tokens_follow_from_bytes_per_token():
    # 28 layers x 2 x 4 KV heads x 128 x 2 bytes = 57,344 bytes a token; halved per GPU at TP2
    r = qwen2_7b_a100(0.5)
    free = r.term("available_kv_cache_bytes").value
    assert r.kv_cache_capacity_tokens == int(free // (57_344 * 16)) * 16
    two = qwen2_7b_a100(0.5, gpus=2)
    assert two.kv_cache_capacity_tokens == int(two.term("available_kv_cache_bytes").value // (28_672 * 16)) * 16


def test_flashinfer_sampler_sets_the_a100_profile_peak():
    # A100 defaults: 256 sequences; 256 x 152,064 x 14 bytes = 544,997,376 above the 2048-token forward pass
    r = qwen2_7b_a100(0.5)
    assert r.per_gpu_activation_bytes == 256 * QWEN2_VOCAB * 14 == 544_997_376


def test_qwen3_235b_fp8_tp8_on_l40s_matches_vllm_0_10_2_log():
    # rows 668-672: 10.65 GiB and 238,208 tokens; 27.72 GiB weights, 1.4 GiB peak activation, 0.21 GiB
    # non-torch memory; the native sampler (FlashInfer not installed)
    r = mem(model="qwen3-235b-a22b", precision="fp8", gpu="l40s", gpus=8, context=32768, gpu_memory_utilization=0.9,
            engine_version="v1-before-0.21", vllm_sampler="native")
    assert r.per_gpu_weights_bytes / GIB == pytest.approx(27.72, rel=0.01)
    assert r.per_gpu_activation_bytes / GIB == pytest.approx(1.4, rel=0.03)
    assert r.term("overhead_bytes").inputs["non_torch_inside_bytes"] / GIB == pytest.approx(0.21, abs=0.005)
    assert r.term("available_kv_cache_bytes").value / GIB == pytest.approx(10.65, rel=0.04)
    assert r.kv_cache_capacity_tokens == pytest.approx(238_208, rel=0.04)


def test_l40s_capacity_leaves_out_the_ecc_sixteenth():
    # the L40S log: "Free memory on device (43.93/44.42 GiB)"; 48 GiB x 15/16 x 0.99 = 44.55 GiB
    assert usable_bytes(find_gpu("l40s")) / GIB == pytest.approx(44.42, rel=0.005)
    # HBM and consumer cards keep all of it
    assert usable_bytes(find_gpu("h100-sxm")) == pytest.approx(80 * GIB * 0.99)


@pytest.mark.parametrize(("model", "precision", "gpus", "logged_gib", "tol"), [
    ("llama-3.1-8b", "bf16", 1, 51.38, 0.01),    # row 680
    ("qwen3-0.6b", "bf16", 1, 64.45, 0.01),      # row 684
    ("qwen3-32b", "bf16", 1, 4.45, 0.03),        # row 688
    ("llama-3.3-70b", "fp8", 2, 32.0, 0.015),    # row 692
])
def test_h100_logs_of_a_release_before_0_21(model, precision, gpus, logged_gib, tol):
    r = mem(model=model, precision=precision, gpu="h100-sxm", gpus=gpus, context=16000, gpu_memory_utilization=0.9,
            engine_version="v1-before-0.21")
    assert r.term("available_kv_cache_bytes").value / GIB == pytest.approx(logged_gib, rel=tol)


def test_native_sampler_peak_on_h100():
    # 1024 sequences (H100 defaults) x 128,256 x 38 bytes = 4.65 GiB; the log printed 4.76 (row 678)
    r = mem(model="llama-3.1-8b", gpu="h100-sxm", context=16000, engine_version="v1-before-0.21")
    assert r.per_gpu_activation_bytes == 1024 * LLAMA3_VOCAB * 38
    assert r.per_gpu_activation_bytes / GIB == pytest.approx(4.76, rel=0.03)


def test_nvlink_tp2_non_torch_memory():
    # 0.55 GiB at TP2 on H100 (row 691): 0.11 + 0.41 GiB inside the budget
    r = mem(model="llama-3.3-70b", precision="fp8", gpu="h100-sxm", gpus=2, context=16000,
            engine_version="v1-before-0.21")
    assert r.term("overhead_bytes").inputs["non_torch_inside_bytes"] / GIB == pytest.approx(0.52)


# --- MLA and data-parallel attention --------------------------------------------------------------

def test_mla_latent_is_replicated_on_every_tensor_parallel_gpu():
    # DeepSeek-V3: 61 layers x (512 + 64) x 2 bytes = 70,272 bytes a token, the same on every GPU at TP8
    r = mem(model="deepseek-v3", precision="fp8", gpus=8, context=4096, batch=8)
    assert r.kv_bytes_per_token == 61 * (512 + 64) * 2 == 70_272
    assert r.per_gpu_kv_cache_bytes == pytest.approx(8 * 4096 * 70_272)
    assert r.kv_cache_bytes == pytest.approx(8 * r.per_gpu_kv_cache_bytes)  # eight copies
    assert any("copy" in a for a in r.assumptions)


def test_dp_attention_splits_the_latent_across_ranks():
    one = mem(model="deepseek-v3", precision="fp8", gpus=8, gpu="h200", context=4096, batch=64, engine="sglang")
    dp8 = mem(model="deepseek-v3", precision="fp8", gpus=8, gpu="h200", context=4096, batch=64, engine="sglang",
              dp_attention=8)
    # each rank keeps the latents of its own 8 sequences: an eighth of the replicated figure
    assert dp8.per_gpu_kv_cache_bytes == pytest.approx(one.per_gpu_kv_cache_bytes / 8)
    assert dp8.kv_cache_bytes == pytest.approx(64 * 4096 * 70_272)  # one copy in all
    # attention and the other non-expert layers are held 8 times: more weights per GPU
    assert dp8.per_gpu_weights_bytes > one.per_gpu_weights_bytes * 1.1
    # the system holds 8 ranks' worth of sequences
    assert dp8.max_concurrent_sequences == pytest.approx(dp8.kv_cache_capacity_tokens * 8 / 4096, abs=0.01)
    assert dp8.max_concurrent_sequences > 4 * one.max_concurrent_sequences
    assert any("data-parallel attention over 8 ranks" in a for a in dp8.assumptions)


def test_dp_attention_must_divide_the_gpus():
    with pytest.raises(ToolError):
        mem(model="deepseek-v3", precision="fp8", gpus=8, dp_attention=3)
