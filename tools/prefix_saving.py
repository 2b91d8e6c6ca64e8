"""What prefix caching saves on each request, asked as a concept ('vllm 的 prefix caching 是啥原理？每个请求 system
prompt 都一样有2k token，开了能省多少？'): no plan is sized, only the share of each prompt the cache skips.

A prompt of P = S + R tokens whose first S are the same for every request (the system prompt) and whose last R are
its own (retrieved passages, the question): every request after the first reads S' = S in whole KV blocks
(tools.prefix_cache.whole_blocks) from the cache, so
- the prefill work skipped is S' / P (prefill is linear in the tokens computed), and the time to the first token
  falls about as much when the server is lightly loaded (under load it also waits in the queue);
- the prefix's KV blocks are held once instead of once per request in flight: with n requests in flight on one copy
  of the model, (n - 1) x S' x KV bytes per token saved (tools.prefix_cache with the model, every request hitting);
- decoding is unchanged: every output token still reads the weights and the whole KV cache.
The rest of the prompt, when not said, is a RAG request's: DEFAULT_RETRIEVED tokens of retrieved text and a
DEFAULT_QUESTION-token question, said as an assumption."""

from __future__ import annotations

from pydantic import Field

from gpu_advisor.tools.common import MAX_COUNT, Explained, ToolInput, term
from gpu_advisor.tools.prefix_cache import BLOCKS, CacheEngine, PrefixCacheInput, prefix_cache, whole_blocks

DEFAULT_RETRIEVED = 3000  # tokens of retrieved passages in a RAG prompt, when none are said (a few chunks of ~500)
DEFAULT_QUESTION = 100  # tokens of the user's own question


class PrefixSavingInput(ToolInput):
    shared_tokens: int = Field(gt=0, le=MAX_COUNT, description="tokens at the start of every prompt that are the same "
                                                              "for all requests (system prompt, instructions)")
    own_tokens: int | None = Field(None, ge=0, le=MAX_COUNT, description="tokens of each prompt after the shared part "
                                   "(retrieved text and the question); default: a RAG request's, assumed")
    model: str | None = Field(None, description="the model served, for the KV memory of the prefix")
    sequences: int | None = Field(None, gt=0, le=MAX_COUNT, description="requests in flight on one copy of the model")
    engine: CacheEngine = Field("vllm", description="the engine whose prefix cache is used")


class PrefixSavingResult(Explained):
    shared_tokens: int
    own_tokens: int
    own_assumed: bool = Field(description="the rest of the prompt was not said: DEFAULT_RETRIEVED + DEFAULT_QUESTION")
    prompt_tokens: int
    cached_tokens: int = Field(description="tokens each request after the first reads from the cache")
    block_tokens: int
    prefill_saved_share: float = Field(description="share of each request's prefill skipped")
    ttft_saved_share: float = Field(description="share of the first token's time saved at low load")
    kv_bytes_per_token: float | None = None
    prefix_kv_bytes: float | None = Field(None, description="KV of the prefix, held once per copy of the model")
    kv_saved_bytes: float | None = Field(None, description="KV memory saved at `sequences` in flight")
    sequences: int | None = None
    model: str | None = None


def prefix_saving(inp: PrefixSavingInput) -> PrefixSavingResult:
    assumed = inp.own_tokens is None
    own = DEFAULT_RETRIEVED + DEFAULT_QUESTION if inp.own_tokens is None else inp.own_tokens
    prompt = inp.shared_tokens + own
    cached = whole_blocks(inp.shared_tokens, inp.engine)
    share = cached / prompt
    terms = [term("cached_tokens", "Prompt tokens read from the cache", cached, "tokens",
                  "shared prefix in whole KV blocks", {"shared_tokens": inp.shared_tokens, "block_tokens": BLOCKS.get(inp.engine, 0)}),
             term("prefill_saved_share", "Prefill work skipped", share, "fraction",
                  "cached tokens / (shared + own tokens)", {"own_tokens": own, "prompt_tokens": prompt})]
    assumptions = ["every request after the first finds the prefix cached (the same tokens, token for token)"]
    if assumed:
        assumptions.append(f"the rest of each prompt is {DEFAULT_RETRIEVED:,} tokens of retrieved text and a "
                           f"{DEFAULT_QUESTION:,}-token question")
    per_token: float | None = None
    prefix_kv: float | None = None
    saved: float | None = None
    name: str | None = None
    if inp.model:
        cache = prefix_cache(PrefixCacheInput(model=inp.model, prompt_tokens=prompt,
                                              shared_prefix_tokens=inp.shared_tokens, hit_rate=1.0,
                                              sequences=inp.sequences or 1, engine=inp.engine))
        per_token = float(cache.term("prefix_kv_bytes").inputs["kv_bytes_per_token"])
        prefix_kv, saved, name = cache.prefix_kv_bytes, cache.kv_saved_bytes, cache.model
        terms += [t for t in cache.terms if t.key in ("prefix_kv_bytes", "kv_saved_bytes")]
    return PrefixSavingResult(shared_tokens=inp.shared_tokens, own_tokens=own, own_assumed=assumed, prompt_tokens=prompt,
                              cached_tokens=cached, block_tokens=BLOCKS.get(inp.engine, 0),
                              prefill_saved_share=share, ttft_saved_share=share, kv_bytes_per_token=per_token,
                              prefix_kv_bytes=prefix_kv, kv_saved_bytes=saved, sequences=inp.sequences, model=name,
                              terms=terms, assumptions=assumptions)
