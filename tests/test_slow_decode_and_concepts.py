"""Questions that are not sizing requests get answers, not intake questions (helper whyslow, reviews: 'why does my
H100 generate tokens slower than expected when batch size is 1? its like 40 tok/s on a 8b model in fp16' was asked
how many people will chat; 'MIG vs time-slicing' and 'KV cache 到底怎么算？' got intake questions; '为什么同样的模型用
vllm比用transformers快这么多？原理是啥' got the engines' product lines).

A slow speed on one's own card is a diagnosis (intent slow_decode): the card's decode ceiling from the tool
(tools.decode_ceiling: bandwidth / bytes read per token), the measured speed's share of it, the likely causes in
order. GPU sharing (MIG, time-slicing, MPS), the KV cache's arithmetic and why a serving engine is faster are concept
answers in the user's language. A sizing request that carries a speed or a 'why' stays a sizing request."""

from __future__ import annotations

import itertools
import re

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.writers import tps
from gpu_advisor.knowledge import find_gpu, find_precision
from gpu_advisor.tools import arch
from gpu_advisor.tools.decode_ceiling import CONTEXT, CeilingInput, decode_ceiling
from gpu_advisor.tools.models import resolve_model
from tests.conversation import run_conversation

CJK = re.compile(r"[\u3400-\u9fff]")

# ---------------------------------------------------------------- the tool: bandwidth / bytes read per token


@pytest.mark.parametrize(("gpu", "model", "precision"), list(itertools.product(
    ["h100-sxm", "h100-pcie", "rtx-4090", "rtx-3090", "a100-80gb-sxm", "l40s"],
    ["llama-3.1-8b", "qwen2.5-7b", "8B"], ["fp16", "bf16", "fp8", "awq"])))
def test_ceiling_is_bandwidth_over_bytes_read_per_token(gpu, model, precision):
    card, arch_ = find_gpu(gpu), resolve_model(model)
    fmt = find_precision(precision)
    weights = arch.weight_bytes(arch_, fmt, arch_.total_params_b * 1e9)
    r = decode_ceiling(CeilingInput(model=model, precision=precision, gpu=gpu))
    kv = arch.kv_cache_bytes(arch_, 16, CONTEXT, 1)  # the KV cache stays 16-bit unless a KV format is said
    assert r.ceiling_tokens_per_s == pytest.approx(card.memory_bandwidth_gbps * 1e9 / (weights + r.kv_gb * 1e9), rel=1e-9)
    assert r.kv_gb * 1e9 == pytest.approx(kv, rel=1e-9)
    # a tuned engine at batch 1 gets a share of the ceiling (small 4-bit models: its fixed overhead weighs), never more
    assert 0.15 * r.ceiling_tokens_per_s < r.engine_tokens_per_s < r.ceiling_tokens_per_s
    assert r.term("decode_ceiling_tokens_per_s").formula.startswith("memory bandwidth /")


@pytest.mark.parametrize(("gpu", "model", "precision", "ceiling"), [
    ("h100-sxm", "8B", "fp16", 205), ("h100-sxm", "llama-3.1-8b", "bf16", 205), ("rtx-4090", "llama-3.1-8b", "fp16", 62),
    ("a100-80gb-sxm", "llama-3-8b", "bf16", 125), ("rtx-3090", "qwen2.5-7b", "bf16", 61),
    ("h100-sxm", "llama-3.1-8b", "fp8", 358)])
def test_ceiling_values(gpu, model, precision, ceiling):
    """3.35 TB/s over 16 GB of weights is about 200 tokens/s (the review's figure); 8-bit weights nearly double it
    (FP8 keeps the embeddings in 16 bits)."""
    r = decode_ceiling(CeilingInput(model=model, precision=precision, gpu=gpu))
    assert round(r.ceiling_tokens_per_s) == pytest.approx(ceiling, abs=3)


@pytest.mark.parametrize(("measured", "verdict"), [(20, "slow"), (40, "slow"), (60, "slow"), (95, "expected"),
                                                    (150, "expected"), (200, "expected"), (260, "above")])
def test_measured_speed_verdict(measured, verdict):
    r = decode_ceiling(CeilingInput(model="llama-3.1-8b", precision="fp16", gpu="h100-sxm", measured_tokens_per_s=measured))
    assert r.verdict == verdict
    assert r.share_of_ceiling == pytest.approx(measured / r.ceiling_tokens_per_s)


# ---------------------------------------------------------------- reading: a diagnosis, not an intake

CARDS = [("H100", "h100-sxm"), ("4090", "rtx-4090"), ("3090", "rtx-3090"), ("A100", "a100-80gb-sxm"), ("L40S", "l40s")]
MODELS = [("llama 3.1 8b", "llama-3.1-8b"), ("qwen2.5 7b", "qwen2.5-7b"), ("a 8b model", "8B")]
FORMATS = [("fp16", "fp16"), ("bf16", "bf16"), ("", None)]
SPEEDS = [("40 tok/s", 40.0), ("20 tokens/s", 20.0), ("15 tokens per second", 15.0)]
EN = ["why does my {c} generate tokens slower than expected when batch size is 1? its like {s} on {m} in {f}",
      "my {c} only gets {s} on {m} {f}, is that normal?",
      "why is my {c} so slow? {m} {f} runs at only {s}",
      "i'm getting {s} with {m} {f} on my {c}, why so slow"]
ZH = ["为什么我的{c}跑{m} {f}这么慢，只有{s}", "我的{c}跑{m} {f}才{s}，正常吗？", "为啥我的{c}跑{m} {f}只有{s}",
      "{c}跑{m} {f}实测只有{s}，是不是太低了"]
ZH_SPEEDS = [("40 token/s", 40.0), ("20 tokens每秒", 20.0), ("15 tok/s", 15.0)]


def _slow(text: str) -> dict:
    u = understand(text)
    assert "slow_decode" in u.intents, (text, u.intents, u.updates)
    assert not u.updates, u.updates  # nothing sized, no job asked for
    return u.ask["slow_decode"]


@pytest.mark.parametrize(("card", "model", "fmt", "speed", "frame"),
                         list(itertools.product(CARDS, MODELS, FORMATS, SPEEDS, EN)))
def test_english_slow_speed_on_own_card_is_a_diagnosis(card, model, fmt, speed, frame):
    text = frame.format(c=card[0], m=model[0], f=fmt[0], s=speed[0])
    asked = _slow(text)
    assert asked["gpu"] == card[1] and asked["measured"] == speed[1]
    assert resolve_model(asked["model"]).name == resolve_model(model[1]).name
    assert asked.get("precision") == fmt[1]


@pytest.mark.parametrize(("card", "model", "fmt", "speed", "frame"),
                         list(itertools.product(CARDS, MODELS[:2], FORMATS, ZH_SPEEDS, ZH)))
def test_chinese_slow_speed_on_own_card_is_a_diagnosis(card, model, fmt, speed, frame):
    text = frame.format(c=card[0], m=model[0], f=fmt[0], s=speed[0])
    asked = _slow(text)
    assert asked["gpu"] == card[1] and asked["measured"] == speed[1]
    assert asked["model"] == model[1] and asked.get("precision") == fmt[1]


@pytest.mark.parametrize("text", ["为什么我的4090跑得慢，只有20 token/s", "why is my 4090 so slow, only 20 tok/s",
                                  "my 3090 feels slow, is that normal?", "我的A100跑得好慢，正常吗"])
def test_no_model_said_still_a_diagnosis(text):
    asked = _slow(text)
    assert "model" not in asked


@pytest.mark.parametrize("text", [
    "we need at least 40 tok/s per user on llama 8b with 20 users, why would a 4090 not be enough?",
    "serve llama 3.1 8b on my 4090, want 30 tok/s",
    "serve qwen2.5 7b to 20 users on my h100, at least 30 tok/s each",
    "my 4090 is slow for qwen 32b, what should I buy?",
    "我们4张A6000跑70B，大家嫌慢，加一台还是换卡？",
    "我的4090跑qwen2.5 7b太慢了，想换卡，买什么好",
    "why does the plan need 2 h100s for llama 8b?",
    "we run 4x A6000 serving llama 70b awq for about 20 people. users are complaining its slow",
    "h100 vs a100 for llama 3.1 8b, which is faster?",
])
def test_a_sizing_that_says_speed_or_why_is_not_a_diagnosis(text):
    assert "slow_decode" not in understand(text).intents


# ---------------------------------------------------------------- the reply: the ceiling number, the ratio, the causes

REPLIES = [
    ("why does my H100 generate tokens slower than expected when batch size is 1? its like 40 tok/s on a 8b model in fp16",
     "h100-sxm", "8B", "fp16", 40.0, "en"),
    ("my 4090 only gets 20 tok/s on llama 3.1 8b bf16, is that normal?", "rtx-4090", "llama-3.1-8b", "bf16", 20.0, "en"),
    ("为啥我的3090跑qwen2.5 7b才15 tokens每秒", "rtx-3090", "qwen2.5-7b", "bf16", 15.0, "zh"),
    ("A100跑llama3 8b bf16只有30 tok/s，正常吗？", "a100-80gb-sxm", "llama-3-8b", "bf16", 30.0, "zh"),
    ("my h100 gets 150 tok/s on llama 3.1 8b fp16, is that normal?", "h100-sxm", "llama-3.1-8b", "fp16", 150.0, "en"),
    ("为什么我的4090跑得慢，只有20 token/s", "rtx-4090", "llama-3.1-8b", "bf16", 20.0, "zh"),
]


@pytest.mark.parametrize(("text", "gpu", "model", "precision", "measured", "lang"), REPLIES)
def test_reply_gives_the_tool_ceiling_and_the_ratio(text, gpu, model, precision, measured, lang):
    reply = run_conversation([text])[-1]
    payload = reply.additional_kwargs["gpu_advisor"]
    assert payload["topic"] == "slow_decode" and "choices" not in payload  # no intake question, no quick replies
    r = decode_ceiling(CeilingInput(model=model, precision=precision, gpu=gpu, measured_tokens_per_s=measured))
    got = payload["results"]["slow_decode"]
    assert got["ceiling_tokens_per_s"] == round(r.ceiling_tokens_per_s, 1) and got["verdict"] == r.verdict
    body = str(reply.content)
    assert f"≈ {tps(r.ceiling_tokens_per_s)} token" in body
    assert f"{r.share_of_ceiling * 100:.0f}%" in body
    if r.verdict == "slow":  # the causes in order: the software first
        first = "Hugging Face" if lang == "en" else "**软件。**"
        assert body.index(first) < body.index("nvidia-smi")
    if lang == "zh":
        assert not re.search(r"\b(?:the|of|is|tokens/s|ceiling)\b", body), body
    else:
        assert not CJK.search(body)


# ---------------------------------------------------------------- concept questions, both languages

CONCEPTS = [
    ("MIG vs time-slicing", "mig+time-slicing", "en"), ("what is MIG?", "mig", "en"), ("what is MPS", "mps", "en"),
    ("what's the difference between MIG and MPS?", "mig+mps", "en"), ("explain time-slicing", "time-slicing", "en"),
    ("MIG和时间片有什么区别", "mig+time-slicing", "zh"), ("什么是MIG？", "mig", "zh"), ("MPS是什么", "mps", "zh"),
    ("MIG 和 MPS 有啥区别？", "mig+mps", "zh"),
    ("为什么同样的模型用vllm比用transformers快这么多？原理是啥", "engine-speed", "zh"),
    ("vllm为啥比hf transformers快", "engine-speed", "zh"),
    ("why is vllm so much faster than transformers?", "engine-speed", "en"),
    ("what makes vllm fast", "engine-speed", "en"), ("how is sglang faster than plain hf generate?", "engine-speed", "en"),
]


@pytest.mark.parametrize(("text", "topic", "lang"), CONCEPTS)
def test_concept_questions_are_explained(text, topic, lang):
    u = understand(text)
    assert u.topic == topic and "explain" in u.intents and not u.updates, (u.topic, u.intents, u.updates)
    reply = run_conversation([text])[-1]
    body = str(reply.content)
    assert reply.additional_kwargs["gpu_advisor"]["topic"] == topic
    assert "choices" not in reply.additional_kwargs["gpu_advisor"]  # no intake question
    if lang == "zh":
        assert CJK.search(body) and not re.search(r"\b(?:the|and|is|of)\b", body), body
    else:
        assert not CJK.search(body)
    if topic == "engine-speed":  # the mechanisms, not the product lines
        for word in (("continuous batching", "pagedattention", "cuda graphs", "prefix caching") if lang == "en"
                     else ("连续批处理", "pagedattention", "cuda graph", "前缀缓存")):
            assert word in body.lower()


KV = [("KV cache 到底怎么算？", "zh"), ("kv缓存怎么计算", "zh"), ("kv缓存的计算公式是什么", "zh"), ("KV cache 如何计算？", "zh"),
      ("how is the kv cache calculated?", "en"), ("what's the formula for kv cache", "en"),
      ("how do you calculate kv cache size", "en")]


@pytest.mark.parametrize(("text", "lang"), KV)
def test_kv_cache_arithmetic_is_answered_with_the_formula(text, lang):
    """2 × layers × KV heads × head dim × bytes × tokens, on the default example (Llama 3.1 8B: 128 KiB a token)."""
    reply = run_conversation([text])[-1]
    body = str(reply.content)
    assert reply.additional_kwargs["gpu_advisor"]["topic"] == "kv_cache"
    assert "2 × 32" in body and "8" in body and "128 KiB" in body
    assert ("层数 × KV 头数" in body) if lang == "zh" else ("layers × KV heads" in body)


@pytest.mark.parametrize("text", ["vllm or sglang for qwen 7b?", "should I use vllm or tgi to serve llama 8b to 50 users?"])
def test_an_engine_choice_stays_an_engine_choice(text):
    u = understand(text)
    assert u.topic != "engine-speed" and "engine_choice" in u.intents | {u.also}
