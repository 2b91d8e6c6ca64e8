"""Inference memory, checked against arithmetic done by hand from the catalog's architecture fields.

Each expected number is written out as a formula in the test; the architecture constants used are
pinned to the catalog records first (test_hand_constants_match_the_catalog), so that the hand
arithmetic and the tool read the same model.
"""

from __future__ import annotations

import math

import pytest

from gpu_advisor.knowledge import find_gpu, find_model
from gpu_advisor.tools.common import GIB, ToolError
from gpu_advisor.tools.inference import InferenceMemoryInput, inference_memory, usable_bytes
from gpu_advisor.tools.throughput import SpeedInput, speed

# Llama-3-8B (models.yaml): 8.03B params, 32 layers, 8 KV heads of 128, hidden 4096, MLP 14336,
# vocabulary 128256, untied embeddings.
L8 = dict(params=8.03e9, layers=32, kv_heads=8, head_dim=128, hidden=4096, inter=14336, vocab=128256)
# DeepSeek-V3: 61 layers, MLA latent 512 + rope 64, 128 heads of 192 (full K/V when not latent).
DS = dict(layers=61, kv_lora_rank=512, rope=64, heads=128, head_dim=192)
# Mistral-7B v0.1: 32 layers all sliding, window 4096, 8 KV heads of 128.
MI = dict(layers=32, window=4096, kv_heads=8, head_dim=128)
# Gemma-2-9B: 42 layers, 21 of them sliding with window 4096, 8 KV heads of 256.
G9 = dict(layers=42, sliding=21, window=4096, kv_heads=8, head_dim=256)
# Qwen2.5-7B: 28 attention heads, 4 KV heads.
Q7 = dict(heads=28, kv_heads=4)

# vLLM V0 constants the tool documents (tools/inference.py): 1.79 GiB non-torch memory on one GPU,
# activations for 8192 batched tokens: 2 bytes x (4h + 4I) per token + 256 x vocab x 4 bytes logits.
# The tests that pin them ask for engine_version="v0"; V1's accounting is in tests/test_engine_versions.py.
VLLM_OVERHEAD = 1.79 * 2**30
VLLM_ACT_L8 = 8192 * 2 * (4 * L8["hidden"] + 4 * L8["inter"]) + 256 * L8["vocab"] * 4  # = 1,339,293,696


def mem(**kw):
    return inference_memory(InferenceMemoryInput(**kw))


def test_hand_constants_match_the_catalog():
    m = find_model("llama-3-8b")
    assert (m.total_params_b * 1e9, m.num_layers, m.num_kv_heads, m.head_dim, m.hidden_size,
            m.intermediate_size, m.vocab_size, m.tied_embeddings) == (
        pytest.approx(L8["params"]), 32, 8, 128, 4096, 14336, 128256, False)
    d = find_model("deepseek-v3")
    assert (d.num_layers, d.kv_lora_rank, d.qk_rope_head_dim, d.num_kv_heads, d.head_dim) == (61, 512, 64, 128, 192)
    s = find_model("mistral-7b-v0.1")
    assert (s.num_layers, s.sliding_layers, s.sliding_window, s.num_kv_heads, s.head_dim) == (32, 32, 4096, 8, 128)
    g = find_model("gemma-2-9b")
    assert (g.num_layers, g.sliding_layers, g.sliding_window, g.num_kv_heads, g.head_dim) == (42, 21, 4096, 8, 256)
    q = find_model("qwen2.5-7b")
    assert (q.num_attention_heads, q.num_kv_heads) == (28, 4)


# --- weights --------------------------------------------------------------------------------------

def test_bf16_weights_are_two_bytes_per_parameter():
    # 8.03e9 params x 2 bytes = 16.06e9 bytes
    assert mem(model="llama-3-8b").weights_bytes == pytest.approx(16.06e9)


def test_int8_weights_keep_embeddings_at_16_bits():
    # embeddings + head = 128256 x 4096 x 2 = 1,050,673,152 params at 2 bytes, the rest at 1 byte
    embed = 128256 * 4096 * 2
    expected = embed * 2 + (8.03e9 - embed) * 1
    assert mem(model="llama-3-8b", precision="int8").weights_bytes == pytest.approx(expected)


def test_gptq_int4_keeps_embeddings_at_16_bits():
    # embed = 128256 x 4096 x 2 = 1,050,673,152; weights = embed x 2 + (8.03e9 - embed) x 4.16 / 8
    #       = 2,101,346,304 + 3,629,249,960.96 = 5,730,596,264.96 bytes
    r = mem(model="llama-3-8b", precision="gptq-int4")
    assert r.weights_bytes == pytest.approx(5_730_596_264.96)
    assert "embeddings and output head at 16 bits" in r.term("weights_bytes").formula


def test_gguf_q4_k_m_is_sized_tensor_by_tensor():
    # llama.cpp's Q4_K_M mix for Llama 3 8B: the tensors of the published 4.92 GB file (the file less
    # its ~7 MB of tokenizer metadata; tests/reference/gguf_sizes.csv); llama.cpp is the default engine
    r = mem(model="llama-3-8b", precision="q4_k_m")
    assert r.weights_bytes == pytest.approx(4.92e9 - 128256 * 57, rel=0.002)
    assert r.engine == "llama.cpp"
    assert r.kv_precision == "f16"


# --- KV cache -------------------------------------------------------------------------------------

def test_gqa_kv_per_token_and_total():
    # per token: 32 layers x 2 (K,V) x 8 KV heads x 128 x 2 bytes = 131,072 bytes
    # context 8192 x batch 4: 131,072 x 8192 x 4 = 4,294,967,296 bytes (4 GiB)
    r = mem(model="llama-3-8b", context=8192, batch=4)
    assert r.kv_bytes_per_token == 32 * 2 * 8 * 128 * 2 == 131_072
    assert r.kv_cache_bytes == 131_072 * 8192 * 4 == 4 * GIB


def test_fp8_kv_cache_halves_it():
    # 1 byte per value: 65,536 bytes per token, 2 GiB for 8192 x 4
    r = mem(model="llama-3-8b", context=8192, batch=4, kv_precision="fp8")
    assert r.kv_bytes_per_token == 65_536
    assert r.kv_cache_bytes == 2 * GIB
    assert r.kv_precision == "fp8"


def test_mla_caches_the_latent_in_vllm():
    # per token per layer: (512 + 64) x 2 bytes = 1,152; x 61 layers = 70,272; x 1000 tokens
    r = mem(model="deepseek-v3", context=1000, engine="vllm")
    assert r.kv_bytes_per_token == 61 * (512 + 64) * 2 == 70_272
    assert r.kv_cache_bytes == 70_272 * 1000


def test_mla_stores_full_k_and_v_in_transformers():
    # per token: 61 layers x 2 x 128 heads x 192 x 2 bytes = 5,996,544 bytes, 85x the latent
    r = mem(model="deepseek-v3", context=1000, engine="transformers")
    assert r.kv_bytes_per_token == 61 * 2 * 128 * 192 * 2 == 5_996_544
    assert r.kv_cache_bytes == 5_996_544 * 1000


def test_sliding_window_caps_kv_at_the_window():
    # Mistral-7B: every layer keeps at most 4096 tokens: 32 x 4096 x (2 x 8 x 128 x 2) = 536,870,912
    at_window = mem(model="mistral-7b-v0.1", context=4096)
    beyond = mem(model="mistral-7b-v0.1", context=8192)
    below = mem(model="mistral-7b-v0.1", context=2048)
    assert at_window.kv_cache_bytes == 32 * 4096 * (2 * 8 * 128 * 2) == 536_870_912
    assert beyond.kv_cache_bytes == 536_870_912
    assert below.kv_cache_bytes == 536_870_912 / 2
    assert "sliding-window layers keep at most 4,096 tokens" in beyond.term("kv_cache_bytes").formula


def test_hybrid_model_caps_only_its_sliding_layers():
    # Gemma-2-9B at 8192: 21 full layers x 8192 + 21 sliding x 4096 = 258,048 token-layers,
    # each 2 x 8 x 256 x 2 = 8,192 bytes: 2,113,929,216 bytes
    r = mem(model="gemma-2-9b", context=8192)
    assert r.kv_cache_bytes == (21 * 8192 + 21 * 4096) * (2 * 8 * 256 * 2) == 2_113_929_216
    assert r.kv_bytes_per_token == 2_113_929_216 / 8192


def test_tensor_parallel_two_halves_per_gpu_kv_and_weights():
    one = mem(model="llama-3-8b", context=8192, engine_version="v0")
    two = mem(model="llama-3-8b", context=8192, gpus=2, engine_version="v0")
    # 8 KV heads split 4 + 4: each GPU holds half of 1 GiB
    assert one.per_gpu_kv_cache_bytes == 131_072 * 8192 == GIB
    assert two.per_gpu_kv_cache_bytes == GIB / 2
    assert two.kv_cache_bytes == GIB  # nothing replicated
    assert two.per_gpu_weights_bytes == pytest.approx(16.06e9 / 2)
    # vLLM non-torch memory doubles per GPU once NCCL is involved: 3.58 GiB
    assert two.per_gpu_overhead_bytes == pytest.approx(2 * VLLM_OVERHEAD)


def test_tensor_parallel_beyond_kv_heads_replicates_kv():
    # Qwen2.5-7B has 4 KV heads: on 8 GPUs each head is held twice. Per GPU: total / 4, not / 8.
    # per token: 28 layers x 2 x 4 x 128 x 2 = 57,344 bytes; x 8192 = 469,762,048 bytes
    r = mem(model="qwen2.5-7b", context=8192, gpus=8)
    total = 28 * 2 * 4 * 128 * 2 * 8192
    assert r.per_gpu_kv_cache_bytes == total / 4
    assert r.kv_cache_bytes == total * 8 / 4  # two copies of everything across the 8 GPUs
    assert any("4 KV heads" in a for a in r.assumptions)


def test_mla_latent_is_replicated_on_every_tensor_parallel_gpu():
    one = mem(model="deepseek-v3", context=4096)
    eight = mem(model="deepseek-v3", context=4096, gpus=8)
    assert eight.per_gpu_kv_cache_bytes == one.per_gpu_kv_cache_bytes == 70_272 * 4096
    assert eight.kv_cache_bytes == 8 * 70_272 * 4096
    assert eight.per_gpu_weights_bytes == pytest.approx(671e9 * 2 / 8)


def test_pipeline_stages_split_kv_and_weights():
    r = mem(model="llama-3-8b", context=8192, pp=2)
    assert r.per_gpu_kv_cache_bytes == GIB / 2
    assert r.per_gpu_weights_bytes == pytest.approx(16.06e9 / 2)


# --- totals, activations, overhead ----------------------------------------------------------------

def test_vllm_total_is_weights_kv_activations_overhead():
    # 16.06e9 + 4 GiB + 1,339,293,696 + 1.79 GiB = 23,616,258,856.96 bytes
    r = mem(model="llama-3-8b", context=8192, batch=4, engine_version="v0")
    assert r.activation_bytes == VLLM_ACT_L8 == 1_339_293_696
    assert r.overhead_bytes == pytest.approx(VLLM_OVERHEAD)
    assert r.total_bytes == pytest.approx(16.06e9 + 4 * GIB + 1_339_293_696 + 1.79 * GIB)
    assert r.total_bytes == pytest.approx(23_616_258_856.96)


def test_transformers_activations_grow_with_prompt():
    # 4096 tokens x 2 bytes x (4 x 4096 + 3 x 14336) + 1 x 128256 x 4 bytes = 487,052,288
    r = mem(model="llama-3-8b", context=4096, engine="transformers")
    assert r.activation_bytes == pytest.approx(4096 * 2 * (4 * 4096 + 3 * 14336) + 128256 * 4)
    # --output-tokens: the prefill peak covers the prompt only; the KV cache holds the whole context
    out = mem(model="llama-3-8b", context=4096, engine="transformers", output_tokens=2048)
    assert out.activation_bytes == pytest.approx(2048 * 2 * (4 * 4096 + 3 * 14336) + 128256 * 4)
    assert out.kv_cache_bytes == r.kv_cache_bytes
    with pytest.raises(ToolError, match="must be fewer than the context"):
        mem(model="llama-3-8b", context=2048, engine="transformers", output_tokens=2048)
    # the CUDA context (0.5 GB) plus 5 % allocator slack on weights + KV + activations
    peak = 16.06e9 + 131_072 * 4096 + r.activation_bytes
    assert r.per_gpu_allocator_peak_bytes == pytest.approx(peak)
    assert r.overhead_bytes == pytest.approx(0.5e9 + 0.05 * peak)
    assert r.per_gpu_device_bytes == r.per_gpu_total_bytes == pytest.approx(1.05 * peak + 0.5e9)


# --- vLLM on a card -------------------------------------------------------------------------------

def test_vllm_kv_capacity_on_h100():
    # capacity = 80 GiB x 0.99 = 85,040,352,460.8 bytes; vLLM takes 90%: 76,536,317,214.72
    # free for KV = 76,536,317,214.72 - 16.06e9 - 1,339,293,696 - 1,921,997,864.96 = 57,215,025,653.76
    # tokens = floor(57,215,025,653.76 / 131,072) = 436,516, in whole blocks of 16 = 436,512; sequences of
    # 8192 = 53.29
    r = mem(model="llama-3-8b", context=8192, gpu="h100-sxm", engine_version="v0")
    capacity = 80 * 2**30 * 0.99
    free = 0.9 * capacity - 16.06e9 - VLLM_ACT_L8 - VLLM_OVERHEAD
    assert r.gpu_capacity_bytes == pytest.approx(capacity)
    assert r.kv_cache_capacity_tokens == math.floor(free / (131_072 * 16)) * 16 == 436_512
    assert r.max_concurrent_sequences == pytest.approx(436_512 / 8192, abs=0.01)
    assert r.fits is True
    assert r.headroom_bytes == pytest.approx(0.9 * capacity - r.per_gpu_total_bytes)
    assert r.term("kv_cache_capacity_tokens").value == 436_512


def test_vllm_kv_capacity_respects_gpu_memory_utilization():
    r = mem(model="llama-3-8b", context=8192, gpu="h100-sxm", gpu_memory_utilization=0.5, engine_version="v0")
    free = 0.5 * 80 * 2**30 * 0.99 - 16.06e9 - VLLM_ACT_L8 - VLLM_OVERHEAD
    assert r.kv_cache_capacity_tokens == math.floor(free / (131_072 * 16)) * 16


def test_vllm_reports_no_room_when_weights_fill_the_card():
    r = mem(model="llama-3-70b", gpu="rtx-4090")
    assert r.fits is False
    assert r.kv_cache_capacity_tokens == 0
    assert any(w.startswith("does not fit") for w in r.warnings)


def test_usable_bytes_of_nvidia_and_apple_cards():
    # NVIDIA: nominal GiB x 0.99; Apple: unified memory x 0.75
    assert usable_bytes(find_gpu("rtx-4090")) == pytest.approx(24 * 2**30 * 0.99)
    apple = find_gpu("apple-m2-ultra-192gb")
    assert usable_bytes(apple) == pytest.approx(apple.memory_gb * 2**30 * 0.75)


# --- the guide's facts ----------------------------------------------------------------------------

@pytest.mark.parametrize("precision, gb", [("bf16", 54), ("int8", 27), ("int4", 13.5)])
def test_27b_weights_match_the_guide(precision, gb):
    assert mem(model="27B", precision=precision).weights_bytes / 1e9 == pytest.approx(gb, rel=0.05)


def test_27b_bf16_fits_an_80gb_card_but_not_a_48gb_card():
    assert mem(model="27B", gpu="a100-80gb-sxm").fits is True
    small = mem(model="27B", gpu="l40s")
    assert small.fits is False
    assert small.headroom_bytes < 0


def test_27b_int8_fits_a_48gb_card():
    assert mem(model="27B", precision="int8", gpu="l40s").fits is True


def test_llama_3_70b_int8_fits_one_h200_but_not_one_h100():
    assert mem(model="llama-3-70b", precision="int8", gpu="h200").fits is True
    assert mem(model="llama-3-70b", precision="int8", gpu="h100-sxm").fits is False


def test_moe_needs_the_memory_of_its_total_size():
    moe = mem(model="26B-A3.8B")
    dense = mem(model="26B")
    # 26e9 x 2 bytes either way
    assert moe.weights_bytes == pytest.approx(dense.weights_bytes, rel=0.01)
    assert moe.weights_bytes == pytest.approx(52e9, rel=0.01)


def test_moe_decodes_at_the_speed_of_its_active_size():
    moe = speed(SpeedInput(model="26B-A3.8B", gpu="h100-sxm")).decode_tokens_per_s
    small = speed(SpeedInput(model="3.8B", gpu="h100-sxm")).decode_tokens_per_s
    big = speed(SpeedInput(model="26B", gpu="h100-sxm")).decode_tokens_per_s
    assert moe == pytest.approx(small, rel=0.15)
    assert moe > 2.5 * big


# --- input errors and warnings --------------------------------------------------------------------

def test_context_beyond_the_model_maximum_warns():
    r = mem(model="llama-3-8b", context=16384)
    assert any("beyond Llama 3 8B's maximum context of 8,192" in w for w in r.warnings)


def test_kv_format_that_cannot_hold_a_cache_is_rejected():
    with pytest.raises(ToolError, match=r"cannot hold a KV cache; use one of: .*fp8"):
        mem(model="llama-3-8b", kv_precision="gptq-int4")


def test_weight_format_on_the_wrong_engine_is_rejected():
    with pytest.raises(ToolError, match=r"do not run on llama\.cpp"):
        mem(model="llama-3-8b", precision="gptq-int4", engine="llama.cpp")


def test_tensor_parallel_degree_that_does_not_divide_heads_warns():
    r = mem(model="qwen2.5-7b", gpus=8, gpu="h100-sxm")
    assert any("does not divide" in w and "28 attention heads" in w for w in r.warnings)


def test_tensor_parallel_over_pcie_warns_about_nvlink():
    r = mem(model="llama-3-8b", gpus=2, gpu="l40s")
    assert any("no NVLink" in w for w in r.warnings)
    r = mem(model="llama-3-8b", gpus=2, gpu="h100-sxm")
    assert not any("NVLink" in w for w in r.warnings)
