"""The model a message refers to without naming it ('那我一张 4090 能跑这个吗', 'can my 4090 run it?'): the one
catalog model named in the latest earlier message that named any. A concept question's example model ('MoE 比如
Qwen3-30B-A3B 显存按 30B 还是 3B 算') is not kept in the plan, so the next message's 'this one' is resolved here."""

from __future__ import annotations

from collections.abc import Sequence

from gpu_advisor.assistant.reading.names import find_models
from gpu_advisor.assistant.reading.text import clean, word_pattern


def referred_model(earlier: Sequence[str], text: str) -> str | None:
    """The model id `text` refers to ('这个', 'it', 'this one') from the `earlier` user messages, newest last; None
    when the message does not refer to one, or the latest message naming models named more than one."""
    if not word_pattern("model_referent").search(clean(text)) or find_models(clean(text)):
        return None
    for said in reversed(earlier):
        named = {found[2] for found in find_models(clean(said))}
        if named:
            return named.pop() if len(named) == 1 else None
    return None
