"""A KV-cache question that also asks what the cache is ('KV cache 到底是啥…拿 Qwen3-32B 举个例子，128k') opens with what
it is, gives the model's figures with its weights beside them (one user too: what a card must hold), and ends with why
a long context runs out of memory (review round O, O3 #3)."""
from __future__ import annotations

import pytest
from conversation import run_conversation

from gpu_advisor.assistant.catalog import say

ASKS = [
    ("KV cache 到底是啥，为什么长上下文显存会爆？拿 Qwen3-32B 举个例子，128k 上下文一个请求要多少显存", "zh"),
    ("how much kv cache does qwen3 32b need at 128k, and why does long context blow up memory?", "en"),
    ("kv cache是什么意思？qwen3-32b 128k上下文占多少", "zh"),
]


@pytest.mark.parametrize("text, lang", ASKS)
def test_what_it_is_then_the_figures_with_the_weights(text, lang):
    reply = str(run_conversation([text])[-1].content)
    assert say(lang, "fup.kv.what") in reply
    assert "34.4 GB" in reply  # 2 x 64 layers x 8 KV heads x 128 x 2 bytes x 131,072 tokens
    assert "100.0 GB" in reply  # with the 65.6 GB of BF16 weights
    # the figure asked leads (review W: 'how much kv cache does one user take' was lost under the lecture), then
    # what the KV cache is, then the figures with the weights
    assert reply.index("34.4 GB") < reply.index(say(lang, "fup.kv.what")) < reply.index("100.0 GB")


@pytest.mark.parametrize("text, lang", [("qwen3 8b开32k上下文 kv cache大概占多少", "zh"),
                                        ("how big is the kv cache for qwen3 8b at 32k", "en")])
def test_a_figure_asked_alone_gets_no_lecture(text, lang):
    reply = str(run_conversation([text])[-1].content)
    assert say(lang, "fup.kv.what") not in reply
