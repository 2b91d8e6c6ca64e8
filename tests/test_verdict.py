"""One decision per answer (review AP E9, AQ 8, AQ 18, AR 9, AR 14): the headline plan, the comparison's closing
verdict and the rent/buy block name the same card; a vague count is no cap; a card named as a group is the class to
plan with, never one card owned. Read from the structured results, not the prose."""
from __future__ import annotations

from typing import Any

import pytest

from gpu_advisor.assistant.reading.card_group import said_as_group
from gpu_advisor.assistant.reading.text import clean
from tests.conversation import run_states


def _verdicts(state: dict[str, Any]) -> list[dict[str, Any]]:
    payload = state["messages"][-1].additional_kwargs.get("gpu_advisor") or {}
    return [a["verdict"] for a in payload.get("also") or [] if isinstance(a, dict) and a.get("verdict")]


def _best(state: dict[str, Any]) -> dict[str, Any]:
    return ((state.get("results") or {}).get("recommend") or {}).get("best") or {}


CHOICES = [
    # (message, the two cards weighed)
    ("h100 pcie vs h100 sxm for serving qwen2.5 32b, 8 cards either way, ~150 concurrent chat users 8k ctx. "
     "is the sxm premium worth it for inference?", {"h100-pcie", "h100-sxm"}),
    ("serving qwen2.5 32b to 150 concurrent users at 8k context: is h100 sxm worth it over h100 pcie?",
     {"h100-pcie", "h100-sxm"}),
    ("Qwen2.5 32B 推理，150 个并发用户，8k 上下文，H100 PCIe 和 H100 SXM 选哪个？SXM 贵的那部分值不值？",
     {"h100-pcie", "h100-sxm"}),
    ("150人同时用，8k上下文，部署qwen2.5 32b，用H100 SXM还是H100 PCIe划算", {"h100-pcie", "h100-sxm"}),
    ("预算5万块以内，想自己攒机跑本地大模型，主要是deepseek r1 蒸馏版 32b 写代码用，买两张3090二手还是一张4090好",
     {"rtx-3090", "rtx-4090"}),
    ("budget under $7000, building a home rig for deepseek r1 distill 32b coding: two used 3090s or one 4090?",
     {"rtx-3090", "rtx-4090"}),
    ("serving llama 3.1 70b to 100 concurrent users, h100 or h200, which and how many?", {"h100-sxm", "h200"}),
    ("llama 3.1 70b 推理，100 个并发用户，H200 还是 H100，要几张？", {"h100-sxm", "h200"}),
]


@pytest.mark.parametrize(("message", "cards"), CHOICES)
def test_headline_is_the_verdicts_card(message: str, cards: set[str]) -> None:
    state = run_states([message])[-1]
    best = _best(state)
    picks = [v for v in _verdicts(state) if v.get("pick") in cards and not v.get("short_all")]
    if best.get("gpu") in cards and best.get("ok"):
        assert picks, "a choice between two cards gets a verdict"
        assert {v["pick"] for v in picks} == {best["gpu"]}, (best["gpu"], picks)
    for v in _verdicts(state):
        if v.get("code") == "plan":
            assert (v["pick"], v["count"]) == (best["gpu"], best["gpus"])


@pytest.mark.parametrize("message", [
    "Startup here, ~$15k total budget, working hours mostly. we want to QLoRA fine-tune llama 3.3 70b on about 40k "
    "instruction pairs (~800 tokens each), then serve it to maybe 50 beta users. Buy a couple of 5090s or just rent "
    "H100s?",
    "we want to serve llama 3.3 70b to 50 users in working hours, budget $15k. a few 5090s, or rent h100s?",
])
def test_vague_count_is_no_cap(message: str) -> None:
    state = run_states([message])[-1]
    profile = state.get("profile") or {}
    assert not any(str(c).startswith("2x ") for c in profile.get("candidates") or []), profile.get("candidates")
    best = _best(state)
    assert best.get("gpu") == "rtx-5090" and best.get("gpus", 0) >= 4
    verdicts = _verdicts(state)
    assert all(v.get("code") != "neither" for v in verdicts)


@pytest.mark.parametrize(("said", "kept"), [
    ("buy a couple of 5090s or just rent H100s?", "5090s"),
    ("a few 4090s or rent h100s", "4090s"),
    ("买两三张4090还是租H100", "4090"),
    ("买一两张二手3090还是租H100", "used 3090"),
])
def test_vague_count_read_as_the_card(said: str, kept: str) -> None:
    text = clean(said)
    assert kept in text and not any(ch.isdigit() for ch in text.split(kept)[0])


@pytest.mark.parametrize(("said", "count"), [
    ("why not a couple of h100s", "2 h100s"),
    ("a couple hundred users", "200 users"),
])
def test_other_counts_kept(said: str, count: str) -> None:
    assert count in clean(said)


@pytest.mark.parametrize(("text", "group"), [
    ("用4090集群可以吗", True), ("can we use a 4090 cluster", True), ("a fleet of l40s", True),
    ("can h100s do it", True), ("does it fit on a 4090?", False), ("2000 tokens out", False),
])
def test_card_said_as_group(text: str, group: bool) -> None:
    assert said_as_group(text) is group


CLUSTER = [
    "我们在做一个代码补全插件，用qwen2.5-coder 7b，要求首token 200ms以内，p99，大概每秒50个请求，输入2000 token "
    "输出只有50 token，用4090集群可以吗",
    "code completion plugin on qwen2.5-coder 7b, 50 requests a second, 2000 token prompts, 50 tokens out, p99 ttft "
    "200ms. can we use a 4090 cluster?",
    "qwen2.5-coder 7b 每秒50个请求，输入2000输出50，用一批4090行不行？",
]


@pytest.mark.parametrize("message", CLUSTER)
def test_card_group_is_the_class_planned(message: str) -> None:
    state = run_states([message])[-1]
    profile = state.get("profile") or {}
    assert not profile.get("owned"), profile.get("owned")
    best = _best(state)
    assert best.get("gpu") == "rtx-4090" and best.get("gpus", 0) >= 12
    text = state["messages"][-1].content
    assert "你们有几张" not in text and "1 张" not in text.split("\n")[0]
    if not best.get("ok"):
        first = text.strip().split("\n")[0]
        assert not first.startswith(("**Yes**", "**能**"))


def test_output_only_n_tokens_is_no_card_owned() -> None:
    assert "we only have" not in clean("输出只有50 token")
    assert "we only have" in clean("手上只有两张4090")
    assert "we only have" in clean("只有一张a100")
