"""A reasoning model served with no context said is sized at rules.reasoning_context_tokens (32,768, within what the
model reads), room for its thinking, and the assumption says why; a context said wins; other models keep 8,192
(review BJ #18)."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.slots import reasoning_context
from gpu_advisor.knowledge import rules
from tests.conversation import run_states


def test_rule_is_sourced() -> None:
    assert rules().reasoning_context_tokens == 32768
    assert "DeepSeek-R1" in rules().reasoning_context_source


@pytest.mark.parametrize(("model", "tokens"), [("qwq-32b", 32768), ("deepseek-r1-distill-qwen-14b", 32768),
                                               ("qwen2.5-14b", 0), ("llama-3.1-8b", 0)])
def test_reasoning_context_by_model(model: str, tokens: int) -> None:
    assert reasoning_context({"model": model}) == tokens


@pytest.mark.parametrize(("turn", "context", "words"), [
    ("serve deepseek r1 distill qwen 14b for 5 internal users, cheapest single card, working hours", 32768,
     "a reasoning model writes its thinking"),
    ("用QwQ-32B给5个人用，工作时间，最便宜的单卡是什么", 32768, "推理模型在回答前先写出思考过程"),
    ("serve qwq 32b for 5 users at 8k context, working hours", 8192, None),
    ("serve qwen2.5 14b for 5 users, cheapest single card, working hours", 8192, None)])
def test_served_context(turn: str, context: int, words: str | None) -> None:
    state = run_states([turn])[-1]
    assert state["results"]["recommend"]["workload"]["context"] == context
    text = state["messages"][-1].content
    assert (words in text) if words else ("reasoning model" not in text and "推理模型" not in text)
