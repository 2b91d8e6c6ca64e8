"""Prompts times samples in an offline job: "5000 prompts x 8 samples each", "8 completions per prompt over 5000
prompts", "5000条 × 每条8个采样". The job generates N × M answers: its items are N × M (the words are in
words/generations.yaml). Online RL reads the same words as prompts and a group size (reading.rl), training as
examples: neither is read here."""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise

from gpu_advisor.assistant.reading.daily_asks import read_daily_asks
from gpu_advisor.assistant.reading.job import train_words
from gpu_advisor.assistant.reading.message import Message
from gpu_advisor.assistant.reading.person_rate import read_person_rate
from gpu_advisor.assistant.reading.quantities import Quantity
from gpu_advisor.assistant.reading.request_context import read_request_context
from gpu_advisor.assistant.reading.rl import rl_said
from gpu_advisor.assistant.reading.text import word_pattern

COUNTS = ("", "items", "examples", "rl_group")


def _pair(m: Message) -> tuple[Quantity, Quantity] | None:
    """(prompts, samples per prompt) when said next to each other in either order."""
    counts = [q for q in m.qty if q.role in COUNTS and not q.negated and q.value >= 1]
    for a, b in pairwise(counts):
        between, after_b = m.masked[a.end:b.start], m.masked[b.end:b.end + 40]
        if word_pattern("gen_between_prompts_first").match(between) \
                and word_pattern("gen_prompt_nouns").match(between) and word_pattern("gen_sample_nouns").match(after_b):
            return a, b
        group_before = word_pattern("rl_samples_before").search(m.masked[max(0, a.start - 30):a.start])
        if (word_pattern("gen_between_samples_first").match(between)
                or (group_before and word_pattern("gen_between_group_first").match(between))) \
                and word_pattern("gen_prompt_nouns").match(after_b):
            return b, a
    return None


def read_generations(m: Message) -> None:
    """N prompts × M samples each in a job that does not train: one item of N × M, the count of samples no
    training examples of its own (it was read as '8 training examples')."""
    if rl_said(m) or train_words(m):
        return
    pair = _pair(m)
    if pair is None:
        return
    prompts, samples = pair
    if not 2 <= samples.value <= 1024:
        return
    total = prompts.value * samples.value
    m.notes.append(("note.items_from_samples", {"prompts": f"{prompts.value:,.0f}", "samples": f"{samples.value:,.0f}",
                                                "items": f"{total:,.0f}"}))
    m.qty[m.qty.index(prompts)] = replace(prompts, number=total, scale="", role="items")
    m.qty[m.qty.index(samples)] = replace(samples, role="samples_per_item")


def read_counted(m: Message) -> None:
    """What counts said per something make, read once the quantities have their roles: requests per person a
    day with the day's users (reading.daily_asks), samples per prompt in a job that does not train."""
    read_daily_asks(m)
    read_person_rate(m)  # '200 devs, each fires 3-4 completions a minute': a request rate
    read_request_context(m)  # '每次请求拼进去的上下文大概16k': each request's prompt
    read_generations(m)
