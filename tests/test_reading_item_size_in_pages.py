"""Each item's size said in pages after the job's items ('250k documents, avg 6 pages each') is no second count of
items: the job keeps its 250,000 documents (review CE #3 sized 6 documents, '0.00 h, $0.00')."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand

COUNTS = {"250k": 250_000, "250,000": 250_000, "1 million": 1_000_000, "40k": 40_000}
ITEMS = ["documents", "docs", "contracts", "pdfs", "reports"]
SIZES = ["avg 6 pages each", "6 pages each", "about 12 pages apiece", "around 30 pages per document",
         "~8 pages a doc", "20 slides each"]
TAILS = ["", " (call it 3000 tokens)", ", summaries of 300 tokens, with llama 3.1 8b by friday"]


@pytest.mark.parametrize("count,item", list(itertools.product(COUNTS, ITEMS)))
def test_the_items_are_the_documents_not_their_pages(count, item):
    for size, tail in itertools.product(SIZES, TAILS):
        text = f"summarise {count} {item}, {size}{tail}"
        assert understand(text).updates.get("batch_items") == COUNTS[count], text


def test_pages_alone_are_the_items():
    assert understand("summarise 1 million pages by friday").updates["batch_items"] == 1_000_000
    assert understand("ocr 200k pages with qwen2.5 vl 7b").updates.get("batch_items") == 200_000
