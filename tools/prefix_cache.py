"""Prefix caching: a prompt whose first S tokens are the same for every request (a system prompt, shared
instructions, a document every question is about) is computed once and its KV blocks reused.

The arithmetic, per request, for a prompt of P tokens whose first S are shared, found in the cache by a share h of
the requests (the hit rate):
- tokens read from the cache: c = h x S', where S' is S rounded down to whole KV blocks (vLLM caches full blocks of
  16 tokens, its default --block-size; SGLang's RadixAttention caches token by token);
- tokens prefilled: P - c; the prefill work (the first token's time and the share of the GPU spent on prompts) falls
  by c / P (prefill is compute-bound and linear in the tokens computed; attention over the cached part is left out,
  so the saving is a little overstated for long prompts);
- memory: requests that hit share one copy of the prefix's KV blocks, so a copy of the model holding n requests
  keeps n x (context - c) tokens of KV plus one copy of the prefix (S x KV bytes per token) instead of n x context.

Engines: vLLM V1 caches prefixes by default (--enable-prefix-caching); SGLang's RadixAttention is on unless
--disable-radix-cache; llama.cpp reuses a slot's own earlier prompt only (--cache-reuse), not one shared across slots.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from gpu_advisor.knowledge import find_precision
from gpu_advisor.tools import arch
from gpu_advisor.tools.common import MAX_COUNT, MODEL_HELP, Explained, ToolError, ToolInput, term
from gpu_advisor.tools.models import resolve_model

# The hit rate assumed when none is said: a prefix every request shares is found by nearly all of them; the misses
# are the first request on each copy of the model, requests after the prefix was evicted under memory pressure, and
# restarts. 0.9 leaves room for them (vLLM's logs report the rate: "Prefix cache hit rate").
DEFAULT_HIT_RATE = 0.9
VLLM_BLOCK = 16  # vLLM's default --block-size: prefix caching hits whole blocks
BLOCKS = {"vllm": VLLM_BLOCK, "sglang": 1}
CacheEngine = Literal["vllm", "sglang", "llama.cpp", "mlx-lm"]
SWITCH = {"vllm": "on by default in vLLM V1 (--enable-prefix-caching)",
          "sglang": "on by default in SGLang (RadixAttention; --disable-radix-cache turns it off)",
          "llama.cpp": "llama.cpp reuses a slot's own earlier prompt, not one shared across slots: no saving counted",
          "mlx-lm": "mlx-lm keeps a prompt cache (--prompt-cache-size) for repeated prompts"}


class PrefixCacheInput(ToolInput):
    model: str = Field(description=MODEL_HELP)
    prompt_tokens: int = Field(gt=0, le=MAX_COUNT, description="tokens of each prompt, the shared prefix included")
    shared_prefix_tokens: int = Field(gt=0, le=MAX_COUNT, description="tokens at the start of every prompt that are "
                                      "the same for all requests (system prompt, shared instructions or document)")
    hit_rate: float = Field(DEFAULT_HIT_RATE, ge=0, le=1, description="share of requests that find the prefix cached")
    sequences: int = Field(1, gt=0, le=MAX_COUNT, description="requests in flight on one copy of the model")
    context: int | None = Field(None, gt=0, le=MAX_COUNT, description="tokens each request holds (prompt + output); "
                                                                      "default: the prompt")
    kv_precision: str | None = Field(None, description="KV-cache format; default 16-bit")
    engine: CacheEngine = Field("vllm", description="the serving engine whose prefix cache is used (its block size and switch)")

    @model_validator(mode="after")
    def _prefix_in_prompt(self) -> PrefixCacheInput:
        if self.shared_prefix_tokens > self.prompt_tokens:
            raise ValueError(f"the shared prefix ({self.shared_prefix_tokens:,} tokens) is longer than the prompt "
                             f"({self.prompt_tokens:,} tokens) it starts")
        if self.context is not None and self.context < self.prompt_tokens:
            raise ValueError(f"the context ({self.context:,} tokens) is shorter than the prompt ({self.prompt_tokens:,})")
        return self


class PrefixCacheResult(Explained):
    model: str
    engine: CacheEngine
    prompt_tokens: int
    shared_prefix_tokens: int
    hit_rate: float
    cached_tokens: float = Field(description="tokens per request read from the cache, on average")
    prefill_tokens: float = Field(description="tokens per request still computed, on average")
    prefill_saved_share: float = Field(description="share of the prefill work saved")
    prefix_kv_bytes: float = Field(description="KV of one copy of the prefix, held once per copy of the model")
    kv_saved_bytes: float = Field(description="KV memory saved on one copy of the model at `sequences` in flight")
    switch: str = Field(description="how the engine turns it on")


def whole_blocks(shared_tokens: int, engine: str = "vllm") -> int:
    """The shared tokens a hit reads from the cache: whole KV blocks of the engine's size (vLLM's 16 tokens, SGLang's
    one), none for an engine that shares no prefix across requests."""
    block = BLOCKS.get(engine, 0)
    return shared_tokens - shared_tokens % block if block else 0


def prefix_cache(inp: PrefixCacheInput) -> PrefixCacheResult:
    model = resolve_model(inp.model)
    kv_bits = find_precision(inp.kv_precision).kv_bits if inp.kv_precision else 16
    if not kv_bits:
        raise ToolError(f"{inp.kv_precision} is not a KV-cache format")
    block = BLOCKS.get(inp.engine, 0)
    whole = whole_blocks(inp.shared_prefix_tokens, inp.engine)
    cached = inp.hit_rate * whole
    prefill = inp.prompt_tokens - cached
    context = inp.context or inp.prompt_tokens
    per_token = arch.kv_cache_bytes(model, kv_bits, context, 1) / context  # every attention layer's share, averaged
    prefix_kv = inp.shared_prefix_tokens * per_token
    saved = max(0.0, inp.sequences * cached * per_token - (prefix_kv if cached else 0.0))
    terms = [
        term("cached_tokens", "Prompt tokens read from the cache", cached, "tokens",
             "hit rate x shared prefix, in whole KV blocks", {"hit_rate": inp.hit_rate,
                                                              "shared_prefix_tokens": inp.shared_prefix_tokens,
                                                              "block_tokens": block, "cached_per_hit": whole}),
        term("prefill_tokens", "Prompt tokens computed", prefill, "tokens", "prompt - cached tokens",
             {"prompt_tokens": inp.prompt_tokens}),
        term("prefill_saved_share", "Prefill work saved", cached / inp.prompt_tokens, "fraction",
             "cached tokens / prompt tokens (prefill is linear in the tokens computed)"),
        term("prefix_kv_bytes", "KV of the shared prefix, one copy", prefix_kv, "bytes",
             "shared prefix tokens x KV bytes per token", {"kv_bytes_per_token": per_token, "kv_bits": kv_bits}),
        term("kv_saved_bytes", "KV memory saved on one copy of the model", saved, "bytes",
             "requests in flight x cached tokens x KV bytes per token - one copy of the prefix",
             {"sequences": inp.sequences}),
    ]
    assumptions = [
        f"the first {inp.shared_prefix_tokens:,} tokens of every prompt are the same; {inp.hit_rate:.0%} of requests "
        "find them cached (the misses: the first request on each copy, evictions under memory pressure, restarts)",
        "the saving counts only the shared prefix: a conversation's own earlier turns are cached too when the same "
        "copy serves its next turn, which is not counted",
        "prefill time is taken as linear in the tokens computed: attention over the cached part still costs a "
        "little, so the saving is slightly overstated for long prompts",
        SWITCH[inp.engine]]
    if block > 1 and whole < inp.shared_prefix_tokens:
        assumptions.append(f"vLLM caches whole blocks of {block} tokens: {whole:,} of the {inp.shared_prefix_tokens:,} "
                           "shared tokens are reused, the rest computed")
    return PrefixCacheResult(model=model.name, engine=inp.engine, prompt_tokens=inp.prompt_tokens,
                             shared_prefix_tokens=inp.shared_prefix_tokens, hit_rate=inp.hit_rate,
                             cached_tokens=cached, prefill_tokens=prefill,
                             prefill_saved_share=cached / inp.prompt_tokens, prefix_kv_bytes=prefix_kv,
                             kv_saved_bytes=saved, switch=SWITCH[inp.engine], terms=terms, assumptions=assumptions)
