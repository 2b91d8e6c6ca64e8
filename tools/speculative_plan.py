"""A serving plan with speculative decoding asked for (tools.speculative): the plan as sized, then its per-user
decode speed with the draft at the plan's own batch per copy, and whether the draft's weights and KV fit in the
memory the plan leaves on each card. The plan's card count is not changed: the speed-up is a range that depends on
the text (acceptance), so the cards are sized without it and the gain is said as what it buys on them."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, Field

from gpu_advisor.knowledge.speculative import Method, speculative_methods
from gpu_advisor.tools.common import ToolError
from gpu_advisor.tools.models import resolve_model
from gpu_advisor.tools.speculative import SpeculativeInput, SpeculativeResult, pick_method, speculative

if TYPE_CHECKING:
    from gpu_advisor.tools.recommend import Recommendation, Workload


class SpeculativePlan(BaseModel):
    """Speculative decoding on the plan's cards: the tool's figures at the plan's batch."""

    result: SpeculativeResult | None = None
    refused: Literal["engine", "no_mtp", "no_draft", "other"] | None = Field(
        None, description="why it is not sized: the plan's engine (llama.cpp, mlx-lm) runs none, the model ships no "
        "MTP layers, no draft model of its family is on record, another input the tool refused")
    tokens_per_s: float | None = Field(None, description="the plan's per-user decode speed without it")
    tokens_per_s_with: tuple[float, float] | None = Field(None, description="with it: low, high")
    fits: bool | None = Field(None, description="the draft's weights and KV fit in the memory the plan leaves")
    headroom_bytes: float | None = None


def check(method: str | None) -> None:
    if method is not None and method not in ("draft", "eagle3", "mtp"):
        raise ToolError(f"speculative decoding method '{method}': one of draft, eagle3, mtp")


def with_speculative(w: Workload, asked: str, size: Callable[[Workload], Recommendation]) -> Recommendation:
    """The plan for `w` sized as asked, its `speculative` figures set for the method asked ('auto': the model's)."""
    method: Method = pick_method(resolve_model(w.model).id) if asked == "auto" else asked  # type: ignore[assignment]
    rec = size(w.model_copy(update={"speculative": None}))
    rec.workload = rec.workload.model_copy(update={"speculative": method})
    best = rec.best
    if best is None or best.serves is False:
        return rec
    if best.engine not in ("vllm", "sglang"):
        rec.speculative = SpeculativePlan(refused="engine")
        return rec
    rows = speculative_methods()
    model_id = resolve_model(w.model).id
    if method == "mtp" and model_id not in rows["mtp"].mtp:
        rec.speculative = SpeculativePlan(refused="no_mtp")
        return rec
    if method == "draft" and model_id not in rows["draft"].drafts:
        rec.speculative = SpeculativePlan(refused="no_draft")
        return rec
    tp = best.tp or max(1, best.gpus // max(1, best.replicas))
    users = best.users_per_replica or max(1, -(-rec.workload.users // max(1, best.replicas)))
    try:
        r = speculative(SpeculativeInput(model=w.model, method=method, gpu=best.gpu, gpus=min(tp, 64),
                                         precision=best.precision or "bf16", batch=users,
                                         context=rec.workload.context, engine=best.engine))
    except ToolError:
        rec.speculative = SpeculativePlan(refused="other")
        return rec
    room = best.headroom_fraction * best.capacity_bytes
    speed = best.decode_tokens_per_s
    rec.speculative = SpeculativePlan(
        result=r, tokens_per_s=speed, headroom_bytes=room, fits=r.draft_bytes_per_gpu <= room,
        tokens_per_s_with=(speed * r.speedup[0], speed * r.speedup[1]) if speed else None)
    return rec
