"""A batch item longer than the model reads at once ('3,000 novels of 500k 字' on a 32k-context model): sized as
chunked map-reduce, never as single passes past the model's context. Each item is cut into chunks of the context
less what a chunk's pass writes; each chunk is summarised (the map pass, CHUNK_NOTES_TOKENS written); a merge pass
reads those notes and writes the item's output. When the notes of one item overflow one context, they are merged
in rounds (a tree), each round's merges writing notes again, the last one the output. Pure arithmetic: the
tokens read and written per item over every pass, which the batch sizing times like any other item (review CH #9:
3,000 single passes of 357k tokens on Qwen2.5 72B, which reads 32,768)."""

from __future__ import annotations

import math

from pydantic import BaseModel, Field

# What the map pass writes for each chunk: a partial summary or the fields found in it, a few paragraphs. The merge
# pass reads these, so an item of 12 chunks is merged from about 6,000 tokens of notes.
CHUNK_NOTES_TOKENS = 500
# A chunk's notes are at most this share of the context (a model with a short context writes shorter notes).
NOTES_SHARE = 1 / 8


class ChunkPlan(BaseModel):
    """Map-reduce over chunks of one item: the passes and the tokens each pass reads and writes, per item."""

    window: int = Field(description="tokens the model reads at once (its context): no pass is longer")
    item_tokens: int = Field(description="tokens of one item as said")
    output_tokens: int = Field(description="tokens the item's result is (the merge's output)")
    chunks: int = Field(description="chunks each item is cut into (map passes per item)")
    chunk_tokens: int = Field(description="tokens each chunk reads, the item split evenly")
    notes_tokens: int = Field(description="tokens each map pass writes (a chunk's summary)")
    merges: int = Field(description="merge passes per item (1 unless the notes overflow one context: rounds)")
    rounds: int = Field(description="merge rounds (1: one merge reads every chunk's notes)")
    tokens_in: int = Field(description="tokens read per item over every pass (chunks + notes merged)")
    tokens_out: int = Field(description="tokens written per item over every pass (notes + the output)")
    longest: int = Field(description="the longest single pass, read and written: what each sequence holds")

    @property
    def passes(self) -> int:
        """Model calls per item: one per chunk, then the merges."""
        return self.chunks + self.merges


def chunk_plan(item_tokens: int, output_tokens: int, window: int) -> ChunkPlan | None:
    """The map-reduce plan for an item of `item_tokens` whose result is `output_tokens`, on a model that reads
    `window` tokens; None when the item and its output fit one pass, or when the output alone leaves no room to
    merge notes into it (then no chunking helps: the caller says so)."""
    if item_tokens + output_tokens <= window:
        return None
    notes = max(1, min(CHUNK_NOTES_TOKENS, int(window * NOTES_SHARE)))
    if output_tokens + 2 * notes > window:
        return None
    chunks = math.ceil(item_tokens / (window - notes))
    chunk = math.ceil(item_tokens / chunks)
    longest = chunk + notes
    merges, rounds, merge_in, merge_out, level = 0, 0, 0, 0, chunks
    while True:
        rounds += 1
        last = level * notes + output_tokens <= window
        fan = level if last else max(2, (window - notes) // notes)
        groups = math.ceil(level / fan)
        writes = output_tokens if last else notes
        merges += groups
        merge_in += level * notes
        merge_out += groups * writes
        longest = max(longest, min(level, fan) * notes + writes)
        if last:
            break
        level = groups
    return ChunkPlan(window=window, item_tokens=item_tokens, output_tokens=output_tokens, chunks=chunks,
                     chunk_tokens=chunk, notes_tokens=notes, merges=merges, rounds=rounds,
                     tokens_in=item_tokens + merge_in, tokens_out=chunks * notes + merge_out, longest=longest)


def chunk_assumptions(plan: ChunkPlan | None, model_name: str) -> list[str]:
    """The plan said as the recommendation's assumption (empty when each item fits one pass)."""
    if plan is None:
        return []
    return [f"each item ({plan.item_tokens:,} tokens) is longer than {model_name} reads at once ({plan.window:,}): "
            f"map-reduce, {plan.chunks} chunks of about {plan.chunk_tokens:,} tokens each summarised in "
            f"{plan.notes_tokens:,} tokens, then {plan.merges} merge pass(es) writing the {plan.output_tokens:,}-token "
            f"result: {plan.tokens_in:,} tokens read and {plan.tokens_out:,} written per item"]
