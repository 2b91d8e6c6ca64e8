"""The biggest model a budget serves at the load asked ('if not, what's the biggest model we can serve for that
money at the same load', '这个预算最大能跑多大的模型'): the catalog's models, largest first, each sized on the whole
card search at the same workload (tools.recommend.options_for and decide, the plan's own rules, budget included);
the first that meets everything is the answer. The model asked comes first: when it meets the budget it is the
answer itself; else only smaller ones are tried."""

from __future__ import annotations

from pydantic import BaseModel, Field

from gpu_advisor.tools.models import resolve_model
from gpu_advisor.tools.recommend import Option, Workload, decide, doubly_unsure, options_for

# A line made for one kind of work (code, a distilled reasoner, images) is not 'the biggest model' asked in
# general: tried only when the model asked is one of them.
SPECIALISED = ("coder", "distill", "-vl")


class BiggestModel(BaseModel):
    """The biggest catalog model the budget serves at the load asked, and the plan that serves it."""

    asked: str = Field(description="the model asked (catalog id)")
    asked_fits: bool = Field(description="the model asked meets the budget itself")
    model: str
    model_name: str
    params_b: float
    active_params_b: float | None = None
    option: Option
    tried_over: list[str] = Field([], description="bigger models tried that miss the budget or the load, largest first")


def _kind(model_id: str) -> str:
    return next((s for s in SPECIALISED if s in model_id), "")


def _plan(w: Workload, model_id: str) -> Option | None:
    variant = w.model_copy(update={"model": model_id, "serve_precision": w.serve_precision if model_id == w.model
                                   else None})
    owned, options = options_for(variant)
    # the plan's rule: a price from too few offers on a card off CUDA is not one to rest a plan on
    options = [o for o in options if not doubly_unsure(o, variant)]
    best, _action, _rb = decide(variant, owned + options)
    return best if best is not None and best.ok else None


def biggest_within(w: Workload, plan: Option | None, most: int = 24) -> BiggestModel | None:
    """The biggest model `w`'s budget serves at its load (at most `most` models tried); None when none does or no
    budget is said. `plan`: the plan sized for the model asked (tools.recommend), the answer when it meets
    everything, the budget included."""
    from gpu_advisor.knowledge import models

    if not (w.budget_usd or w.budget_usd_per_month) or not w.spec.serves:
        return None
    asked = resolve_model(w.model)
    if plan is not None and plan.ok and not plan.owned:
        return BiggestModel(asked=asked.id, asked_fits=True, model=asked.id, model_name=asked.name,
                            params_b=asked.total_params_b, active_params_b=asked.active_params_b, option=plan)
    kind = _kind(asked.id)
    smaller = sorted((m for m in models() if not m.encoder and m.total_params_b < asked.total_params_b
                      and _kind(m.id) in ("", kind)), key=lambda m: (-m.total_params_b, m.id))
    tried: list[str] = []
    for m in smaller[:most]:
        found = _plan(w, m.id)
        if found is not None:
            return BiggestModel(asked=asked.id, asked_fits=False, model=m.id, model_name=m.name,
                                params_b=m.total_params_b, active_params_b=m.active_params_b, option=found,
                                tried_over=tried)
        tried.append(m.id)
    return None
