"""'What does the first-token number mean' is told what the figure is; only a question offering kinds of figure
('p99 or averages?') is answered 'neither' first. Both languages, several phrasings."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_conversation

PLAN = {"en": "serve llama 3.1 70b to 40 people during business hours", "zh": "给40个人在工作时间部署llama 3.1 70b"}
WHAT = [("en", "what does the first token number mean"), ("en", "what do those tokens/s figures mean?"),
        ("zh", "表里的速度数字是啥意思"), ("zh", "这个速度数字是什么意思")]
CHOICE = [("en", "are those ttft numbers p99 or averages?"), ("en", "is the latency a median or p99?"),
          ("zh", "首token延迟是p99还是平均"), ("zh", "这些速度数字是平均值还是p99？")]


@pytest.mark.parametrize(("lang", "text"), WHAT + CHOICE)
def test_each_is_read_as_the_metric_question(lang, text):
    u = understand(text)
    assert "metric" in u.intents, (text, u.intents)
    assert bool(u.ask.get("choice")) == ((lang, text) in CHOICE), (text, u.ask)


@pytest.mark.parametrize(("lang", "text"), WHAT + CHOICE)
def test_neither_opens_the_reply_only_when_kinds_were_offered(lang, text):
    _plan, reply = run_conversation([PLAN[lang], text], thread=text)
    neither = "Neither." if lang == "en" else "都不是。"
    assert reply.content.startswith(neither) == ((lang, text) in CHOICE), reply.content[:120]
    assert ("speed model" in reply.content) if lang == "en" else ("速度模型" in reply.content)
