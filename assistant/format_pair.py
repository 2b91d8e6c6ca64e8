"""Two weight formats of one width weighed ('is AWQ or GPTQ better quality for a 70b model? does it matter if im
serving w/ vllm', 'AWQ跟GPTQ有啥区别'; reading/format_pair.py sets ask["pair"]): a concept answer from the knowledge
data, nothing sized or asked. What the formats are (weight-only, their bits per weight), their weights for the model
named (inference_memory), their quality against each other (precisions.yaml calibration codes, ranked, with the
study) and against BF16 (the published gap), their speed in vLLM (format_support.yaml's kernels for the width), and,
below 8 bits, FP8 as the near-lossless choice on cards with FP8 tensor cores. ctx.data["format_pair"] holds the
codes."""

from __future__ import annotations

from typing import Any


def _space(ctx: Any) -> str:
    return "" if ctx.lang == "zh" else " "


def _short(p: Any) -> str:
    return str(p.name).split(" (")[0]


def _weights(ctx: Any, model: str | None, pid: str) -> float | None:
    """The weights' bytes of the model in that format (inference_memory); None with no model or none sized."""
    from gpu_advisor.assistant.followups import _call
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.inference import InferenceMemoryInput, inference_memory

    if not model:
        return None
    try:
        mem = _call(ctx, "inference_memory", inference_memory,
                    InferenceMemoryInput(model=model, precision=pid, context=4096, batch=1))
    except (ToolError, LookupError, ValueError):
        return None
    return float(mem.weights_bytes)


def _memory(ctx: Any, fmts: list[Any], model: str | None, data: dict[str, Any]) -> str:
    from gpu_advisor.assistant.writers import gb
    from gpu_advisor.knowledge import find_model

    sized = {p.id: _weights(ctx, model, p.id) for p in fmts}
    if model and all(v is not None for v in sized.values()):
        data["weights_bytes"] = sized
        if len({gb(v or 0) for v in sized.values()}) == 1:  # one width, one size: said once
            return ctx.say("fpair.mem.model_each", model=find_model(model).name, gb=gb(sized[fmts[0].id] or 0))
        rows = ctx.say("list_sep").join(ctx.say("fpair.mem.row", fmt=_short(p), gb=gb(sized[p.id] or 0)) for p in fmts)
        return ctx.say("fpair.mem.model", model=find_model(model).name, rows=rows)
    rows = ctx.say("list_sep").join(ctx.say("fpair.mem.row_b", fmt=_short(p), gb=f"{p.bits_per_weight / 8:.2f}")
                                    for p in fmts)
    return ctx.say("fpair.mem.per_b", rows=rows)


def _quality(ctx: Any, fmts: list[Any], data: dict[str, Any]) -> str:
    """Against each other (the calibration codes, the more robust first) and against BF16 (the published gap)."""
    from gpu_advisor.assistant.precision_verdict import published_gap

    ranked = sorted((p for p in fmts if p.calibration and p.calibration_rank), key=lambda p: p.calibration_rank)
    if len(ranked) >= 2 and ranked[0].calibration_rank < ranked[-1].calibration_rank:
        best, rest = ranked[0], ranked[1:]
        data["more_robust"] = best.id
        line = ctx.say("fpair.quality.ranked", best=_short(best), best_how=ctx.say(f"fpair.calib.{best.calibration}"),
                       other=ctx.say("list_sep").join(_short(p) for p in rest),
                       other_how=ctx.say(f"fpair.calib.{rest[0].calibration}"),
                       source=best.calibration_source.split(" (")[0])
    else:
        data["more_robust"] = None
        line = ctx.say("fpair.quality.level")
    gaps = {published_gap(ctx, p) for p in fmts}
    data["gaps"] = {p.id: list(p.accuracy_drop_pct or []) for p in fmts}
    if len(gaps) == 1:
        return line + _space(ctx) + ctx.say("fpair.quality.bf16_same", gap=gaps.pop())
    return line + _space(ctx) + ctx.say("fpair.quality.bf16_each", rows=ctx.say("sep").join(
        ctx.say("fpair.quality.bf16_row", fmt=_short(p), gap=published_gap(ctx, p)) for p in fmts))


def _speed(ctx: Any, fmts: list[Any], bits: int, data: dict[str, Any]) -> str:
    """One kernel path for the width in vLLM when every format loads there, else each format's engines."""
    from gpu_advisor.assistant.format_concept import arch_name
    from gpu_advisor.knowledge import engines, format_support

    support = {f.id: f for f in format_support()}
    width = support.get(f"int{bits}")
    path = next((x for x in width.paths if x.code == "weight_only"), None) if width else None
    if path and all("vllm" in p.engines for p in fmts):
        data["kernels"] = path.kernels
        return ctx.say("fpair.speed.same", kernels=path.kernels,
                       archs=ctx.say("list_sep").join(arch_name(str(a)) for a in path.archs))
    data["kernels"] = None
    return ctx.say("fpair.speed.engines", rows=ctx.say("sep").join(
        ctx.say("fpair.speed.row", fmt=_short(p), engines=ctx.say("list_sep").join(
            next((e.name for e in engines() if e.id == x), str(x)) for x in p.engines)) for p in fmts))


def _fp8(ctx: Any, model: str | None, data: dict[str, Any]) -> str:
    """FP8: near-lossless where the card computes it (the published gap, the architectures with FP8 tensor cores)."""
    from gpu_advisor.assistant.format_concept import fp8_archs
    from gpu_advisor.assistant.precision_verdict import published_gap
    from gpu_advisor.assistant.writers import gb
    from gpu_advisor.knowledge import find_precision

    fp8 = find_precision("fp8")
    weights = _weights(ctx, model, fp8.id)
    data["fp8_weights_bytes"] = weights
    size = ctx.say("fpair.fp8.model", gb=gb(weights)) if weights else \
        ctx.say("fpair.fp8.per_b", gb=f"{fp8.bits_per_weight / 8:g}")
    return ctx.say("fpair.fp8", gap=published_gap(ctx, fp8), size=size) + _space(ctx) + fp8_archs(ctx)


def one_width_pair(named: list[str]) -> list[str]:
    """The formats named when they are two or more catalog formats of one width, unpacked to 16 bits, that one engine
    loads (AWQ and GPTQ in vLLM); empty otherwise ('gguf or awq for vllm' is picked by engine)."""
    from gpu_advisor.knowledge import find_precision

    try:
        fmts = [find_precision(x) for x in named]
    except (LookupError, ValueError):
        return []
    if len(fmts) < 2 or len({int(p.bits_per_weight) for p in fmts}) > 1 or any(p.compute != "bf16" for p in fmts):
        return []
    return [p.id for p in fmts] if set.intersection(*(set(p.engines) for p in fmts)) else []


def format_pair(ctx: Any) -> str:
    from gpu_advisor.knowledge import find_precision

    ask = ctx.turn.ask
    fmts = [find_precision(str(x)) for x in ask.get("pair") or []]
    model = str(ask["model"]) if ask.get("model") else None
    bits = int(fmts[0].bits_per_weight)
    data: dict[str, Any] = {"formats": [p.id for p in fmts], "bits": bits, "weight_only": True, "model": model}
    head = ctx.say("fpair.head", formats=ctx.say("fpair.or").join(_short(p) for p in fmts), bits=bits,
                   memory=_memory(ctx, fmts, model, data))
    parts = [head, _quality(ctx, fmts, data), _speed(ctx, fmts, bits, data)]
    if bits < 8:
        parts.append(_fp8(ctx, model, data))
    parts.append(ctx.say("asks.quality.measure"))
    ctx.data["format_pair"] = data
    return "\n\n".join(parts)
