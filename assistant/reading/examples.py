"""The examples of a training set counted apart from their tokens: '50k support tickets' is kept as a count, so that a
length said in a later turn ('each ticket is more like 1500 tokens', '每条大概 1500 token') recounts the training
tokens (the engine multiplies them; read_train_tokens in job.py assumes a typical length until then)."""

from __future__ import annotations

from gpu_advisor.assistant.reading.job import trains
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern


def read_train_examples(m: Message) -> int | None:
    """The number of examples trained on, when said ('50k support tickets'): kept so that a length said later
    ('each ticket is more like 1500 tokens') recounts the training tokens."""
    if m.role("train_tokens") or not trains(m) or m.live("objective.rl"):
        return None
    counts = m.role("examples", "items")
    return int(counts[-1].value) if counts and counts[-1].value >= 1 else None


def read_example_tokens(m: Message, u: Understanding) -> None:
    """One example's length said in a training message with no count ('每条大概 1500 token'): the engine
    recounts the training tokens from the examples counted before."""
    each = [q for q in m.role("per_item_tokens") if 16 <= q.value <= 1_048_576]
    if each and trains(m) and not m.role("examples", "items", "train_tokens"):
        u.example_tokens = round(each[-1].value)


def read_example_images(m: Message, u: Understanding) -> None:
    """The examples counted are images ('20k images', '2万张图'): each is the model's image tokens plus the words
    with it, which the engine counts for a vision model instead of a text example's typical length."""
    counts = m.role("examples", "items")
    if u.updates.get("train_examples") and counts and not u.example_tokens and not m.role("per_item_tokens") \
            and word_pattern("images_noun").match(m.masked[counts[-1].end:]):
        u.example_images = True
