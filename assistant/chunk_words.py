"""The map-reduce of a batch item longer than the model reads (tools.chunked), said plainly under the batch line:
the chunks, what each writes, the merge, and the tokens of every pass (review CH #9)."""

from __future__ import annotations

from gpu_advisor.assistant.catalog import say
from gpu_advisor.tools.models import resolve_model
from gpu_advisor.tools.recommend import Workload


def batch_totals(w: Workload) -> tuple[int, int]:
    """(tokens read, tokens written) of the whole job: every pass of a chunked item counted."""
    tokens_in, tokens_out, _longest = w.batch_per_item(resolve_model(w.model))
    items = w.batch_items or 1
    return items * tokens_in, items * tokens_out


def chunk_lines(w: Workload, model_words: str, lang: str, count: object) -> list[str]:
    """The chunked plan in words, or nothing when each item fits one pass. `count` writes a token total
    ('1.1B')."""
    plan = w.chunking(resolve_model(w.model))
    if plan is None:
        return []
    tokens_in, tokens_out = batch_totals(w)
    key = "fig.batch_chunked" if plan.rounds == 1 else "fig.batch_chunked_rounds"
    return [say(lang, key, model=model_words, item=f"{plan.item_tokens:,}", window=f"{plan.window:,}",
                chunks=f"{plan.chunks:,}", chunk=f"{plan.chunk_tokens:,}", notes=f"{plan.notes_tokens:,}",
                out=f"{plan.output_tokens:,}", passes=f"{plan.passes:,}", rounds=f"{plan.rounds:,}",
                merges=f"{plan.merges:,}", tin=count(tokens_in), tout=count(tokens_out)), ""]  # type: ignore[operator]
