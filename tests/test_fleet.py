"""Cards you own are a ceiling, not a count to fill (review AP E3, E12, E2, AR 17, E14): the smallest sufficient part of
what the user owns, in English and Chinese, in any word order."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.conversation import run_conversation

CJK = re.compile(r"[\u4e00-\u9fff]")


def _best(turns: list[str]) -> tuple[dict[str, Any], str]:
    reply = run_conversation(turns)[-1]
    rec = reply.additional_kwargs["gpu_advisor"]["results"]["recommend"]
    return rec["best"], str(reply.content)


# ---------------------------------------------------------------- 1. how many of ours does it eat (AP E3)

EAT_EN = [
    "we own 2 DGX H100 (16 GPUs). we want to serve llama 3.3 70b to 25 concurrent users, 4k prompts, 500 out. "
    "how many of our GPUs does it take?",
    "how many GPUs would serving llama 3.3 70b for 25 people at once eat? we have two 8x H100 boxes",
    "Our ML team owns 2 DGX H100 boxes (16 GPUs total, IB between them). Right now they're used for training maybe "
    "40% of the week. Leadership wants to also host llama 3.3 70b internally for 25 concurrent users. Can we do that "
    "on what we own?",
    "so uh, we have 16x h100 sxm, half of them are training our own models. can we serve llama 3.3 70b to 25 users?",
]
EAT_ZH = [
    "我们有两台8卡H100，想部署llama 3.3 70b给25个人同时用，要占几张卡？",
    "部署llama 3.3 70b，25人同时用，我们手上16张H100，其中一半在训练，会用掉几张卡啊",
    "我们有16张H100，平时有一半在跑训练，想上线llama 3.3 70b给25个人用，剩下的留给训练，行吗",
]


@pytest.mark.parametrize("text", EAT_EN + EAT_ZH)
def test_owned_fleet_takes_the_fewest(text: str) -> None:
    best, content = _best([text])
    assert best["owned"] and best["gpu"] == "h100-sxm", content
    assert best["gpus"] <= 8 and best["gpus"] < 16, content  # never all 16 for 25 users of a 70B
    assert best["ok"], content
    first = content.split("\n")[0]
    assert "16" in first and str(16 - best["gpus"]) in first, content  # how many of theirs, how many stay free
    assert bool(CJK.search(first)) == (text in EAT_ZH), content


def test_training_share_is_no_fine_tuning() -> None:
    best, content = _best([EAT_EN[2]])
    assert "QLoRA" not in content and best["serves"], content


@pytest.mark.parametrize("text", ["we have 2 dgx h100, half of them are training. serve llama 3.3 70b to 60 users at "
                                  "32k context on the rest?",
                                  "两台8卡H100，一半在训练，剩下的部署llama 3.3 70b，60人同时用，32k上下文，够吗"])
def test_busy_half_is_left_out(text: str) -> None:
    best, content = _best([text])
    assert best["owned"] and best["gpus"] <= 8, content


def test_filling_stays_when_not_asked() -> None:
    """'we have 16x Ascend 910B, serve qwen2.5 72b to 100 users': no question of how many, the fleet serves it."""
    best, content = _best(["we have 16x Ascend 910B, serve qwen2.5 72b to 100 users"])
    assert best["gpus"] == 16, content


# ---------------------------------------------------------------- 5. how many users fit on these cards (AP E14)

CAPACITY = [
    ("serving llama 3.1 8b on one a100 40gb, 32k context per request. how many concurrent users before the kv cache "
     "runs out?", "a100-40gb-sxm"),
    ("llama 3.1 8b, 32k context, one A100 40GB: how many users fit before the KV cache is full?", "a100-40gb-sxm"),
    ("how many 32k-context users fit on one a100 80gb for llama 3.1 8b", "a100-80gb-sxm"),
    ("一张A100 40G跑llama 3.1 8b，32k上下文，kv cache 最多能撑多少个并发用户？", "a100-40gb-sxm"),
]


@pytest.mark.parametrize(("text", "gpu"), CAPACITY)
def test_capacity_on_the_cards_named(text: str, gpu: str) -> None:
    reply = run_conversation([text])[-1]
    data = reply.additional_kwargs["gpu_advisor"]
    cap = data["results"].get("capacity")
    assert cap is not None, reply.content  # the count of users, never 'tell me the model and the cards first'
    assert 2 <= cap["users"] <= 40, reply.content
    assert data["results"]["capacity"]["users"] > 0 and gpu.split("-")[1] in str(reply.content).lower(), reply.content
    assert bool(CJK.search(str(reply.content))) == bool(CJK.search(text)), reply.content


# ---------------------------------------------------------------- 4. does quantisation fix it (AR 17)

QUANT = [
    "we own one DGX H100 (8 gpus). currently serving qwen2.5 72b instruct in bf16 for ~60 users and its getting slow. "
    "do we need a second box or can we fix it with quantization / config?",
    "our 8x h100 box runs qwen2.5 72b bf16 for 60 people, users complain it's slow. would quantizing it help?",
    "我们有一台8卡H100，用bf16跑qwen2.5 72b给60个人用，现在很慢，量化能解决吗？还是要再买一台？",
]


@pytest.mark.parametrize("text", QUANT)
def test_quantisation_lever_answered(text: str) -> None:
    best, content = _best([text])
    assert best["owned"] and best["gpus"] == 8, content
    zh = bool(CJK.search(text))
    assert ("量化" in content) if zh else ("Quantisation" in content), content
    assert "FP8" in content and "AWQ" in content, content  # the 8-bit lever on H100, then 4-bit with its cost
