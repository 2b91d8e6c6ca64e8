"""The prompt load a plan for users at once implies (review AP E16: 400 coding streams of 6k-token prompts).

A plan sized for N users at once holds their KV cache and writes each user's tokens at the per-user speed; it
says nothing about how often new prompts arrive. Streams that each write `output` tokens at `speed` tokens/s
end (and a new request starts) every ttft + (output - 1) / speed seconds, so by Little's law N streams start

    rate = N / (ttft + (output - 1) / speed)        requests per second,

each bringing `prompt` tokens to prefill: rate x prompt x 2 x active parameters FLOP/s of prompt work before a
single output token is written. A copy of the model prefills one prompt in about its first-token time (ttft, the
prompt alone), so the copies spend rate x ttft / replicas of their time on prompts. When that share passes
PREFILL_BINDS_SHARE, the copies sized on memory and decode alone are too few: the prompts push the first token
past any target and slow every stream's decode (chunked prefill shares the step). The plan is then sized for the
request rate it implies with the queueing model (tools.queueing: prefill load, the wait before prefill, decode
slowed beside it), which adds copies until both hold.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

# Above this share of each copy's time on prompts the plan for users at once is re-sized for the rate it implies:
# at a quarter of the time on prefill, decode runs ~25% slower than the bare figure (the prefill steps take the
# GPU from the decode batch), more than the usual margin between a per-user target and the plan's speed.
PREFILL_BINDS_SHARE = 0.25


class PrefillLoad(BaseModel):
    """The request rate and prompt work a plan for users at once implies."""

    users: int = Field(description="streams at once, the count said")
    prompt_tokens: int
    output_tokens: int
    tokens_per_s: float = Field(description="the plan's per-user speed the streams are written at")
    requests_per_s: float = Field(description="new requests per second: users / (first token + output / speed)")
    prefill_tokens_per_s: float = Field(description="prompt tokens to prefill per second: rate x prompt")
    prefill_pflops: float = Field(description="prompt work in PFLOP/s: prefill tokens/s x 2 x active parameters")
    share: float = Field(description="share of the plan's copies' time their prompts take: rate x ttft / replicas")
    binds: bool = Field(description="share above PREFILL_BINDS_SHARE: the plan is re-sized for the rate")
    sized_gpus: int = Field(0, description="the GPUs of the plan sized on memory and decode alone")
    sized_gpu: str = Field("", description="its card's name")
    unsustained: bool = Field(False, description="no plan of the cards tried sustains the rate: the plan sized on "
                                                 "memory and decode stands, on users who pause between requests")


def prefill_load(users: int, prompt: int, output: int, ttft_s: float, tokens_per_s: float, replicas: int,
                 active_params_b: float, sized_gpus: int = 0, sized_gpu: str = "") -> PrefillLoad:
    """The rate N streams imply and the share of the copies' time their prompts take (see the module)."""
    rate = users / (ttft_s + max(output - 1, 0) / tokens_per_s)
    share = rate * ttft_s / max(replicas, 1)
    return PrefillLoad(users=users, prompt_tokens=prompt, output_tokens=output, tokens_per_s=tokens_per_s,
                       requests_per_s=rate, prefill_tokens_per_s=rate * prompt,
                       prefill_pflops=rate * prompt * 2 * active_params_b * 1e9 / 1e15, share=share,
                       binds=share > PREFILL_BINDS_SHARE, sized_gpus=sized_gpus, sized_gpu=sized_gpu)
