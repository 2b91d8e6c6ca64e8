"""Lengths said with a batch job's items that the role rules read as something else: '~500 tokens of text out',
'500 tokens of output each' (read as training tokens), '每页约1500个图像token' (the image tokens a page is read
as: the input, read as a count of images), '100万页扫描件' (the pages are the items). Run after
stated_lengths.relabel_lengths. The words: words/lengths.yaml."""

from __future__ import annotations

from dataclasses import replace

from gpu_advisor.assistant.reading.quantities import Quantity
from gpu_advisor.assistant.reading.text import word_pattern

NEAR = 40  # characters read after a number
OUT_FROM = ("", "context", "train_tokens")  # roles a said output length overrides
IN_FROM = ("", "items", "images", "train_tokens")  # roles a said image-token length per item overrides
FEWEST_PAGES = 100  # '3页' may be the pages of one request; a hundred pages or more are a job's items


def relabel_said(masked: str, qty: list[Quantity]) -> list[Quantity]:
    """The quantities with each output length said as 'N tokens of text out' given the output's role, each image
    length per item the input's, and a count of pages the items'."""
    if not word_pattern("said_length_tokens").search(masked):
        return qty
    out = list(qty)
    for i, q in enumerate(out):
        after = masked[q.end:q.end + NEAR]
        if q.negated or q.extra or q.value < 1:
            continue
        if q.role in OUT_FROM and word_pattern("said_output_after").match(after):
            out[i] = replace(q, role="output_tokens")
        elif q.role in IN_FROM and (word_pattern("said_image_tokens_after").match(after) or word_pattern(
                "said_image_tokens_before").search(masked[max(0, q.start - NEAR):q.start])):
            out[i] = replace(q, role="per_item_tokens")
        elif q.role == "" and q.value >= FEWEST_PAGES and word_pattern("said_pages_after").match(after):
            out[i] = replace(q, role="items")
    return out
