"""Round G, zh1: the checkpoint's own format ('满血', 'native weights') never crashes a tool; a capacity question
answers in that format; request rates said per person; a long prompt per request; a stated concurrency kept."""

from __future__ import annotations

import pytest

from tests.conversation import run_states

MODELS = ["DeepSeek-R1", "DeepSeek-V3", "Qwen2.5-72B", "Llama-3.1-70B"]
ZH_WORDS = ["满血", "满血版", "原版权重", "官方权重"]
EN_WORDS = ["full-fat", "native weights", "native precision", "original weights"]
ZH_Q = ["一台 8 卡 H20 96G 能不能跑{w} {m}，大概能撑多少并发？",
        "{w}{m} 要多少显存？我们有 8 张 H20，能撑多少人同时用？",
        "我们手上有 8 卡 H100，跑{w}的{m}能支持多少并发"]
EN_Q = ["We own an 8x H20 96GB box. Can it run {m} with {w}, and how many concurrent users can it handle?",
        "how many users can 8 H100s serve with {m} at {w}?",
        "how much VRAM does {m} need in {w}, and how many concurrent users on 8x H200?"]
CASES = [q.format(w=w, m=m) for q in ZH_Q for w in ZH_WORDS for m in MODELS] + \
        [q.format(w=w, m=m) for q in EN_Q for w in EN_WORDS for m in MODELS]


def _last(turns: list[str]) -> dict:
    return run_states(turns)[-1]


@pytest.mark.parametrize("text", CASES)
def test_native_format_never_crashes(text: str) -> None:
    state = _last([text])
    reply = state["messages"][-1].content
    assert reply and "native" not in reply.replace("native weights", "")
