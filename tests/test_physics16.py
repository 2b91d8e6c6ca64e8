"""Session 16, physics: speeds an expert would recognise as right.

Item 2 (review AP E16): a plan for users at once checks the prompt work their streams imply (users / (first token
+ output / speed) new requests a second, each a prompt to prefill) and is sized for that request rate when it binds.
"""

from __future__ import annotations

import pytest

from gpu_advisor.tools.prefill_load import PREFILL_BINDS_SHARE, prefill_load
from gpu_advisor.tools.recommend import Workload, recommend
from tests.conversation import run_states

# --- item 2: the prompt load users at once imply --------------------------------------------------------------


def test_the_implied_rate_is_littles_law_and_the_prompt_work_its_flops():
    # 400 streams of 400 tokens at 31 tokens/s, 280 ms first token: ~30 new requests/s (review AP E16's figure);
    # 30 x 6,000 tokens x 2 x 32.8B active = ~11.8 PFLOP/s of prefill
    p = prefill_load(400, 6000, 400, 0.28, 31.0, 5, 32.76)
    assert p.requests_per_s == pytest.approx(400 / (0.28 + 399 / 31.0))
    assert 29 < p.requests_per_s < 32
    assert p.prefill_pflops == pytest.approx(p.requests_per_s * 6000 * 2 * 32.76e9 / 1e15)
    assert 11 < p.prefill_pflops < 12.5
    assert p.share == pytest.approx(p.requests_per_s * 0.28 / 5) and p.binds


def test_short_prompts_do_not_bind():
    # 50 chat users, 500-token prompts at 60 ms: a few requests a second, a sliver of one copy's time
    p = prefill_load(50, 500, 400, 0.06, 30.0, 1, 8.0)
    assert p.share < PREFILL_BINDS_SHARE and not p.binds


def _coder(users: int = 400, prompt: int = 6000, **kw) -> Workload:
    return Workload(phase="serve", model="qwen2.5-coder-32b", users=users, prompt_tokens=prompt, output_tokens=400,
                    ttft_ms=1000, ttft_percentile=0.95, min_tokens_per_s=30, utilisation=1.0, preference="rent",
                    flexible=["context", "precision", "preference", "region"], **kw)


@pytest.mark.parametrize("cards", [["h200"], ["h100-sxm"]])
def test_a_users_plan_whose_prompts_bind_is_sized_for_the_rate(cards):
    rec = recommend(_coder(candidates=cards))
    assert rec.prefill_load is not None and rec.prefill_load.binds
    assert 29 < rec.prefill_load.requests_per_s < 32
    assert rec.traffic is not None and rec.traffic.requests_per_s == pytest.approx(rec.prefill_load.requests_per_s)
    best = rec.best
    assert best is not None and best.ok and best.gpu == cards[0]
    # the memory-and-decode plan (10 x H200, 16 x H100) cannot prefill ~184k tokens/s: at least 24 cards either way
    assert best.gpus >= 24 and best.gpus > rec.prefill_load.sized_gpus
    assert (best.decode_tokens_per_s or 0) >= 30


def test_short_prompts_keep_the_users_plan():
    rec = recommend(_coder(users=40, prompt=500, candidates=["h200"]))
    assert rec.prefill_load is None and rec.traffic is None


EN_E16 = [
    "we're launching a coding assistant SaaS on qwen2.5 coder 32b. target p95 TTFT 1s and at least 30 tok/s per "
    "stream, expecting 400 concurrent streams at peak, prompts ~6k tokens (repo context), outputs ~400. H100 or H200, "
    "how many, monthly cost?",
    "400 concurrent users on Qwen2.5-Coder-32B, 6k token prompts and 400 token answers, 30 tokens/s each, first token "
    "under 1 s at p95. how many H200?",
]
ZH_E16 = [
    "我们做代码助手SaaS，用qwen2.5 coder 32b，高峰400路并发，提示词大约6k token，输出400左右，每路至少30 token/s，"
    "首token p95 1秒，H100还是H200，要多少张？",
    "Qwen2.5-Coder-32B，400人同时用，输入6000 token，输出400 token，每人30 token/s，首字延迟p95一秒内，要几张H200？",
]


@pytest.mark.parametrize("text,lang", [(t, "en") for t in EN_E16] + [(t, "zh") for t in ZH_E16])
def test_the_reply_sizes_the_streams_for_their_prompt_load(text, lang):
    state = run_states([text])[-1]
    rec = state["results"]["recommend"]
    load = rec["prefill_load"]
    assert load is not None and 25 < load["requests_per_s"] < 35
    assert rec["best"]["gpu"] in ("h200", "h100-sxm") and rec["best"]["gpus"] >= 24
    reply = state["messages"][-1].content
    rate = f"{load['requests_per_s']:,.3g}"
    assert rate in reply
    assert ("Prompt load" in reply) == (lang == "en") and ("提示词负载" in reply) == (lang == "zh")


# --- item 3: weight-only 4-bit is compute-bound at high batch; FP8 W8A8 ranks first there -----------------------

from gpu_advisor.tools.throughput import SpeedInput, speed  # noqa: E402


def _throughput(model: str, precision: str, batch: int, gpus: int = 1, gpu: str = "h100-sxm") -> float:
    r = speed(SpeedInput(model=model, precision=precision, gpu=gpu, gpus=gpus, batch=batch, context=2048,
                         engine="vllm"))
    return r.decode_tokens_per_s * batch


MODELS = [("llama-3.1-8b", 1), ("qwen2.5-32b", 1), ("llama-3.1-70b", 2)]


@pytest.mark.parametrize("model,gpus", MODELS)
@pytest.mark.parametrize("int4", ["awq", "gptq-int4"])
def test_int4_wins_at_low_batch_on_h100(model, gpus, int4):
    # Marlin: close to ideal (4x) speedups up to batch 16-32 (IST-DASLab/marlin README): the weight read rules
    for batch in (1, 16):
        assert _throughput(model, int4, batch, gpus) > _throughput(model, "fp8", batch, gpus)


@pytest.mark.parametrize("model,gpus", MODELS)
@pytest.mark.parametrize("int4", ["awq", "gptq-int4"])
@pytest.mark.parametrize("gpu", ["h100-sxm", "h200"])
def test_fp8_ranks_above_int4_at_high_batch_on_hopper(model, gpus, int4, gpu):
    # at 128-256 streams the W4A16 GEMMs run on the 16-bit tensor path, half FP8's rate: FP8 W8A8 serves more
    for batch in (128, 256):
        assert _throughput(model, "fp8", batch, gpus, gpu) > _throughput(model, int4, batch, gpus, gpu)


def test_batch_one_int4_speed_is_unchanged_by_the_compute_side():
    # one stream: the GEMM of one token is far below the weight read, the step is the read as before
    r = speed(SpeedInput(model="llama-3.1-8b", precision="awq", gpu="h100-sxm", gpus=1, batch=1, context=2048,
                         engine="vllm"))
    assert r.terms[0].inputs["bandwidth_efficiency"] > 0
    assert 150 < r.decode_tokens_per_s < 200


# --- item 4: a hybrid (SSM + attention) model the catalog does not know: said, never silently dense -------------

from gpu_advisor.assistant.reading.hybrid import hybrid_name  # noqa: E402


@pytest.mark.parametrize("name", ["Phi-4-mini-flash", "phi-4-mini-flash-reasoning", "Zamba2-7B", "jamba-mini",
                                  "Falcon-H1-7B", "nemotron-h-8b", "granite-4.0-h-small", "RWKV-7"])
def test_hybrid_names_are_heard(name):
    assert hybrid_name(name)


@pytest.mark.parametrize("name", ["llama-3.1-8b", "qwen2.5-coder-32b", "phi-4", "gemma-3-27b", "flashattention"])
def test_dense_names_are_not_hybrid(name):
    assert not hybrid_name(name)


HYBRID_TURNS = [
    ("we want to run Phi-4-mini-flash for 500 call center agents, 32k context 500 users", "en"),
    ("serving phi-4-mini-flash-reasoning to 500 agents at 32k context, what GPUs?", "en"),
    ("我们要部署 Phi-4-mini-flash 模型，给500个客服坐席用，32k上下文", "zh"),
    ("部署 Phi-4-mini-flash，500 个坐席同时在线，上下文 32k，需要什么卡", "zh"),
]


@pytest.mark.parametrize("text,lang", HYBRID_TURNS)
def test_an_unknown_hybrid_is_said_to_need_far_less_kv(text, lang):
    reply = run_states([text])[-1]["messages"][-1].content
    if lang == "en":
        assert "hybrid model" in reply and "upper bound" in reply
    else:
        assert "混合架构模型" in reply and "上限" in reply and "hybrid" not in reply
