"""vLLM's accounting of sliding-window layers, per engine version, with the arithmetic written out by hand.

V1 from 0.9.1 (hybrid KV cache manager, vllm/v1/core/kv_cache_utils.py): layers are grouped by kind into groups of
equal size sharing one block pool, blocks = available // (16 x bytes per token per layer x layers per group);
"GPU KV cache size" prints blocks // groups x 16; "Maximum concurrency" is blocks over what one request of the
context reserves: cdiv(L, 16) blocks per full-attention group, cdiv(min(window - 1 + in-flight tokens, L), 16) + 1
per sliding group (SlidingWindowSpec.max_memory_usage_bytes). In-flight tokens: max_num_batched_tokens before
0.26, twice that (async scheduling) in current releases. V0, and V1 with --disable-hybrid-kv-cache-manager, keep
every token in the sliding layers of a model that mixes them with full attention.

Gemma 3 27B: 62 layers, 10 full and 52 sliding (window 1,024), 16 KV heads x 128: 2 x 16 x 128 x 2 = 8,192 bytes
per token per layer, 131,072 per 16-token block per layer. Groups: 52 >= 1.5 x 10, so groups of 10: one full
group and cdiv(52, 10) = 6 sliding groups, 7 in all, 8 padding layers. H100 serve defaults: 8,192 batched tokens.
"""

from __future__ import annotations

import pytest

from gpu_advisor.tools import arch
from gpu_advisor.tools.common import GIB
from gpu_advisor.tools.inference import (
    InferenceMemoryInput,
    inference_memory,
    vllm_kv_groups,
    vllm_sliding_capacity,
    vllm_sliding_mode,
)
from gpu_advisor.tools.models import resolve_model

GEMMA_LAYER_TOKEN = 2 * 16 * 128 * 2  # 8,192 bytes
GEMMA_PAGE = 16 * GEMMA_LAYER_TOKEN  # 131,072 bytes


def mem(**kw):
    kw.setdefault("engine", "vllm")
    kw.setdefault("gpu", "h100-sxm")
    return inference_memory(InferenceMemoryInput(**kw))


def test_groups_of_the_catalog_models():
    assert vllm_kv_groups(resolve_model("gemma-3-27b")) == (10, 1, 6)  # 10 full + 52 sliding -> 7 groups of 10
    assert vllm_kv_groups(resolve_model("gemma-3-12b")) == (8, 1, 5)  # 8 + 40: no padding
    assert vllm_kv_groups(resolve_model("gemma-2-9b")) == (21, 1, 1)  # 21 + 21
    assert vllm_kv_groups(resolve_model("gpt-oss-20b")) == (12, 1, 1)  # 12 + 12


def test_mode_by_version():
    gemma, mistral = resolve_model("gemma-3-27b"), resolve_model("mistral-7b-v0.1")
    assert vllm_sliding_mode(gemma, "v1") == vllm_sliding_mode(gemma, "v1-before-0.21") == "hybrid"
    assert vllm_sliding_mode(gemma, "v0") == "full"
    assert vllm_sliding_mode(gemma, "v1", disable_hybrid=True) == "full"
    assert vllm_sliding_mode(mistral, "v1") == vllm_sliding_mode(mistral, "v0") == "window"  # every layer slides
    assert vllm_sliding_mode(resolve_model("llama-3-8b"), "v1") is None


def test_reproduces_a_gemma_3_27b_log_at_4k():
    # a public start-up log (the code search's file id 9297248278; its repository could not be identified, so it is
    # not a reference row): vLLM 0.11.0rc2 (ROCm), gemma-3-27b-it, max_model_len 4096, max_num_batched_tokens 8192: "Available KV cache
    # memory: 109.86 GiB", "Add 8 padding layers", "GPU KV cache size: 205,696 tokens", "Maximum concurrency for
    # 4,096 tokens per request: 50.05x". 109.86 GiB // 131,072 // 10 = 89,997 blocks (the log: 89,994, the GiB
    # figure being rounded); 89,997 // 7 x 16 = 205,696; per request 256 + 6 x (cdiv(min(1,023 + 8,192, 4,096), 16)
    # + 1) = 256 + 6 x 257 = 1,798 blocks; 89,997 / 1,798 = 50.05
    gemma = resolve_model("gemma-3-27b")
    assert arch.kv_bytes_per_token_layer(gemma, 16) == GEMMA_LAYER_TOKEN
    tokens, concurrency, blocks = vllm_sliding_capacity(gemma, "hybrid", "v1-before-0.21", 109.86 * GIB,
                                                        GEMMA_LAYER_TOKEN, 4096, 8192)
    assert blocks == 89_997
    assert tokens == 205_696
    assert round(concurrency, 2) == 50.05


def test_reproduces_a_medgemma_27b_log_at_128k():
    # a deployment note quoting its vLLM log (code search file id 57700282700, repository not identified):
    # medgemma-27b-it (Gemma 3 27B layout), max_model_len 131072: "Available KV cache memory: 35.31 GiB",
    # "GPU KV cache size: 66,112 tokens": 35.31 GiB // 131,072 // 10 = 28,925 blocks; 28,925 // 7 x 16 = 66,112
    tokens, _, blocks = vllm_sliding_capacity(resolve_model("gemma-3-27b"), "hybrid", "v1-before-0.21", 35.31 * GIB,
                                              GEMMA_LAYER_TOKEN, 131072, 8192)
    assert (blocks, tokens) == (28_925, 66_112)


def test_current_releases_reserve_two_batches_in_flight():
    # a deployment note (code search file id 57814046151, repository not identified; vllm/vllm-openai:latest,
    # FP8 KV cache, L40S, --max-model-len 65536, serve
    # default 2,048 batched tokens below 70 GiB): 10.56 GiB available, "Maximum concurrency" 2.87x.
    # FP8: 4,096 bytes per token per layer; 10.56 GiB // 65,536 // 10 = 17,301 blocks. Two batches in flight
    # (async scheduling): 4,096 + 6 x (cdiv(min(1,023 + 4,096, 65,536), 16) + 1 = 321) = 6,022 blocks a
    # request, 17,301 / 6,022 = 2.87; one batch would give 4,096 + 6 x 193 = 5,254 and 3.29
    gemma = resolve_model("gemma-3-27b")
    layer_token = arch.kv_bytes_per_token_layer(gemma, 8)
    assert layer_token == 4096
    _, now, blocks = vllm_sliding_capacity(gemma, "hybrid", "v1", 10.56 * GIB, layer_token, 65536, 2048)
    _, before, _ = vllm_sliding_capacity(gemma, "hybrid", "v1-before-0.21", 10.56 * GIB, layer_token, 65536, 2048)
    assert blocks == 17_301
    assert (round(now, 2), round(before, 2)) == (2.87, 3.29)


@pytest.mark.parametrize(("context", "tokens", "concurrency"), [
    # available 17,322,320,814 bytes; // 131,072 // 10 = 13,215 blocks; 13,215 // 7 x 16 = 30,192 tokens.
    # in-flight 2 x 8,192 = 16,384: at 8k a sliding group reserves cdiv(min(17,407, 8,192), 16) + 1 = 513
    # blocks, the full group 512: 512 + 6 x 513 = 3,590, 13,215 / 3,590 = 3.68
    (8192, 30_192, 3.68),
    # at 32k: cdiv(17,407, 16) + 1 = 1,089 per sliding group, 2,048 for the full one: 8,582; 13,215 / 8,582 = 1.54
    (32768, 30_192, 1.54),
])
def test_gemma_3_27b_on_h100_v1(context, tokens, concurrency):
    r = mem(model="gemma-3-27b", context=context)
    assert r.term("available_kv_cache_bytes").value == pytest.approx(17_322_320_814, abs=1)
    assert r.kv_cache_capacity_tokens == tokens
    assert r.max_concurrent_sequences == concurrency
    assert any("7 groups of 10 (8 padding layers)" in a and "30,192 tokens" in a for a in r.assumptions)
    assert r.term("kv_cache_capacity_tokens").inputs["sliding_window_groups"] == 6


@pytest.mark.parametrize(("context", "concurrency"), [
    # available 11,415,167,918 bytes; // 131,072 // 10 = 8,709 blocks; 8,709 // 7 x 16 = 19,904 tokens.
    # in-flight 8,192 (one batch): at 8k 513 blocks per sliding group, 3,590 in all: 8,709 / 3,590 = 2.43
    (8192, 2.43),
    # at 32k: cdiv(min(9,215, 32,768), 16) + 1 = 577 per sliding group; 2,048 + 6 x 577 = 5,510; 8,709 / 5,510 = 1.58
    (32768, 1.58),
])
def test_gemma_3_27b_on_h100_before_0_21(context, concurrency):
    r = mem(model="gemma-3-27b", context=context, engine_version="v1-before-0.21")
    assert r.term("available_kv_cache_bytes").value == pytest.approx(11_415_167_918, abs=1)
    assert r.kv_cache_capacity_tokens == 19_904
    assert r.max_concurrent_sequences == concurrency


def test_the_printed_tokens_can_be_below_the_context_while_it_starts():
    # 19,904 tokens printed at a 32k context, yet a 32k request needs 5,510 of the 8,709 blocks: vLLM starts
    r = mem(model="gemma-3-27b", context=32768, engine_version="v1-before-0.21")
    assert r.kv_cache_capacity_tokens < 32768
    assert r.fits is True


@pytest.mark.parametrize(("version", "disable", "tokens", "c8k", "c32k"), [
    # V0: available 17,784,210,677.76 bytes // (131,072 x 62 layers) = 2,188 blocks = 35,008 tokens; its
    # concurrency is tokens / context: 35,008 / 8,192 = 4.27, / 32,768 = 1.07
    ("v0", False, 35_008, 4.27, 1.07),
    # V1 with the hybrid manager off: 17,322,320,814 // 8,126,464 = 2,131 blocks = 34,096 tokens: 4.16 and 1.04
    ("v1", True, 34_096, 4.16, 1.04),
])
def test_without_the_hybrid_manager_every_token_is_cached(version, disable, tokens, c8k, c32k):
    short = mem(model="gemma-3-27b", context=8192, engine_version=version, disable_hybrid_kv_cache_manager=disable)
    long = mem(model="gemma-3-27b", context=32768, engine_version=version, disable_hybrid_kv_cache_manager=disable)
    assert short.kv_cache_capacity_tokens == long.kv_cache_capacity_tokens == tokens
    assert (short.max_concurrent_sequences, long.max_concurrent_sequences) == (c8k, c32k)
    # one 8k sequence holds every token in all 62 layers: 62 x 8,192 x 8,192 bytes
    assert short.per_gpu_kv_cache_bytes == 62 * 8192 * GEMMA_LAYER_TOKEN == 4_160_749_568
    assert any("caches every token in the 52 sliding-window layers" in a for a in short.assumptions)


def test_the_hybrid_manager_keeps_the_window_for_the_sequences_held():
    # (10 x 8,192 + 52 x 1,024) tokens x 8,192 bytes for one 8k sequence
    r = mem(model="gemma-3-27b", context=8192)
    assert r.per_gpu_kv_cache_bytes == (10 * 8192 + 52 * 1024) * GEMMA_LAYER_TOKEN == 1_107_296_256


def test_gpt_oss_20b_on_h100_v1():
    # 12 full + 12 sliding (window 128), 8 KV heads x 64: 2,048 bytes per token per layer, 32,768 per block;
    # 2 groups of 12. available 60,141,082,654 // 32,768 // 12 = 152,946 blocks; // 2 x 16 = 1,223,568 tokens.
    # 8k: 512 + (cdiv(min(127 + 16,384, 8,192), 16) + 1 = 513) = 1,025 blocks a request: 152,946 / 1,025 = 149.22
    # 32k: 2,048 + (cdiv(16,511, 16) + 1 = 1,033) = 3,081: 152,946 / 3,081 = 49.64
    short = mem(model="gpt-oss-20b", precision="mxfp4", context=8192)
    long = mem(model="gpt-oss-20b", precision="mxfp4", context=32768)
    assert short.kv_cache_capacity_tokens == long.kv_cache_capacity_tokens == 1_223_568
    assert (short.max_concurrent_sequences, long.max_concurrent_sequences) == (149.22, 49.64)


@pytest.mark.parametrize(("version", "tokens", "concurrency"), [
    # every one of the 32 layers slides (window 4,096), 4,096 bytes per token per layer, one group:
    # v1: 60,193,375,150 // 65,536 // 32 = 28,702 blocks = 459,232 tokens; a 32k request reserves
    #     cdiv(min(4,095 + 16,384, 32,768), 16) + 1 = 1,281 blocks: 28,702 / 1,281 = 22.41
    ("v1", 459_232, 22.41),
    # before 0.21: 28,940 blocks = 463,040 tokens; cdiv(4,095 + 8,192, 16) + 1 = 769: 28,940 / 769 = 37.63
    ("v1-before-0.21", 463_040, 37.63),
    # V0 keeps the window too but prints tokens / context: 449,312 / 32,768 = 13.71
    ("v0", 449_312, 13.71),
])
def test_mistral_7b_every_layer_slides(version, tokens, concurrency):
    r = mem(model="mistral-7b-v0.1", context=32768, engine_version=version)
    assert r.kv_cache_capacity_tokens == tokens
    assert r.max_concurrent_sequences == concurrency


def test_other_engines_keep_the_window():
    # transformers: (10 x 8,192 + 52 x 1,024) x 8,192 / 8,192 = 135,168 bytes a token at 8k, not 62 x 8,192
    r = mem(model="gemma-3-27b", context=8192, engine="transformers", engine_version="v0")
    assert r.kv_bytes_per_token == 135_168
