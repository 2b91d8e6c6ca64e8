"""A context length said per request is that request's prompt: "每次请求拼进去的上下文很长，大概16k token", "each
request stuffs ~16k tokens of context into the prompt" (a RAG request's retrieved chunks). It is the input each
request sends, whose prefill the first-token target is timed at, not only the window: the window is left to hold
the prompt and the output (assistant.advice: a request rate with no window said). A window said ('16k 上下文窗口',
'up to 16k context') stays a window. The words are in words/request_context.yaml."""

from __future__ import annotations

from dataclasses import replace

from gpu_advisor.assistant.reading.message import Message
from gpu_advisor.assistant.reading.text import word_pattern


def read_request_context(m: Message) -> None:
    """The context length said per request read as the prompt tokens of each request."""
    if any(q.role == "prompt_tokens" and not q.negated for q in m.qty):
        return
    for i, q in enumerate(m.qty):
        if q.role != "context" or q.negated:
            continue
        before = m.masked[max(0, q.start - 60):q.start]
        per = list(word_pattern("request_context_per").finditer(before))
        if not per:
            continue
        if any(ch in before[per[-1].end():] for ch in "?？。;；!！"):
            continue  # the request said in an earlier sentence ('… per request? 2) how many users at 32k context')
        said = before[per[-1].start():] + m.masked[q.end:q.end + 24]
        if word_pattern("request_context_window").search(said):
            continue
        m.qty[i] = replace(q, role="prompt_tokens")
        return
