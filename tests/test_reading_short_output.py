"""A length said beside a very short output (review BT #15): '每条大概三百token 输出就几个字' is 300 tokens read per item
and an output of a handful of tokens, not a 300-token output with an assumed 1,000-token input; likewise 'prompts
~2k, answers are just a word or two'. Generated over both languages, the item words and the ways of saying short."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states

ZH_EACH = ["每条大概三百token", "每条300 token左右", "每条评论大概300个token", "平均每条三百token"]
ZH_SHORT = ["输出就几个字", "输出只有几个字", "输出就一两个词", "输出也就几个字"]


@pytest.mark.parametrize(("each", "short"), list(itertools.product(ZH_EACH, ZH_SHORT)))
def test_zh_length_beside_short_output_is_the_input(each, short) -> None:
    u = understand(f"要给两百万条用户评论打情感标签 {each} {short} 用qwen2.5-7b")
    assert u.updates.get("phase") == "batch"
    assert u.updates.get("batch_input_tokens") == 300, u.updates
    assert 1 <= u.updates.get("batch_output_tokens", 0) <= 16, u.updates


EN_EACH = ["each ~300 tokens", "each review is about 300 tokens", "300 tokens each"]
EN_SHORT = ["output is just a few words", "answers are just a word or two", "the output is only a few tokens",
            "outputs are a couple of words"]


@pytest.mark.parametrize(("each", "short"), list(itertools.product(EN_EACH, EN_SHORT)))
def test_en_length_beside_short_output_is_the_input(each, short) -> None:
    u = understand(f"label 2 million reviews with qwen2.5-7b, {each}, {short}")
    assert u.updates.get("batch_input_tokens") == 300, u.updates
    assert 1 <= u.updates.get("batch_output_tokens", 0) <= 16, u.updates


@pytest.mark.parametrize("text", ["prompts ~2k, answers are just a word or two",
                                  "prompts about 2k tokens, the output is just a few words"])
def test_prompt_beside_short_output(text) -> None:
    u = understand(text)
    assert u.updates.get("prompt_tokens") == 2000 or u.updates.get("batch_input_tokens") == 2000, u.updates
    assert 1 <= (u.updates.get("batch_output_tokens") or u.updates.get("output_tokens") or 0) <= 16, u.updates


@pytest.mark.parametrize(("text", "slot", "value"), [
    ("每条输入1000 token 输出300", "batch_output_tokens", 300),  # an output length said stays the output's
    ("each 1000 tokens, output 200 tokens", "batch_output_tokens", 200),
    ("2 million reviews, 300 tokens output each", "batch_output_tokens", 300),
])
def test_output_lengths_said_stay(text, slot, value) -> None:
    assert understand(f"batch job with qwen2.5-7b: {text}").updates.get(slot) == value


def test_conversation_sizes_the_short_output_job() -> None:
    state = run_states(["要给两百万条用户评论打情感标签 每条大概三百token 输出就几个字 用qwen2.5-7b 手上有四张A100 40G 三天之内能跑完吗"])[-1]
    assert state["profile"]["batch_input_tokens"] == 300
    assert state["profile"]["batch_output_tokens"] <= 16
    reply = state["messages"][-1].content
    assert "输入 300 token" in reply and "1,000" not in reply
