"""A serving plan with speculative decoding asked for (tools.speculative): the plan as sized, then its per-user
decode speed with the draft at the plan's own batch per copy, and whether the draft's weights and KV fit in the
memory the plan leaves on each card. The plan's card count is not changed: the speed-up is a range that depends on
the text (acceptance), so the cards are sized without it and the gain is said as what it buys on them.

A draft model the user named ('Llama 3.1 8B as the draft for the 70B') is sized as named, and its figures are also
given at one request, where speculative decoding pays most: the per-user speed on the plan's cards without and with
it. A named draft larger than the method's share_max of the model's parameters has the family's draft on record
sized beside it, at one request too."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, Field

from gpu_advisor.knowledge.speculative import Method, speculative_methods
from gpu_advisor.tools import throughput
from gpu_advisor.tools.common import ToolError
from gpu_advisor.tools.models import resolve_model
from gpu_advisor.tools.speculative import (
    SpeculativeInput,
    SpeculativeResult,
    check_draft,
    pick_method,
    speculative,
)

if TYPE_CHECKING:
    from gpu_advisor.tools.recommend import Option, Recommendation, Workload


SPEC_ENGINES = ("vllm", "sglang")  # the engines tools.speculative sizes


class SpeculativePlan(BaseModel):
    """Speculative decoding on the plan's cards: the tool's figures at the plan's batch."""

    result: SpeculativeResult | None = None
    refused: Literal["engine", "no_mtp", "no_draft", "tokenizer", "other"] | None = Field(
        None, description="why it is not sized: the plan's engine (llama.cpp, mlx-lm) runs none, the model ships no "
        "MTP layers, no draft model of its family is on record, the draft named has another tokenizer or is not "
        "smaller, another input the tool refused")
    named: str | None = Field(None, description="the draft model the user named, a catalog id")
    tokens_per_s: float | None = Field(None, description="the plan's per-user decode speed without it")
    tokens_per_s_with: tuple[float, float] | None = Field(None, description="with it: low, high")
    fits: bool | None = Field(None, description="the draft's weights and KV fit in the memory the plan leaves")
    headroom_bytes: float | None = None
    one: SpeculativeResult | None = Field(None, description="a named draft's figures at one request")
    tokens_per_s_one: float | None = Field(None, description="the per-user decode speed at one request on the plan's "
                                           "cards, without speculative decoding")
    tokens_per_s_one_with: tuple[float, float] | None = Field(None, description="with the named draft: low, high")
    smaller: SpeculativeResult | None = Field(None, description="the family's draft on record at one request, when "
                                              "the named one is large for the model (share_max)")
    smaller_one_with: tuple[float, float] | None = None


def check(method: str | None) -> None:
    if method is not None and method not in ("draft", "eagle3", "mtp"):
        raise ToolError(f"speculative decoding method '{method}': one of draft, eagle3, mtp")


def with_speculative(w: Workload, asked: str, size: Callable[[Workload], Recommendation]) -> Recommendation:
    """The plan for `w` sized as asked, its `speculative` figures set for the method asked ('auto': the model's)."""
    method: Method = pick_method(resolve_model(w.model).id) if asked == "auto" else asked  # type: ignore[assignment]
    rec = size(w.model_copy(update={"speculative": None}))
    if w.engine is None and rec.best is not None and rec.best.engine not in SPEC_ENGINES:
        # no engine said and the plan's runs none (llama.cpp for one user): sized on vLLM, which runs it
        rec = size(w.model_copy(update={"speculative": None, "engine": "vllm"}))
    rec.workload = rec.workload.model_copy(update={"speculative": method})
    best = rec.best
    if best is None or best.serves is False:
        return rec
    if best.engine not in SPEC_ENGINES:
        rec.speculative = SpeculativePlan(refused="engine")
        return rec
    rows = speculative_methods()
    model_id = resolve_model(w.model).id
    if method == "mtp" and model_id not in rows["mtp"].mtp:
        rec.speculative = SpeculativePlan(refused="no_mtp")
        return rec
    named = w.draft_model if method == "draft" else None
    if method == "draft" and named is None and model_id not in rows["draft"].drafts:
        rec.speculative = SpeculativePlan(refused="no_draft")
        return rec
    if named is not None:
        try:
            check_draft(resolve_model(w.model), resolve_model(named))
        except (ToolError, LookupError):
            rec.speculative = SpeculativePlan(refused="tokenizer", named=named)
            return rec
    tp = best.tp or max(1, best.gpus // max(1, best.replicas))
    users = best.users_per_replica or max(1, -(-rec.workload.users // max(1, best.replicas)))

    def sized(batch: int, draft: str | None) -> SpeculativeResult:
        return speculative(SpeculativeInput(model=w.model, method=method, gpu=best.gpu, gpus=min(tp, 64),
                                            precision=best.precision or "bf16", batch=batch,
                                            context=rec.workload.context, engine=best.engine, draft=draft))

    try:
        r = sized(users, named)
    except ToolError:
        rec.speculative = SpeculativePlan(refused="other")
        return rec
    room = best.headroom_fraction * best.capacity_bytes
    speed = best.decode_tokens_per_s
    rec.speculative = SpeculativePlan(
        result=r, tokens_per_s=speed, headroom_bytes=room, fits=r.draft_bytes_per_gpu <= room, named=named,
        tokens_per_s_with=(speed * r.speedup[0], speed * r.speedup[1]) if speed else None)
    if named is not None:
        _at_one(rec, best, min(tp, 64), sized, model_id)
    return rec


def _times(speed: float | None, r: SpeculativeResult) -> tuple[float, float] | None:
    return (speed * r.speedup[0], speed * r.speedup[1]) if speed else None


def _at_one(rec: Recommendation, best: Option, tp: int, sized: Callable[[int, str | None], SpeculativeResult],
            model_id: str) -> None:
    """A named draft at one request on the plan's cards; the family's draft on record beside it when the named one
    is large for the model."""
    s = rec.speculative
    assert s is not None and s.named is not None
    s.one = sized(1, s.named)
    try:
        s.tokens_per_s_one = throughput.speed(throughput.SpeedInput(
            model=rec.workload.model, precision=best.precision or "bf16", gpu=best.gpu, gpus=tp, pp=best.pp, batch=1,
            context=rec.workload.context, engine=best.engine, kv_precision=best.kv_precision)).decode_tokens_per_s
    except ToolError:
        s.tokens_per_s_one = None
    s.tokens_per_s_one_with = _times(s.tokens_per_s_one, s.one)
    row = speculative_methods()["draft"]
    usual = row.drafts.get(model_id)
    share = s.one.draft_share or 0
    if usual and usual != resolve_model(s.named).id and row.share_max is not None and share > row.share_max:
        s.smaller = sized(1, usual)
        s.smaller_one_with = _times(s.tokens_per_s_one, s.smaller)
