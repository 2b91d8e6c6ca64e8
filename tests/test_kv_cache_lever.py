"""An 8-bit KV cache on cards you own (FP8 in vLLM on cards with FP8 units, q8_0 in llama.cpp on any): the
answer says it, with the memory it saves from the inference-memory tool, whether or not it is enough."""

from __future__ import annotations

import pytest

from gpu_advisor.tools.recommend import Workload, _owned_card, evaluate
from tests.conversation import run_conversation


def _owned(model: str, precision: str, card: str, context: int, users: int, engine: str):
    w = Workload(phase="serve", model=model, serve_precision=precision, owned=[card], context=context, users=users,
                 engine=engine)
    gpu, n = _owned_card(card)
    return evaluate(w, gpu, n, owned=True)


# (model, weights, owned card, context, users, engine, KV format, fits, GB saved, GB of the 16-bit cache)
CASES = [
    ("qwen2.5-32b", "awq", "1x rtx-4090", 32768, 1, "vllm", "fp8", False, 4.29, 8.59),
    ("qwen2.5-32b", "q4_k_m", "1x rtx-4090", 32768, 1, "llama.cpp", "q8_0", True, 4.03, 8.59),
    ("qwen3-30b-a3b", "int4", "1x l40s", 131072, 4, "vllm", "fp8", True, 25.77, 51.54),
    ("llama-3.1-8b", "fp8", "1x rtx-5090", 65536, 4, "vllm", "fp8", True, 17.18, 34.36),
    ("llama-3.1-8b", "fp8", "1x h100-sxm", 131072, 8, "vllm", "fp8", False, 68.72, 137.44),
]


@pytest.mark.parametrize("model, weights, card, context, users, engine, kv, fits, saved_gb, full_gb", CASES)
def test_the_8_bit_kv_cache_is_tried_on_your_card_with_what_it_saves(model, weights, card, context, users, engine,
                                                                      kv, fits, saved_gb, full_gb):
    o = _owned(model, weights, card, context, users, engine)
    assert o.kv_precision == kv and bool(o.serves) is fits
    assert o.kv_saved_bytes / 1e9 == pytest.approx(saved_gb, abs=0.01)
    assert o.kv_cache_16bit_bytes / 1e9 == pytest.approx(full_gb, abs=0.01)


@pytest.mark.parametrize("model, context, users", [("qwen2.5-32b", 32768, 1), ("llama-3.1-8b", 65536, 4),
                                                   ("qwen3-30b-a3b", 131072, 2)])
def test_fp8_halves_the_cache_and_q8_0_keeps_17_of_32_parts(model, context, users):
    fp8 = _owned(model, "int4" if model != "llama-3.1-8b" else "fp8", "1x rtx-4090", context, users, "vllm")
    q8 = _owned(model, "q4_k_m", "1x rtx-4090", context, users, "llama.cpp")
    assert (fp8.kv_precision, q8.kv_precision) == ("fp8", "q8_0")
    if fp8.kv_precision == "fp8":
        assert fp8.kv_saved_bytes == pytest.approx(fp8.kv_cache_16bit_bytes / 2)
    if q8.kv_precision == "q8_0":
        assert q8.kv_saved_bytes == pytest.approx(q8.kv_cache_16bit_bytes * (1 - 8.5 / 16))


def test_no_fp8_cache_is_offered_on_a_card_without_fp8_units_in_vllm():
    o = _owned("qwen2.5-32b", "awq", "1x rtx-3090", 32768, 1, "vllm")
    assert o.kv_precision is None and o.kv_saved_bytes is None


@pytest.mark.parametrize("message, says", [
    ("serve qwen2.5-32b awq with vllm on my 4090 with 32k context, just me",
     ["That already counts the KV cache in FP8 (vLLM --kv-cache-dtype fp8); it saves 4.3 GB of the 8.6 GB the "
      "cache takes at 16 bits.",
      "- a 16,384-token context and the KV cache in FP8 (vLLM --kv-cache-dtype fp8; 2.1 GB less than at 16 bits): "
      "your own 1 × NVIDIA GeForce RTX 4090 24GB can do it"]),
    ("我有一张4090，想用vllm部署qwen2.5-32b awq，32k上下文，就我一个人用",
     ["这已经算上了 FP8 KV 缓存（vLLM --kv-cache-dtype fp8）；比 16 位的 8.6 GB 省下 4.3 GB。",
      "上下文缩短到 16,384 token，KV 缓存用 FP8（vLLM --kv-cache-dtype fp8；比 16 位省 2.1 GB）"]),
    ("serve qwen3-30b-a3b with vllm on my L40S, 128k context, 4 users",
     ["the KV cache in FP8 (vLLM --kv-cache-dtype fp8): half of the memory per token, so the conversations fit; "
      "it saves 25.8 GB of the 51.5 GB the cache takes at 16 bits"]),
    ("serve qwen2.5-32b awq on my 4090 with 32k context",
     ["the KV cache in Q8_0 (llama.cpp -ctk q8_0 -ctv q8_0 -fa)", "it saves 4.0 GB of the 8.6 GB"]),
])
def test_the_answer_says_the_8_bit_kv_cache_and_its_saving(message, says):
    text = str(run_conversation([message])[-1].content)
    for words in says:
        assert words in text
