"""Review AK C20 and friends (helper fig2): a request rate with a percentile first-token target on a big MLA/MoE
model is sized by its physics, not by copies bought to empty a per-copy queue (432 x H20 at 16% load before)."""

from __future__ import annotations

import pytest

from gpu_advisor.knowledge import find_gpu, find_precision
from gpu_advisor.tools import throughput
from gpu_advisor.tools.models import resolve_model
from gpu_advisor.tools.queueing import RateInput, size_by_rate

C20 = [
    ("zh", "deepseek-v3，峰值 QPS 5，平均输入 6000 token，输出 400，TTFT p95 两秒以内，要多少张 H20"),
    ("zh", "要多少张 H20？用 deepseek v3，高峰每秒 5 个请求，平均输入 6000 token，输出 400，首 token p95 不超过 2 秒"),
    ("en", "deepseek-v3, peak 5 QPS, avg 6000 input tokens, 400 output, TTFT p95 under 2 seconds, how many H20 do I need"),
    ("en", "H20 how many? deepseek v3, 5 requests per second at peak, prompts average 6000 tokens, 400 output, "
           "p95 time to first token 2 s"),
]


def test_mla_attention_counts_its_narrower_values() -> None:
    """MLA's prefill attention: scores over the 192-wide query-key heads, the weighted sum over 128-wide values."""
    model, gpu, fp8 = resolve_model("deepseek-v3"), find_gpu("h20"), find_precision("fp8")
    got = throughput.prefill_token_seconds(model, fp8, gpu, "vllm", 8, 6000)["attention_flops"]
    assert got == pytest.approx(2 * 128 * (192 + 128) * 61 * 3000)


@pytest.mark.parametrize("gpu", ["h20", "h800", "h100"])
def test_rate_sizing_stays_near_what_the_rate_needs(gpu: str) -> None:
    r = size_by_rate(RateInput(model="deepseek-v3", gpu=gpu, precision="fp8", requests_per_s=5, prompt_tokens=6000,
                               output_tokens=400, ttft_target_ms=2000, ttft_percentile=0.95, max_gpus=512))
    assert r.gpus <= 96, (r.gpus, r.replicas, r.utilisation)
    # copies that are used, not bought to keep queues empty; or one copy on the fewest cards that hold the model (h-moe:
    # 16 H100 as one data-parallel-attention, expert-parallel copy at 47%, where 24 as TP8 x PP3 ran at 67%)
    assert r.utilisation >= 0.5 or (r.replicas == 1 and r.unit_gpus == 16)
    assert r.ttft_q_s <= 2.0


@pytest.mark.parametrize(("lang", "text"), C20)
def test_c20_h20_count(lang: str, text: str) -> None:
    from tests.conversation import run_states

    state = run_states([text])[-1]
    best = state["results"]["recommend"]["best"]
    assert best["gpu"] == "h20"
    assert 24 <= best["gpus"] <= 96, best["gpus"]
    reply = state["messages"][-1].content
    assert ("张" in reply) == (lang == "zh")
