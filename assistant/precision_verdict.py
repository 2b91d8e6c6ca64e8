"""'fp8 vs int4 for a 70b model — which one loses more quality and why?', 'when would i pick FP8 vs INT4',
'FP8和INT4选哪个': with no plan on screen, two weight widths weighed (reading/precisions.py sets ask["verdict"]).
After the memory of each (assistant/precisions.py), this adds each format's published accuracy gap against BF16
with its source (knowledge/data/precisions.yaml), its weights per billion parameters, why the narrower one loses
more, a speed note, and a verdict: which loses more quality, when to pick each. Every figure is the catalog's."""

from __future__ import annotations

from typing import Any

# The widths whose keeping of the weights the verdict says beside the loss (16 bits: as trained; 8 bits: almost).
KEEPS = ("16", "8")
# Quality codes from least to most lost (precisions.yaml 'quality').
# The widths whose levels the reasons name (4 bits: 16 levels, 8 bits: 256).
LEVELS = (4, 8)
RANK = ["reference", "near_lossless", "small_loss", "noticeable", "large", "severe"]


def _ids(ask: dict[str, Any]) -> list[str]:
    """The two formats weighed: those named exactly (AWQ, FP8), else each width as a batching server loads it."""
    from gpu_advisor.assistant.precisions import _format
    from gpu_advisor.knowledge import find_precision

    named = [str(q) for q in ask.get("quality") or []]
    out: list[str] = []
    for bits, exact in zip(ask.get("widths") or [], ask.get("named") or [], strict=False):
        said = next((q for q in named if round(find_precision(q).bits_per_weight) == int(bits)), None)
        pid = said or _format(int(bits), exact, False, True)
        if pid not in out:
            out.append(pid)
    return out[:2]


def _loss(p: Any) -> tuple[int, float, float]:
    """How much a format loses, for ordering: its quality code, its published drop, then fewer bits."""
    hi = p.accuracy_drop_pct[1] if p.accuracy_drop_pct else 0.0
    return RANK.index(p.quality) if p.quality in RANK else 0, hi, -p.bits_per_weight


def _width(bits: float) -> str:
    return "16" if bits >= 16 else "8" if bits >= 8 else "4" if bits >= 4 else "low"


def published_gap(ctx: Any, p: Any) -> str:
    """The published accuracy gap against BF16 with its study, else the quality code said in words."""
    if p.accuracy_drop_pct and p.accuracy_source:
        lo, hi = p.accuracy_drop_pct
        source = p.accuracy_source.split(" (")[0]
        if hi == 0:
            return ctx.say("pv.gap.none", models=p.accuracy_models, source=source)
        return ctx.say("pv.gap.range", lo=f"{lo:g}", hi=f"{hi:g}", models=p.accuracy_models, source=source)
    return ctx.say(f"asks.quality.code.{p.quality or 'none'}")


def verdict_block(ctx: Any) -> str:
    """The weighed comparison's own lines; empty when fewer than two formats are known."""
    from gpu_advisor.knowledge import find_precision

    ids = _ids(ctx.turn.ask)
    if len(ids) < 2:
        return ""
    formats = [find_precision(x) for x in ids]
    short = {p.id: p.name.split(" (")[0] for p in formats}
    more, less = sorted(formats, key=_loss, reverse=True)
    rows = [ctx.say("pv.row", name=short[p.id], gb=f"{p.bits_per_weight / 8:g}", gap=published_gap(ctx, p)) for p in formats]
    narrow, wide = sorted(formats, key=lambda p: p.bits_per_weight)
    speed = ctx.say("pv.speed.fp8" if wide.compute == "fp8" else "pv.speed.plain", narrow=short[narrow.id],
                    wide=short[wide.id], ratio=f"{wide.bits_per_weight / narrow.bits_per_weight:.1f}")
    same = _loss(more)[:2] == _loss(less)[:2]
    verdict = ctx.say("pv.verdict.same" if same else "pv.verdict", more=short[more.id], less=short[less.id],
                      why=ctx.say(f"pv.why.{_width(more.bits_per_weight)}"),
                      keeps=ctx.say(f"pv.keeps.{kept}") if (kept := _width(less.bits_per_weight)) in KEEPS else "",
                      narrow=short[narrow.id],
                      wide=short[wide.id])
    ctx.data["precision_verdict"] = {"formats": ids, "loses_more": None if same else more.id,
                                     "gaps": {p.id: list(p.accuracy_drop_pct or []) for p in formats},
                                     "gb_per_b_params": {p.id: p.bits_per_weight / 8 for p in formats},
                                     "sources": {p.id: p.accuracy_source.split(" (")[0] for p in formats},
                                     "measured_on": {p.id: p.accuracy_models for p in formats},
                                     "single_user_speedup": round(wide.bits_per_weight / narrow.bits_per_weight, 1),
                                     # the levels a width holds (2 ** bits) and the width weights are unpacked to
                                     "levels": {b: 2 ** b for b in LEVELS}, "unpacked_bits": 16}
    return "\n\n".join([ctx.say("pv.head") + "\n" + "\n".join("- " + r for r in rows), speed, verdict])


def weighed(ctx: Any, ask: dict[str, Any]) -> str:
    """The whole no-plan reply: each width explained when asked, its memory for the model named (else per billion
    parameters, in the block), then the block; empty when the block cannot be written."""
    from gpu_advisor.assistant.precisions import _explained, _model_widths

    block = verdict_block(ctx)
    if not block:
        return ""
    memory = _model_widths(ctx, str(ask["model"]), ask) if ask.get("model") else ""
    if not memory and len(ask.get("quality") or []) >= 2:  # 'fp8 vs int4 awq for quality?': each format's quality
        from gpu_advisor.assistant.inform import format_quality

        memory = format_quality(ctx, list(ask["quality"]))
    return _explained(ctx, ask) + (memory + "\n\n" if memory else "") + block
