"""The longest context per conversation a serving setup holds in memory: for one card x count, weight format and
KV-cache format, the most tokens each of the workload's users may keep (bisection in CONTEXT_STEP-token steps up to the
model's own maximum), evaluated with the same tool the plans are ranked on (tools.recommend.evaluate), so the
answer and the plan never disagree. Memory is the limit asked ('上下文最多能开到多长'); the speed at that length is
in `at_limit` for the caller to show."""

from __future__ import annotations

from pydantic import BaseModel, Field

from gpu_advisor.knowledge import find_gpu
from gpu_advisor.tools.common import last_step
from gpu_advisor.tools.models import resolve_model
from gpu_advisor.tools.recommend import CONTEXT_STEP, Option, Workload, evaluate


class ContextLimit(BaseModel):
    context: int = Field(description="the longest context per conversation in tokens that fits (0: not even CONTEXT_STEP)")
    model_max: int = Field(description="the model's own longest context in tokens (the search's ceiling)")
    kv_cache: int | None = Field(None, description="KV-cache bits sized (None: the engine's 16-bit cache)")
    at_limit: Option | None = Field(None, description="the setup evaluated at that context")


def _fits(o: Option | None) -> bool:
    return o is not None and o.serves is not False and o.serve_per_gpu_bytes is not None


def longest_context(w: Workload, gpu_id: str, gpus: int, owned: bool = False, precision: str | None = None,
                    kv_cache: int | None = None) -> ContextLimit:
    """The most tokens per conversation `gpus` x `gpu_id` hold for `w`'s users at once, in `precision` weights and a
    `kv_cache`-bit cache (None: 16-bit)."""
    gpu = find_gpu(gpu_id)
    top = int(resolve_model(w.model).max_context)
    base = w.model_copy(update={"serve_precision": precision or w.serve_precision, "kv_cache": kv_cache,
                                "flexible": []})

    def at(tokens: int) -> Option | None:
        return evaluate(base.model_copy(update={"context": tokens}), gpu, gpus, owned=owned)

    ceiling = at(top)
    if _fits(ceiling):
        return ContextLimit(context=top, model_max=top, kv_cache=kv_cache, at_limit=ceiling)
    step = last_step(lambda n: _fits(at(n * CONTEXT_STEP)), 1, max(1, top // CONTEXT_STEP))
    found = (step or 0) * CONTEXT_STEP
    return ContextLimit(context=found, model_max=top, kv_cache=kv_cache, at_limit=at(found) if found else None)
