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
