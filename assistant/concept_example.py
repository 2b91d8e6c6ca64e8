"""The card a concept was asked of, as its example ("why is decode slower than prefill on H100?",
reading/concept_card.py): after the glossary's entry, the card's own figures from its record in knowledge/data/gpus.yaml
(dense BF16 TFLOPS, memory bandwidth) and what follows from them: how many operations the tensor cores need for each
byte read to stay busy, which is how many sequences a decode step must batch (one operation per byte of 16-bit weights
per sequence) and about how long a prompt keeps prefill compute-bound."""

from __future__ import annotations

from gpu_advisor.assistant.catalog import say

# The concepts a card's compute and bandwidth figures illustrate.
EXAMPLED = ("prefill-decode",)


def card_example(topic: str, card: str | None, lang: str) -> str:
    """The card's line for the concept, or "" when no card was asked or the concept has no line of a card."""
    if not card or not set(topic.split("+")) & set(EXAMPLED):
        return ""
    from gpu_advisor.knowledge import find_gpu

    gpu = find_gpu(card)
    ops_per_byte = gpu.bf16_tflops * 1e12 / (gpu.memory_bandwidth_gbps * 1e9)
    return say(lang, "concept.card_roofline", gpu=gpu.name, tflops=f"{gpu.bf16_tflops:,.0f}",
               bandwidth=f"{gpu.memory_bandwidth_gbps:,.0f}", ops=f"{ops_per_byte:,.0f}")
