"""A long context filled by what users paste: 'we want the full 128k context because users paste long contracts',
'想开到128k上下文，一次塞进整份合同'. The prompt is then as long as the context said, so the first token is timed on
it (the prompt_tokens slot), not on a typical chat prompt (review AM #18, AN #20). The words are in
words/whole_document.yaml."""

from __future__ import annotations

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern

# The shortest context said that the pasted documents fill.
LONG = 32768


def read_whole_document(m: Message, u: Understanding) -> None:
    """u.updates['prompt_tokens'] = the context said, when the message says whole documents go into it."""
    context = u.updates.get("context")
    if not isinstance(context, int) or context < LONG or u.updates.get("prompt_tokens"):
        return
    if word_pattern("whole_document").search(m.masked):
        u.updates["prompt_tokens"] = context
