"""'8bit vs 4bit quant?' / '8bit和4bit差多少' after a plan: the widths asked, each as the file it would be on this
plan's engine and cards (GGUF Q8_0 / Q4_K_M on llama.cpp, FP8 or INT8 / INT4 on a batching server), with its
memory (inference_memory), its speed per user and first token (speed) at the plan's users and context, and a
quality note per width from the catalog. Nothing is re-planned: the plan on screen stays as it is. Without a
serving plan the reply is the glossary's (or the format comparison when formats were named)."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.writers import gb, glossary_reply, tps

SAME_SPEED = 1.1  # a speed ratio below this is said as "about the same speed" (many users at once: compute-bound)


def _format(bits: int, named: str | None, gguf: bool, fp8: bool) -> str:
    from gpu_advisor.assistant.reading.text import vocab

    formats = vocab()["precision_compare"]["formats"]
    table = formats["gguf"] if gguf else formats["server" if fp8 else "server_no_fp8"]
    if named and (named.startswith("q") or named == "f16") == gguf:
        return named  # the file asked about, when it runs on this engine
    return str(table.get(bits) or table[min(table, key=lambda b: abs(int(b) - bits))])


def precision_compare(ctx: Any) -> str:
    from gpu_advisor.assistant.advice import serving_setup
    from gpu_advisor.assistant.followups import _call, _sep
    from gpu_advisor.knowledge import find_gpu, find_precision
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.inference import inference_memory
    from gpu_advisor.tools.throughput import SpeedInput, speed

    ask = ctx.turn.ask
    if ask.get("pair"):  # 'is AWQ or GPTQ better quality for a 70b?': two formats of one width, a concept answer
        from gpu_advisor.assistant.format_pair import format_pair

        return format_pair(ctx)
    rec = ctx.rec
    best = rec.best if rec else None
    if rec is None or best is None or not best.precision or not (rec.workload.spec.serves or rec.workload.spec.batch):
        ctx.data["precision_compare"] = {"plan": False}
        if ask.get("verdict"):  # 'fp8 vs int4, which loses more quality?': gaps, memory, speed, a verdict
            from gpu_advisor.assistant.precision_verdict import weighed

            text = weighed(ctx, ask)
            if text:
                return text
        if ask.get("model"):  # 'int4 awq vs fp8 for r1 distill 70b, how much memory each?': that model's widths
            text = _model_widths(ctx, str(ask["model"]), ask)
            if text:
                return _explained(ctx, ask) + text
        if len(ask.get("quality") or []) >= 2:  # 'fp8 vs int4 awq for quality?': each format's quality
            from gpu_advisor.assistant.inform import format_quality

            return format_quality(ctx, list(ask["quality"]))
        if ask.get("formats"):
            from gpu_advisor.assistant.asks import formats

            return formats(ctx)
        return glossary_reply("quantization", ctx.lang) + " " + ctx.say("fup.prec.no_plan")
    w = rec.workload
    base = serving_setup(w, best)
    gpu = find_gpu(best.gpu)
    gguf = find_precision(best.precision).family == "gguf" or best.engine in ("llama.cpp", "ollama")
    rows: list[dict[str, Any]] = []
    lines = [ctx.say("fup.prec.head", option=f"{best.gpus} × {best.gpu_name}", users=f"{base.batch:,}",
                     context=f"{base.context:,}", plan=best.precision.upper())]
    for bits, named in zip(ask.get("widths") or [], ask.get("named") or [], strict=False):
        pid = _format(int(bits), named, gguf, bool(gpu.fp8_tflops))
        name = find_precision(pid).name.split(" (")[0]
        try:
            mem = _call(ctx, "inference_memory", inference_memory, base.model_copy(update={"precision": pid}))
        except (ToolError, LookupError, ValueError):
            continue
        row: dict[str, Any] = {"bits": int(bits), "precision": pid, "weights_bytes": mem.weights_bytes,
                               "per_gpu_bytes": mem.per_gpu_total_bytes, "capacity_bytes": mem.gpu_capacity_bytes,
                               "fits": mem.fits}
        # each format's quality code, from knowledge (precisions.yaml), as the format comparison says it
        quality = ctx.say("fup.prec.quality", quality=ctx.say(f"asks.quality.code.{find_precision(pid).quality or 'none'}"))
        if mem.fits is False:
            lines.append(ctx.say("fup.prec.no_fit", fmt=name, weights=gb(mem.weights_bytes),
                                 need=gb(mem.per_gpu_total_bytes), have=gb(mem.gpu_capacity_bytes or 0)) + _sep(ctx) + quality)
            rows.append(row)
            continue
        s = _call(ctx, "speed", speed, SpeedInput(model=w.model, precision=pid, gpu=best.gpu, gpus=base.gpus,
                                                  pp=base.pp, batch=base.batch, context=base.context,
                                                  engine=best.engine, kv_precision=base.kv_precision))
        row.update({"tokens_per_s": s.decode_tokens_per_s})
        rows.append(row)
        lines.append(ctx.say("fup.prec.row", fmt=name, weights=gb(mem.weights_bytes), need=gb(mem.per_gpu_total_bytes),
                             have=gb(mem.gpu_capacity_bytes or 0), tps=tps(s.decode_tokens_per_s)) + _sep(ctx) + quality)
    ran = [r for r in rows if r.get("tokens_per_s")]
    gap = ""
    if len(ran) >= 2:
        small, big = sorted(ran[:2], key=lambda r: r["bits"])
        ratio = small["tokens_per_s"] / big["tokens_per_s"]
        gap = "\n\n" + ctx.say("fup.prec.gap" if ratio >= SAME_SPEED else "fup.prec.gap_same", small=small["bits"],
                               big=big["bits"], saved=gb(big["weights_bytes"] - small["weights_bytes"]),
                               faster=f"{ratio:.1f}")
    named = _named_cards(ctx, w, best, ask, gguf)
    ctx.data["precision_compare"] = {"plan": True, "gpu": best.gpu, "gpus": best.gpus, "engine": best.engine,
                                     "users": base.batch, "context": base.context, "rows": rows,
                                     **({"named": named[1]} if named[1] else {})}
    return lines[0] + "\n\n" + "\n".join("- " + x for x in lines[1:]) + gap + named[0]


def _named_cards(ctx: Any, w: Any, best: Any, ask: dict[str, Any], gguf: bool) -> tuple[str, list[dict[str, Any]]]:
    """The other cards the user named as candidates ('buy h100 or h200?', kept by advice.kept_named): whether each
    width asked fits on them as the plan sized them ('bf16 does not fit on 8 × H100'), from inference_memory."""
    from gpu_advisor.assistant.advice import serving_setup
    from gpu_advisor.assistant.followups import _call
    from gpu_advisor.knowledge import find_gpu, find_precision
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.inference import inference_memory
    from gpu_advisor.tools.recommend import Option

    named = {str(g) for _n, g in (ctx.results or {}).get("named") or []} - {best.gpu}
    options = [Option.model_validate(o) for o in (ctx.results or {}).get("options") or [] if o.get("gpu") in named]
    text, rows = "", []
    for o in list({o.gpu: o for o in options}.values()):
        parts = []
        for bits, asked in zip(ask.get("widths") or [], ask.get("named") or [], strict=False):
            pid = _format(int(bits), asked, gguf, bool(find_gpu(o.gpu).fp8_tflops))
            try:
                mem = _call(ctx, "inference_memory", inference_memory,
                            serving_setup(w, o).model_copy(update={"precision": pid}))
            except (ToolError, LookupError, ValueError):
                continue
            rows.append({"gpu": o.gpu, "gpus": o.gpus, "precision": pid, "per_gpu_bytes": mem.per_gpu_total_bytes,
                         "capacity_bytes": mem.gpu_capacity_bytes, "fits": mem.fits})
            parts.append(ctx.say("fup.prec.named_fits" if mem.fits is not False else "fup.prec.named_no",
                                 fmt=find_precision(pid).name.split(" (")[0], need=gb(mem.per_gpu_total_bytes),
                                 have=gb(mem.gpu_capacity_bytes or 0)))
        if parts:
            text += "\n\n" + ctx.say("fup.prec.named_head", option=f"{o.gpus} × {o.gpu_name}") + ctx.say("sep").join(parts) \
                + ctx.say("fig.end")
    return text, rows


def _explained(ctx: Any, ask: dict[str, Any]) -> str:
    """'FP8和INT4有啥区别': what each width asked is, a line each (8-bit, 4-bit, 16-bit, fewer), before its figures."""
    if not ask.get("explain"):
        return ""
    keys = dict.fromkeys("16" if b >= 16 else "8" if b >= 8 else "4" if b >= 4 else "low" for b in ask.get("widths") or [])
    return "\n".join("- " + ctx.say(f"fup.prec.explain.{k}") for k in keys) + "\n\n"


def _model_widths(ctx: Any, model_id: str, ask: dict[str, Any]) -> str:
    """With no plan on screen, a model named: each width asked as the file a batching server loads (the format named
    when one was: AWQ, GPTQ, FP8), its weights and the KV cache of one conversation at the default context, from
    inference_memory, with the format's quality note from knowledge. Empty when no width could be sized."""
    from gpu_advisor.assistant.followups import _call, _sep
    from gpu_advisor.assistant.slots import SLOTS
    from gpu_advisor.knowledge import find_model, find_precision
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.inference import InferenceMemoryInput, inference_memory

    context = int(SLOTS["context"].default)
    quality = [find_precision(q) for q in ask.get("quality") or []]
    rows: list[dict[str, Any]] = []
    lines = []
    for bits, named in zip(ask.get("widths") or [], ask.get("named") or [], strict=False):
        said = next((q.id for q in quality if round(q.bits_per_weight) == int(bits)), None)
        pid = said or _format(int(bits), named, False, True)
        try:
            mem = _call(ctx, "inference_memory", inference_memory,
                        InferenceMemoryInput(model=model_id, precision=pid, context=context, batch=1))
        except (ToolError, LookupError, ValueError):
            continue
        fmt = find_precision(pid)
        rows.append({"bits": int(bits), "precision": pid, "weights_bytes": mem.weights_bytes,
                     "kv_cache_bytes": mem.kv_cache_bytes, "total_bytes": mem.total_bytes})
        lines.append(ctx.say("fup.prec.model_row", fmt=fmt.name.split(" (")[0], weights=gb(mem.weights_bytes),
                             kv=gb(mem.kv_cache_bytes), total=gb(mem.total_bytes)) + _sep(ctx)
                     + ctx.say("fup.prec.quality", quality=ctx.say(f"asks.quality.code.{fmt.quality or 'none'}")))
    if not rows:
        return ""
    ctx.data["precision_compare"] = {"plan": False, "model": model_id, "context": context, "rows": rows}
    head = ctx.say("fup.prec.model_head", model=find_model(model_id).name, context=f"{context:,}")
    return head + "\n\n" + "\n".join("- " + x for x in lines) + "\n\n" + ctx.say("asks.quality.measure")
