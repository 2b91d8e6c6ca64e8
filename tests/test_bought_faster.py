"""A service bought with a budget: at about the cheapest plan's price, a plan clearly faster per user on no more
cards is the plan (review BW #15: 4 × 4060 Ti at $4,996 and 27 tokens/s a user over 2 × 5090 at $5,498 and 53, on a
$28,000 budget)."""

from __future__ import annotations

import pytest

from gpu_advisor.tools.recommend import FASTER_BOUGHT, SAME_PURCHASE, Option, Workload, _faster_bought
from tests.conversation import payload, run_conversation

LAW = [
    ["we're a law firm, 15 lawyers and 4 assistants, want to run qwen3-30b-a3b on our own server to review contracts, "
     "25k token context, about 5 at once, budget is $28k, what cards should we buy"],
    ["law office here: qwen3-30b-a3b for contract review on hardware we buy, 5 people at the same time, 25k context, "
     "budget around $30k. which gpus?"],
    ["律所自己部署qwen3-30b-a3b看合同，25k上下文，同时5个人用，预算两万八千美元，人在美国，买什么卡", "工作时间"],
]


@pytest.mark.parametrize("turns", LAW)
def test_twice_as_fast_for_a_tenth_more_is_the_plan(turns: list[str]) -> None:
    reply = run_conversation(turns)[-1]
    best = payload(reply)["results"]["recommend"]["best"]
    assert (best["gpu"], best["gpus"]) == ("rtx-5090", 2), (best["gpu"], best["gpus"])
    head = reply.content.splitlines()[0]
    assert head in ("## Buy 2 × NVIDIA GeForce RTX 5090 32GB for serving", "## 购买 2 × NVIDIA GeForce RTX 5090 32GB，用于推理服务")


def _opt(gpu: str, n: int, usd: float, tps: float, spare: float = 0.3) -> Option:
    return Option(gpu=gpu, gpu_name=gpu, gpus=n, ok=True, capacity_bytes=2, headroom_fraction=spare,
                  purchase_usd=usd, decode_tokens_per_s=tps)


@pytest.mark.parametrize(("usd", "tps", "n", "picked"), [
    (5498, 53, 2, "rtx-5090"),          # 10% dearer, 1.9x as fast, fewer cards
    (5000 * (1 + SAME_PURCHASE) + 1, 53, 2, "rtx-4060-ti-16gb"),  # past the price margin
    (5498, 27 * FASTER_BOUGHT - 1, 2, "rtx-4060-ti-16gb"),        # not clearly faster
    (5498, 53, 8, "rtx-4060-ti-16gb"),  # more cards
])
def test_faster_bought_margins(usd: float, tps: float, n: int, picked: str) -> None:
    w = Workload(model="qwen3-30b-a3b", phase="serve", users=5, budget_usd=28000, preference="buy")
    cheap = _opt("rtx-4060-ti-16gb", 4, 5000, 27)
    other = _opt("rtx-5090", n, usd, tps)
    assert _faster_bought(w, [cheap, other], cheap).gpu == picked


def test_budget_below_the_faster_one_keeps_the_cheapest() -> None:
    w = Workload(model="qwen3-30b-a3b", phase="serve", users=5, budget_usd=5200, preference="buy")
    cheap, other = _opt("rtx-4060-ti-16gb", 4, 5000, 27), _opt("rtx-5090", 2, 5498, 53)
    assert _faster_bought(w, [cheap, other], cheap).gpu == "rtx-4060-ti-16gb"
