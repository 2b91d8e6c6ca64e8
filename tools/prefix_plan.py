"""A serving plan with prefix caching (tools.prefix_cache): the plan sized on the tokens each request still
computes and holds, beside the same job sized without the cache, so the answer says what the cache changes
(the first token, the cards a request rate needs, the memory).

The workload's prompt is the whole prompt, the shared prefix included. When the prompt said is the shared part
alone (or none was said), the rest of it (the user's question and the conversation so far) is the use case's
typical prompt (knowledge use_cases; a chat's when no use is said), said as an assumption. The plan is sized with
the prompt and the context each request holds cut by the tokens read from the cache; the figures said back
(prompt, context, the launch command's --max-model-len) are the whole ones.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from gpu_advisor.knowledge.use_cases import use_case
from gpu_advisor.tools.common import ToolError
from gpu_advisor.tools.prefix_cache import DEFAULT_HIT_RATE, PrefixCacheInput, PrefixCacheResult, prefix_cache

if TYPE_CHECKING:
    from gpu_advisor.tools.recommend import Recommendation, Workload

OWN_PART_USE = "chat"  # the use case whose prompt is the rest of a prompt when only the shared part is said
CACHING_ENGINES = ("vllm", "sglang")


class PrefixPlan(BaseModel):
    """What prefix caching changes in a plan: the tool's figures, and the plan without it for comparison."""

    cache: PrefixCacheResult
    own_tokens_assumed: int | None = Field(None, description="the rest of each prompt, taken from the use case when "
                                           "only the shared part was said")
    counted: bool = Field(True, description="False: the plan's engine shares no prefix across requests (llama.cpp)")
    gpu: str | None = None
    gpus: int | None = Field(None, description="cards the plan takes with the cache")
    gpus_without: int | None = Field(None, description="cards the same job takes without it")
    gpu_without: str | None = None
    ttft_s: float | None = None
    ttft_without_s: float | None = None
    headroom_bytes: float | None = Field(None, description="memory left on each card of the plan")

    @property
    def fewer_cards(self) -> bool:
        """The cache lets the same card do the job with fewer of it (plans on other cards are not compared)."""
        return (self.gpus is not None and self.gpus_without is not None and self.gpu_without is not None
                and self.gpu == self.gpu_without and self.gpus < self.gpus_without)


def whole_prompt(w: Workload) -> tuple[int, int | None]:
    """(the whole prompt, the rest assumed when only the shared part was said, else None)."""
    shared = w.shared_prefix_tokens or 0
    if w.prompt_tokens and w.prompt_tokens > shared:
        return w.prompt_tokens, None
    use = use_case(w.use_case) or use_case(OWN_PART_USE)
    own = use.prompt_tokens if use else 0
    return shared + own, own


def check(w: Workload) -> None:
    """One clear line for a prefix the tools cannot size: longer than the context each request holds."""
    if not w.shared_prefix_tokens:
        return
    if w.shared_prefix_tokens >= w.context and "context" not in w.flexible:
        raise ToolError(f"the shared prefix ({w.shared_prefix_tokens:,} tokens) does not fit the context of "
                        f"{w.context:,} tokens each request holds")


def with_prefix_cache(w: Workload, size: Callable[[Workload], Recommendation]) -> Recommendation:
    """The plan for `w` (which states a shared prefix) sized with prefix caching, its `prefix_cache` figures set."""
    check(w)
    shared, rate = w.shared_prefix_tokens or 0, w.prefix_hit_rate
    prompt, own = whole_prompt(w)
    asked = w.model_copy(update={"shared_prefix_tokens": None, "prefix_hit_rate": None, "prompt_tokens": prompt})
    probe = prefix_cache(PrefixCacheInput(model=w.model, prompt_tokens=prompt, shared_prefix_tokens=shared,
                                          hit_rate=DEFAULT_HIT_RATE if rate is None else rate))
    cut = round(probe.cached_tokens)
    held = asked.context if "context" not in asked.flexible else max(asked.context, prompt)
    cached = asked.model_copy(update={"prompt_tokens": max(1, prompt - cut), "context": max(1, held - cut)})
    without = size(asked)
    rec = size(cached) if cut else without
    best = rec.best
    engine = best.engine if best is not None and best.engine else "vllm"
    counted = engine in CACHING_ENGINES
    if not counted:
        rec = without
        best = rec.best
    users = best.users_per_replica if best is not None and best.users_per_replica else max(1, rec.workload.users)
    result = prefix_cache(PrefixCacheInput(
        model=w.model, prompt_tokens=prompt, shared_prefix_tokens=shared,
        hit_rate=DEFAULT_HIT_RATE if rate is None else rate, sequences=users,
        context=max(rec.workload.context + (cut if counted else 0), prompt),
        kv_precision=best.kv_precision if best is not None else None,
        engine=engine if engine in ("vllm", "sglang", "llama.cpp", "mlx-lm") else "vllm"))
    if rate is None:
        result.assumptions.insert(0, f"hit rate not said: {DEFAULT_HIT_RATE:.0%} assumed")
    if own is not None:
        result.assumptions.insert(0, f"the rest of each prompt (the question, the conversation so far) was not said: "
                                     f"{own:,} tokens assumed, a typical prompt of that use")
    plan = PrefixPlan(cache=result, own_tokens_assumed=own, counted=counted,
                      gpus=best.gpus if best is not None else None, gpu=best.gpu if best is not None else None,
                      gpus_without=without.best.gpus if without.best is not None else None,
                      gpu_without=without.best.gpu if without.best is not None else None,
                      ttft_s=best.ttft_s if best is not None else None,
                      ttft_without_s=without.best.ttft_s if without.best is not None else None,
                      headroom_bytes=best.headroom_fraction * best.capacity_bytes if best is not None else None)
    if counted and cut:  # the figures said back are the whole prompt and context, not the ones sized
        rec.workload = rec.workload.model_copy(update={"prompt_tokens": prompt, "context": rec.workload.context + cut})
    rec.workload = rec.workload.model_copy(update={"shared_prefix_tokens": shared, "prefix_hit_rate": rate})
    rec.prefix_cache = plan
    return rec
