"""Several layouts that meet every target on cards to rent or buy: the plan is the one on the fewest cards (what the
user pays for the job), speed only breaks ties among equal counts (review BV #4: 'how many h100s to serve a 140B-A22B
MoE at 50 req/s' answered 12 H100 as 3 x TP4 while its own table showed TP8 on 8 meeting every target). On cards
you own all of them serve, the fastest per user."""

from __future__ import annotations

import pytest

from gpu_advisor.knowledge import find_gpu
from gpu_advisor.tools.queueing import RateInput, size_by_rate
from gpu_advisor.tools.recommend import Workload, scaled_option
from tests.conversation import run_states

BV4 = [
    "how many h100s to serve Zephyr-Mega-140B-MoE (140b total 22b active) at fp8, about 50 req/s, 1k in 300 out",
    "Zephyr-Mega-140B-MoE, 140b total / 22b active, fp8, ~50 requests per second, 1k tokens in, 300 out: how many H100?",
    "要服务 Zephyr-Mega-140B-MoE（总参数140b，激活22b），fp8，每秒大约50个请求，输入1k输出300，需要几张h100？",
    "Zephyr-Mega-140B-MoE（140b总参数、22b激活）用fp8部署，每秒50个请求左右，输入1000输出300，要几张H100",
]


def _workload() -> Workload:
    state = run_states([BV4[0]])[-1]
    w = Workload.model_validate(state["results"]["recommend"]["workload"])
    return w.model_copy(update={"requests_per_s": None, "users": 705, "context": 1300, "candidates": ["12x h100-sxm"]})


@pytest.fixture(scope="module")
def bv4() -> Workload:
    return _workload()


def test_the_fewest_cards_that_meet_every_target_win_on_cards_to_rent(bv4: Workload) -> None:
    o = scaled_option(bv4, find_gpu("h100-sxm"), count=12)
    assert o is not None and o.ok and o.chosen_because == "meets"
    assert (o.gpus, o.tp or o.gpus, o.replicas) == (8, 8, 1)  # TP8 on 8, not 3 x TP4 on 12 (faster per user by 3%)
    assert any(t.gpus == 12 and t.ok for t in o.layouts_tried)  # the 12-card layout met them too


def test_cards_you_own_all_serve_the_fastest_layout(bv4: Workload) -> None:
    o = scaled_option(bv4, find_gpu("h100-sxm"), count=12, owned=True)
    assert o is not None and o.ok and o.gpus == 12  # paid for already: the speed decides


@pytest.mark.parametrize("text", BV4)
def test_the_rate_plan_is_the_fewest_cards_the_queue_sustains(text: str) -> None:
    state = run_states([text])[-1]
    rec = state["results"]["recommend"]
    best = rec["best"]
    # 8 H100 run 50 requests/s above the 80% cap (one TP8 copy sustains about 36/s, two TP4 copies about 48/s):
    # 12 as 3 x TP4 at 69% is the fewest; no row beside it claims that fewer cards meet every target
    r = size_by_rate(RateInput(model=rec["workload"]["model"], gpu="h100-sxm", precision="fp8", requests_per_s=50,
                               prompt_tokens=1000, output_tokens=300))
    assert (best["gpus"], best["tp"], best["replicas"]) == (r.gpus, r.tp, r.replicas) == (12, 4, 3)
    assert 0.6 < rec["traffic"]["utilisation"] <= 0.8
    assert not [t for t in best.get("layouts_tried") or [] if t["ok"] and t["gpus"] < best["gpus"]]
    out = state["messages"][-1].content
    assert ("12 × NVIDIA H100" in out) if text.isascii() else ("12 张" in out)
