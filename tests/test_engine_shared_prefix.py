"""'vllm or sglang for a chatbot with a long shared system prompt': the shared prefix weighs the engine pick towards
SGLang's radix-tree prefix cache, and the answer says that vLLM caches prefixes too and when each wins (review s21 #7).
Without a shared prefix the pick stays vLLM."""

from __future__ import annotations

import itertools

import pytest

from tests.conversation import payload, run_conversation

CJK_PICK, EN_PICK = "**这里我推荐 SGLang**", "**My pick here: SGLang**"

EN_ASKS = ["vllm or sglang for {x}", "sglang vs vllm for {x}?", "which engine, vLLM or SGLang, for {x}",
           "should we use sglang or vllm for {x}"]
EN_PREFIX = ["a chatbot with a long shared system prompt", "a support bot where every request has the same system prompt",
             "an assistant whose system prompt is shared by every user", "a chat app with a big common prefix"]
ZH = ["做一个聊天机器人，系统提示词很长而且都一样，用vllm还是sglang", "vllm还是sglang？我们的客服机器人有一个很长的共享系统提示词",
      "sglang和vllm哪个好，所有请求都是相同的系统提示词", "聊天机器人有固定的长提示词，vllm和sglang选哪个"]


def _data(reply):
    extra = payload(reply)
    return extra["also"][0] if extra.get("kind") == "answer" else extra["results"]


@pytest.mark.parametrize(("ask", "prefix"), list(itertools.product(EN_ASKS, EN_PREFIX))[::3] + [(EN_ASKS[0], EN_PREFIX[0])])
def test_a_shared_prefix_picks_sglang_and_says_vllm_caches_too_in_english(ask, prefix):
    reply = run_conversation([ask.format(x=prefix)])[-1]
    assert _data(reply)["pick"] == {"engine": "sglang", "because": "shared_prefix"}
    text = reply.content
    assert EN_PICK in text and "RadixAttention" in text
    assert "automatic prefix caching" in text and "SGLang wins when prefixes branch" in text


@pytest.mark.parametrize("text", ZH)
def test_a_shared_prefix_picks_sglang_in_chinese(text):
    reply = run_conversation([text])[-1]
    assert _data(reply)["pick"] == {"engine": "sglang", "because": "shared_prefix"}
    assert CJK_PICK in reply.content and "自动前缀缓存" in reply.content and "SGLang 占优" in reply.content


@pytest.mark.parametrize("text", ["vllm or sglang for a chatbot", "sglang vs vllm for serving llama 3.1 8b to my team",
                                  "用vllm还是sglang做聊天机器人"])
def test_no_shared_prefix_keeps_vllm(text):
    reply = run_conversation([text])[-1]
    assert _data(reply)["pick"]["engine"] == "vllm"
