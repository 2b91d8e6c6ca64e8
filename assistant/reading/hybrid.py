"""A model the catalog does not know whose name says it is a hybrid (state-space or linear-attention layers beside
a few attention layers): sized from a size alone it is taken as dense, every layer with a KV cache, which overstates
its memory (words: reading/words/hybrid.yaml)."""

from __future__ import annotations

from gpu_advisor.assistant.reading.text import word_pattern


def hybrid_name(name: str) -> bool:
    """Whether a model name says the model is a hybrid of attention and state-space/recurrent layers."""
    return bool(word_pattern("hybrid_model_name").search(name.lower()))


def hybrid_named(text: str) -> str | None:
    """The model name in a message that says a hybrid model ('serving phi-4-mini-flash-reasoning to 500 agents'):
    the whole word the hybrid marker sits in, else None."""
    low = text.lower()
    m = word_pattern("hybrid_model_name").search(low)
    if m is None:
        return None
    start, end = m.start(), m.end()
    while start > 0 and (low[start - 1].isascii() and (low[start - 1].isalnum() or low[start - 1] in "-_.")):
        start -= 1
    while end < len(low) and low[end].isascii() and (low[end].isalnum() or low[end] in "-_."):
        end += 1
    return text[start:end].strip(".-_") or None
