"""Nouns that count training examples or batch items are not contexts or counts of their own (review BU #2, #4):
'~40k dialogue lines' are 40,000 short examples (was a 40,960-token context); '10-K/10-Q chunks' are SEC filings, the
2.5 million before them the items (was 10 items)."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand

LINES = ["lora on mistral nemo 12b with ~40k dialogue lines, we own 4x rtx 4090",
         "qlora llama 3.1 8b on 40k lines of npc dialogue", "fine-tune qwen2.5 7b with 40,000 script lines",
         "we want to lora nemo 12b, data is about 40k utterances"]


@pytest.mark.parametrize("text", LINES)
def test_lines_are_examples_not_a_context(text: str) -> None:
    u = understand(text)
    assert u.updates.get("train_examples") == 40_000, u.updates
    assert "context" not in u.updates


FILINGS = [("run ~2.5 million 10-K/10-Q chunks through qwen2.5-32b for extraction, each ~3k tokens in, 300 out", 2_500_000),
           ("summarise 10-Ks: 120k chunks through llama 3.1 8b, 2k tokens each, 200 out", 120_000),
           ("extract fields from 50,000 8-K filings with qwen2.5 7b, 1k tokens in, 100 out", 50_000)]


@pytest.mark.parametrize(("text", "items"), FILINGS)
def test_filing_forms_are_no_counts(text: str, items: int) -> None:
    u = understand(text)
    assert u.updates.get("batch_items") == items, u.updates
