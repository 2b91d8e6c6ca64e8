"""Issue 12, bad payloads: whatever shape of message a LangGraph client sends gets a polite reply in the
conversation, never a validation error; a huge message is cut before any reader sees it."""

from __future__ import annotations

import pytest
from langchain_core.messages import HumanMessage

from gpu_advisor.assistant import graph
from gpu_advisor.assistant.reading import CJK_WEIGHT, MAX_MESSAGE_CHARS, readable


@pytest.mark.parametrize(("message", "said"), [
    ({"role": "user"}, "the message held no content, not text"),
    ({"role": "user", "content": {"a": 1}}, "the message held an object, not text"),
    (42, "the message held int, not text"),
])
def test_a_malformed_message_is_answered_politely(message, said):
    out = graph.invoke({"messages": [message]})
    reply = out["messages"][-1]
    assert reply.additional_kwargs["gpu_advisor"]["kind"] == "error"
    assert reply.content.startswith(f"I can't use that: {said}; please send it as text.")


def test_a_bare_number_is_read_as_its_digits():
    out = graph.invoke({"messages": [{"role": "user", "content": 2}]})
    assert out["messages"][-2].content == "2"


@pytest.mark.parametrize("message", [None, {"role": "user", "content": None}, {"role": "user", "content": ""}])
def test_nothing_at_all_is_an_empty_turn(message):
    out = graph.invoke({"messages": [message]})
    assert out["messages"][-1].content.startswith("I didn't catch anything there.")


def test_text_parts_are_read():
    out = graph.invoke({"messages": [{"role": "user", "content": [{"type": "text", "text": "serve llama 3 8b"}]}]})
    assert "Llama 3 8B" in out["messages"][-1].content


def test_a_huge_message_is_cut_to_its_readable_part_and_the_reply_says_how_much():
    assert readable("a" * 10_000) == "a" * MAX_MESSAGE_CHARS
    chinese = readable("微调" * 5_000)
    assert len(chinese) == MAX_MESSAGE_CHARS // CJK_WEIGHT
    out = graph.invoke({"messages": [HumanMessage("我想微调" * 250_000)]})
    assert f"（我只读取了前 {MAX_MESSAGE_CHARS // CJK_WEIGHT:,} 个字符。）" in out["messages"][-1].content
    out = graph.invoke({"messages": [HumanMessage("serve llama 3 8b to 5 users " * 40_000)]})
    assert "(I read the first 4,000 characters.)" in out["messages"][-1].content
