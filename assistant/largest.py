"""The reply to the inverse question (intent `largest`, reading/largest.py): for each fine-tuning method or
weight format asked, the biggest model the user's card(s) hold (tools.largest): the largest catalog model that
fits with its memory, the next one that does not, the size bound, and for serving one user's speed and the
largest model that still writes at reading speed. Never a default model sized in the question's place."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.sized_load import context_each, users_at_once
from gpu_advisor.assistant.writers import gb, tps
from gpu_advisor.knowledge import find_gpu, gpus
from gpu_advisor.knowledge.schema import Gpu
from gpu_advisor.tools.largest import Fitting, Largest, largest
from gpu_advisor.tools.recommend import Workload

EACH_METHODS = ("lora", "qlora")  # 'the biggest with each', no method named: the two a single card fine-tunes with
FALLBACK_MODEL = "llama-3.1-8b"  # the profile's model slot when none is known: replaced by every size tried
BARE_SEGMENTS = ("consumer", "workstation", "datacenter")  # a bare memory amount: a card of these, in this order


def _card_of_memory(memory_gb: int) -> Gpu | None:
    """The catalog card with exactly that memory, a desktop one first ('24G显存': an RTX 3090)."""
    found = [g for g in gpus() if g.memory_gb == memory_gb and g.segment in BARE_SEGMENTS and "laptop" not in g.id]
    return min(found, key=lambda g: BARE_SEGMENTS.index(g.segment), default=None)


def _card(ctx: Any, spec: dict[str, Any]) -> tuple[Gpu | None, int, bool]:
    """The card asked about and its count: a memory amount said now, else the cards owned or named."""
    if spec.get("memory_gb"):
        return _card_of_memory(int(spec["memory_gb"])), 1, False
    for key, owned in (("owned", True), ("only", False)):
        for item in ctx.profile.get(key) or []:
            count, x, card = item.partition("x ")
            try:
                return find_gpu(card.strip() if x else item), int(count) if x else 1, owned
            except (LookupError, ValueError):
                continue
    if ctx.turn.cards:
        return find_gpu(ctx.turn.cards[0]), ctx.turn.counts.get(ctx.turn.cards[0], 1), False
    rec = ctx.rec  # 'the biggest model these cards run?' after a plan: the plan's cards
    if rec is not None and rec.best is not None:
        return find_gpu(rec.best.gpu), rec.best.gpus, rec.best.owned
    return None, 1, False


def _workload(ctx: Any, trains: bool) -> Workload:
    from gpu_advisor.assistant.advice import workload_for
    from gpu_advisor.assistant.policy import Profile

    phase = "fine-tune" if trains else "serve"
    profile = {**ctx.profile, "phase": phase, "model": ctx.profile.get("model") or FALLBACK_MODEL}
    if not trains:  # the users at once and the context a follow-up said ('10-20 users', 'a support bot'): held
        profile.update(users=users_at_once(ctx.profile), context=context_each(ctx.profile))
    return workload_for(Profile.model_validate(profile))


def _methods(ctx: Any, spec: dict[str, Any]) -> list[str]:
    said = list(spec.get("methods") or [])
    known = ctx.profile.get("method")
    if said:
        return said
    if spec.get("each") or not known:
        return list(EACH_METHODS)
    return [known]


def _name(ctx: Any, f: Fitting) -> str:
    from gpu_advisor.assistant.engine import describe

    return describe("model", f.model, ctx.lang)


def _example(ctx: Any, f: Fitting, cap: float) -> str:
    if f.decode_tokens_per_s is None:
        return ctx.say("largest.example_train", name=_name(ctx, f), used=gb(f.per_gpu_gb * 1e9), cap=gb(cap * 1e9))
    return ctx.say("largest.example_serve", name=_name(ctx, f), fmt=(f.precision or "").upper(),
                   used=gb(f.per_gpu_gb * 1e9), cap=gb(cap * 1e9), tps=tps(f.decode_tokens_per_s))


def _size(b: float) -> str:
    return f"{b:.0f}" if b >= 10 else f"{b:.1f}".removesuffix(".0")


def _line(ctx: Any, r: Largest, label: str) -> str:
    """One method's or format's answer: the largest dense model that fits leads, then the others (a MoE of more
    total parameters among them), the next one that does not fit, the size bound and, serving, the largest at speed."""
    dense = [e for e in r.examples if e.active_params_b is None]
    if not r.examples and r.params_b <= 0:
        return "- " + ctx.say("largest.none", label=label)
    shown = dense + [e for e in r.examples if e.active_params_b is not None]
    size = dense[0].params_b if dense else r.params_b
    parts = [ctx.say("largest.line", label=label, size=_size(size))]
    if shown:
        parts.append(_example(ctx, shown[0], r.capacity_gb))
        if len(shown) > 1:
            parts.append(ctx.say("largest.also", names=ctx.say("largest.sep").join(_name(ctx, e) for e in shown[1:])))
    if r.over is not None:
        parts.append(ctx.say("largest.over", name=_name(ctx, r.over), used=gb(r.over.per_gpu_gb * 1e9),
                             cap=gb(r.capacity_gb * 1e9)))
    if r.params_b >= size + 1:
        parts.append(ctx.say("largest.bound", bound=_size(r.params_b)))
    if r.quick is not None and r.speed_floor and shown and r.quick.model != shown[0].model:
        parts.append(ctx.say("largest.quick", floor=f"{r.speed_floor:g}", name=_name(ctx, r.quick),
                             fmt=(r.quick.precision or "").upper(), tps=tps(r.quick.decode_tokens_per_s or 0)))
    return "- " + ("" if ctx.lang == "zh" else " ").join(parts)  # Chinese sentences run on, no space


def _in_practice(ctx: Any, results: list[dict[str, Any]]) -> list[str]:
    """With LoRA and QLoRA both sized, the difference in practice: how much larger a model QLoRA holds on the same
    card, at what cost."""
    by = {r["method"]: Largest.model_validate(r) for r in results}
    if "lora" not in by or "qlora" not in by or by["lora"].params_b <= 0:
        return []
    return ["", ctx.say("largest.in_practice", ratio=f"{by['qlora'].params_b / by['lora'].params_b:.0f}")]


def largest_reply(ctx: Any) -> str:
    spec = ctx.turn.ask.get("largest") or {}
    gpu, count, owned = _card(ctx, spec)
    if gpu is None:
        return ctx.say("largest.no_card")
    trains = bool(spec.get("trains")) or bool(spec.get("methods")) \
        or (ctx.profile.get("phase") in ("fine-tune", "train-and-serve") and not ctx.turn.ask.get("precision")
            and not spec.get("memory_gb"))
    w = _workload(ctx, trains)
    option = f"{count} × {gpu.name}"
    lines = ["## " + ctx.say("largest.title_train" if trains else "largest.title_serve", option=option), ""]
    if spec.get("memory_gb"):
        lines.append(ctx.say("largest.memory_card", gb=f"{spec['memory_gb']}", name=gpu.name))
    asked: list[tuple[str | None, str | None]] = [(m, None) for m in _methods(ctx, spec)] if trains \
        else [(None, ctx.profile.get("precision"))]
    results = []
    for method, precision in asked:
        r = largest(w, gpu.id, count, method=method, precision=precision)
        if ctx.recorder is not None:
            ctx.recorder("largest_model", {"workload": w.model_dump(mode="json"), "gpu": gpu.id, "gpus": count,
                                           "method": method, "precision": precision}, r.model_dump(mode="json"), 0.0)
        results.append(r.model_dump(mode="json"))
        label = ctx.say(f"largest.method.{method}") if method else (
            (r.precision or "").upper() if precision else ctx.say("largest.usual_format"))
        lines.append(_line(ctx, r, label))
    lines += _in_practice(ctx, results)
    ctx.data["largest"] = {"gpu": gpu.id, "gpus": count, "owned": owned, "trains": trains, "results": results,
                           "memory_gb": spec.get("memory_gb"), "users": w.users, "context": w.context}
    lines.append("")
    lines.append(ctx.say("largest.setting_train", seq=f"{w.seq_len:,}") if trains
                 else ctx.say("largest.setting_serve_one" if w.users == 1 else "largest.setting_serve", users=f"{w.users:,}",
                              context=f"{w.context:,}"))
    return "\n".join(lines)
