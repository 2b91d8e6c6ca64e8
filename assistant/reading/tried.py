"""Trying things out said in words of its own, or only 'try' before a model's name: 'what if i try qwen2.5 72b' after a
plan swaps the model and keeps the job (the engine keeps the phase); 'just experimenting' is trying things out."""

from __future__ import annotations

from gpu_advisor.assistant.reading.text import clean, word_pattern


def tried_out(text: str) -> bool:
    """Whether the message says trying things out in words of its own ('just experimenting', 'try it out')."""
    return word_pattern("phase.experiment").search(clean(text)) is not None
