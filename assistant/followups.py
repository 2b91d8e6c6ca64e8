"""Replies to follow-ups that carry their own question (assistant/reading/followups.py): what a speed figure of
the plan is, the plan's GPU hours, the KV cache a model takes, whether a number of examples is enough.

Each reply is short and tied to the plan on screen when there is one; every figure comes from a tool result
(speed, inference_memory, training_time, the plan's own options), the words from the language catalogs.
Nothing is sized anew: the plan stays as it is, and the question still open is asked again after the reply."""

from __future__ import annotations

import time
from typing import Any

from gpu_advisor.assistant.slots import SLOTS, use_context
from gpu_advisor.assistant.writers import gb, hours, pct, seconds, tps
from gpu_advisor.tools.cost import HOURS_PER_MONTH

SIXTEEN_BIT = ("bf16", "fp16")  # KV-cache formats an 8-bit cache is set beside


def _call(ctx: Any, tool: str, fn: Any, inp: Any) -> Any:
    """Run one tool and record the call (the reply's tool activity), as the other replies do."""
    start = time.perf_counter()
    result = fn(inp)
    if ctx.recorder is not None:
        ctx.recorder(tool, inp.model_dump(mode="json"), result.model_dump(mode="json"),
                     (time.perf_counter() - start) * 1000)
    return result


def _sep(ctx: Any) -> str:
    return "" if ctx.lang == "zh" else " "


# ---------------------------------------------------------------- what a figure is


def metric(ctx: Any) -> str:
    """'are those ttft numbers p99 or averages?': neither; the model's estimate for one request with everyone on
    at once, with the range the calibration residuals give (the speed tool), and the queueing percentiles when
    the plan was sized for a request rate."""
    from gpu_advisor.assistant.advice import serving_setup
    from gpu_advisor.tools.throughput import SpeedInput, speed

    rec = ctx.rec
    best = rec.best if rec else None
    if rec is None or best is None or best.ttft_s is None or not best.decode_tokens_per_s or not best.precision:
        ctx.data["metric"] = {"plan": False}
        return ctx.say("fup.metric.no_plan")
    w = rec.workload
    mem = serving_setup(w, best)
    inp = SpeedInput(model=w.model, precision=best.precision, gpu=best.gpu, gpus=mem.gpus, pp=mem.pp, batch=mem.batch,
                     context=mem.context, engine=best.engine, kv_precision=best.kv_precision)
    s = _call(ctx, "speed", speed, inp)
    p_low, p_high = s.prefill_tokens_per_s_range or (s.prefill_tokens_per_s, s.prefill_tokens_per_s)
    d_low, d_high = s.decode_tokens_per_s_range or (s.decode_tokens_per_s, s.decode_tokens_per_s)
    ttft_fast = best.ttft_s * s.prefill_tokens_per_s / p_high  # the plan's first token, scaled by the prefill range
    ttft_slow = best.ttft_s * s.prefill_tokens_per_s / p_low
    tps_low = best.decode_tokens_per_s * d_low / s.decode_tokens_per_s
    tps_high = best.decode_tokens_per_s * d_high / s.decode_tokens_per_s
    ctx.data["metric"] = {"plan": True, "kind": "model_estimate", "ttft_s": best.ttft_s,
                          "ttft_range_s": [ttft_fast, ttft_slow], "tokens_per_s": best.decode_tokens_per_s,
                          "tokens_per_s_range": [tps_low, tps_high], "users": mem.batch,
                          "prompt_tokens": w.prompt_length()}
    what = ctx.say("fup.metric.what", users=f"{mem.batch:,}", prompt=f"{w.prompt_length():,}")
    lines = [ctx.say("fup.metric.neither") + " " + what if ctx.turn.ask.get("choice") else what,
             ctx.say("fup.metric.figures", option=f"{best.gpus} × {best.gpu_name}", ttft=seconds(best.ttft_s),
                     ttft_low=seconds(ttft_fast), ttft_high=seconds(ttft_slow), tps=tps(best.decode_tokens_per_s),
                     tps_low=tps(tps_low), tps_high=tps(tps_high))]
    traffic = rec.traffic
    if traffic is not None and getattr(traffic, "ttft_p99_s", None):
        lines.append(ctx.say("fup.metric.traffic", p50=seconds(traffic.ttft_p50_s), p99=seconds(traffic.ttft_p99_s)))
        ctx.data["metric"]["ttft_p50_s"], ctx.data["metric"]["ttft_p99_s"] = traffic.ttft_p50_s, traffic.ttft_p99_s
    else:
        lines.append(ctx.say("fup.metric.tail"))
    return _sep(ctx).join(lines)


# ---------------------------------------------------------------- GPU hours


def gpu_hours(ctx: Any) -> str:
    """'how many gpu hours is that in total': GPUs x hours of the plan's own result: a run's hours for a job
    that ends, a month's hours at the plan's utilisation for serving."""
    rec = ctx.rec
    best = rec.best if rec else None
    if rec is None or best is None:
        ctx.data["gpu_hours"] = None
        return ctx.say("fup.gpu_hours.no_plan")
    lines: list[str] = []
    data: dict[str, Any] = {}
    run = rec.training_run or (best if best.job_hours is not None else None)
    if run is not None and run.job_hours is not None:
        total = run.gpus * run.job_hours
        data["run"] = {"gpus": run.gpus, "hours": run.job_hours, "gpu_hours": total, "usd": run.job_usd}
        lines.append(ctx.say("fup.gpu_hours.run", option=f"{run.gpus} × {run.gpu_name}", hours=hours(run.job_hours),
                             total=f"{total:,.1f}" if total < 100 else f"{total:,.0f}"))
    if rec.workload.spec.serves:
        use = rec.workload.utilisation
        month = best.gpus * HOURS_PER_MONTH * use
        data["month"] = {"gpus": best.gpus, "hours_per_month": HOURS_PER_MONTH, "utilisation": use, "gpu_hours": month}
        lines.append(ctx.say("fup.gpu_hours.month", option=f"{best.gpus} × {best.gpu_name}", gpus=best.gpus,
                             hours=f"{HOURS_PER_MONTH:,.0f}", use=pct(use), total=f"{month:,.0f}"))
    ctx.data["gpu_hours"] = data
    return _sep(ctx).join(lines) if lines else ctx.say("fup.gpu_hours.no_plan")


# ---------------------------------------------------------------- weights spilled into system RAM


def offload(ctx: Any) -> str:
    """'how much slower if it spills into system RAM?', '显存不够放内存会慢多少': the plan's decode with a tenth, a
    quarter and half of each GPU's weights in system RAM (tools.offload.spill): every step moves those bytes over
    PCIe (vLLM --cpu-offload-gb) or, on llama.cpp, the CPU reads them at system memory's bandwidth."""
    from gpu_advisor.assistant.advice import serving_setup
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.inference import inference_memory
    from gpu_advisor.tools.offload import SpillInput, spill

    rec = ctx.rec
    best = rec.best if rec else None
    if rec is None or best is None or not rec.workload.spec.serves or not best.tpot_s or not best.precision:
        ctx.data["offload"] = None
        return ctx.say("fup.offload.no_plan")
    mem = _call(ctx, "inference_memory", inference_memory, serving_setup(rec.workload, best))
    through = "ram" if best.engine == "llama.cpp" else "pcie"
    try:
        s = _call(ctx, "spill", spill, SpillInput(gpu=best.gpu, weights_bytes=mem.per_gpu_weights_bytes,
                                                  tpot_s=best.tpot_s, through=through))
    except ToolError:
        ctx.data["offload"] = None
        return ctx.say("fup.offload.unified", gpu=best.gpu_name)
    ctx.data["offload"] = s.model_dump(mode="json")
    lines = [ctx.say(f"fup.offload.{through}", option=f"{best.gpus} × {best.gpu_name}", tps=tps(s.all_on_card_tokens_per_s),
                     link=s.link, low=f"{s.link_gbps[0]:.0f}", high=f"{s.link_gbps[2]:.0f}")]
    for row in s.rows:
        lines.append(ctx.say("fup.offload.row", share=pct(row.share), gb=gb(row.spilled_bytes), tps=tps(row.tokens_per_s),
                             low=tps(row.tokens_per_s_range[0]), high=tps(row.tokens_per_s_range[1]),
                             times=f"{row.slowdown:.1f}"))
    lines.append(ctx.say("fup.offload.advice"))
    return "\n".join(lines)


# ---------------------------------------------------------------- KV cache


def kv_cache(ctx: Any) -> str:
    """'qwen3 8b开32k上下文 kv cache大概占多少': the KV cache of one conversation at that context and of all the
    users at once, from inference_memory (the plan's KV format when the model is the plan's)."""
    from gpu_advisor.assistant import kv_halve
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.inference import InferenceMemoryInput, inference_memory

    ask = ctx.turn.ask
    rec = ctx.rec
    plan = rec.workload if rec else None
    model = ask.get("model") or (plan.model if plan else None) or ctx.profile.get("model")
    if not model:  # "KV cache 到底占多少显存？": the formula, worked on a well-known model, and an offer to do theirs
        return _kv_example(ctx)
    same = plan is not None and plan.model == model
    context = int(ask.get("context") or (plan.context if same and plan else 0) or ctx.profile.get("context")
                  or use_context(ctx.profile) or SLOTS["context"].default)  # the use said, else the table default
    users = int(ask.get("users") or (plan.users if same and plan else 0) or ctx.profile.get("users") or 1)
    best = rec.best if rec and same else None
    precision = ask.get("precision") or (best.precision if best and best.precision else None) or "bf16"
    kv = {8: "fp8", 4: "int4"}.get(int(ask.get("kv_bits") or 0)) or (best.kv_precision if best else None) \
        or (ask["precision"] if ask.get("precision") in SIXTEEN_BIT else None)  # 'how much kv cache … in fp16'
    kv, halve = kv_halve.baseline(ask, kv)  # 'does fp8 kv halve it?': the 16-bit default first, FP8 beside it
    try:
        one = _call(ctx, "inference_memory", inference_memory,
                    InferenceMemoryInput(model=model, precision=precision, kv_precision=kv, context=context, batch=1))
    except (ToolError, LookupError, ValueError):
        ctx.data["kv_cache"] = None
        return ctx.say("fup.kv.no_model")
    per_user = one.kv_cache_bytes
    kv_name = (kv or "bf16").upper()
    ctx.data["kv_cache"] = {"model": model, "context": context, "kv_precision": kv_name.lower(),
                            "per_user_bytes": per_user, "users": users, "total_bytes": per_user * users}
    explain = bool(ask.get("explain"))
    lines = [ctx.say("fup.kv.one", model=one.model, context=f"{context:,}", kv=kv_name, gb=gb(per_user))]
    if kv_name.lower() in SIXTEEN_BIT:  # the figure per KV format: an 8-bit cache beside the 16-bit one
        eight = _call(ctx, "inference_memory", inference_memory,
                      InferenceMemoryInput(model=model, precision=precision, kv_precision="fp8", context=context,
                                           batch=1))
        ctx.data["kv_cache"]["fp8_per_user_bytes"] = eight.kv_cache_bytes
        lines.append(kv_halve.line(ctx, per_user, eight.kv_cache_bytes, users, one.weights_bytes) if halve
                     else ctx.say("fup.kv.eight", gb=gb(eight.kv_cache_bytes)))
    term = next((t for t in one.terms if t.key == "kv_cache_bytes"), None)
    if term is not None and {"layers", "kv_heads", "head_dim", "kv_bits"} <= set(term.inputs):
        i = term.inputs  # the tool's own formula and inputs: 2 (K and V) x layers x KV heads x head size x bytes
        lines.append(ctx.say("fup.kv.formula", layers=f"{i['layers']:g}", heads=f"{i['kv_heads']:g}",
                             dim=f"{i['head_dim']:g}", bytes=f"{i['kv_bits'] / 8:g}",
                             per_token=f"{one.kv_bytes_per_token / 1024:,.0f}", context=f"{context:,}"))
    gqa = _gqa_line(ctx, model, per_user)
    if gqa:
        lines.append(gqa)
    if users > 1:
        lines.append(ctx.say("fup.kv.all", users=f"{users:,}", gb=gb(per_user * users)))
    # the weights beside it: what a card must hold for this context (one user's, or all of them)
    lines.append(ctx.say("fup.kv.with_weights", weights=gb(one.weights_bytes), precision=one.precision,
                         total=gb(one.weights_bytes + per_user * users)))
    lines.append(ctx.say("fup.kv.grows"))
    from gpu_advisor.assistant.kv_hold import hold_on

    held = hold_on(ctx, _call, model, context, users)  # 'and would 2x h100 hold it all': yes or no, next
    if explain:  # the figure asked first, then what the cache is ('explain kv cache, and then: how much …')
        return "\n\n".join(x for x in [_sep(ctx).join(lines[:2]), held, ctx.say("fup.kv.what"),
                                         _sep(ctx).join(lines[2:]), ctx.say("fup.kv.why_blows")] if x)
    return "\n\n".join(x for x in [_sep(ctx).join(lines[:2]), held, _sep(ctx).join(lines[2:])] if x) if held \
        else _sep(ctx).join(lines)


def _gqa_line(ctx: Any, model: str, per_user: int) -> str:
    """What grouped-query attention saves on this model: query heads over KV heads (the catalog's architecture),
    and the cache per user that full multi-head attention would keep at the same context; '' for MLA and the
    other layouts, whose cache the formula above already sizes."""
    from gpu_advisor.knowledge import find_model

    try:
        arch = find_model(model)
    except LookupError:
        return ""
    heads, kv_heads = arch.num_attention_heads, arch.num_kv_heads
    if arch.attention not in ("gqa", "mha"):
        return ""
    factor = heads // kv_heads
    ctx.data["kv_cache"].update({"attention": arch.attention, "query_heads": heads, "kv_heads": kv_heads,
                                 "gqa_factor": factor, "mha_per_user_bytes": per_user * factor})
    if factor <= 1:
        return ctx.say("fup.kv.mha", heads=heads)
    return ctx.say("fup.kv.gqa", heads=heads, kv_heads=kv_heads, factor=factor, mha_gb=gb(per_user * factor))


# The model a KV-cache question that names none is worked on, at a short and a long context.
KV_EXAMPLE_MODEL = "llama-3.1-8b"
KV_EXAMPLE_CONTEXTS = (8192, 131072)


def _kv_example(ctx: Any) -> str:
    """The KV cache explained with no model named: the formula, then KV_EXAMPLE_MODEL's figures per token and
    at KV_EXAMPLE_CONTEXTS against its weights (inference_memory), why a long context runs out of memory, and
    an offer to work out the user's own model."""
    from gpu_advisor.tools.inference import InferenceMemoryInput, inference_memory

    sized = [_call(ctx, "inference_memory", inference_memory,
                   InferenceMemoryInput(model=KV_EXAMPLE_MODEL, precision="bf16", context=n, batch=1))
             for n in KV_EXAMPLE_CONTEXTS]
    short, long = sized[0], sized[-1]
    term = next(t for t in long.terms if t.key == "kv_cache_bytes")
    i = term.inputs
    ctx.data["kv_cache"] = {"example": True, "model": KV_EXAMPLE_MODEL, "per_token_bytes": long.kv_bytes_per_token,
                            "contexts": {str(n): r.kv_cache_bytes for n, r in zip(KV_EXAMPLE_CONTEXTS, sized, strict=True)},
                            "weights_bytes": long.weights_bytes}
    lines = [ctx.say("fup.kv.what"),
             ctx.say("fup.kv.example_formula", model=long.model, layers=f"{i['layers']:g}", heads=f"{i['kv_heads']:g}",
                     dim=f"{i['head_dim']:g}", bytes=f"{i['kv_bits'] / 8:g}",
                     per_token=f"{long.kv_bytes_per_token / 1024:,.0f}"),
             ctx.say("fup.kv.example_at", short=f"{KV_EXAMPLE_CONTEXTS[0]:,}", short_gb=gb(short.kv_cache_bytes),
                     long=f"{KV_EXAMPLE_CONTEXTS[-1]:,}", long_gb=gb(long.kv_cache_bytes),
                     weights=gb(long.weights_bytes), precision=long.precision),
             *[x for x in [_gqa_line(ctx, KV_EXAMPLE_MODEL, long.kv_cache_bytes)] if x],
             ctx.say("fup.kv.why_blows"),
             ctx.say("fup.kv.offer")]
    return "\n\n".join(lines)


# ---------------------------------------------------------------- is that much data enough


def data_enough(ctx: Any) -> str:
    """'数据只有五百条 够吗': enough is a question of quality, which the tools do not measure; what they do say is
    the size of the job, which that many examples keep small (training_time on the plan's card when there is one)."""
    from gpu_advisor.assistant.reading import EXAMPLE_TOKENS
    from gpu_advisor.tools.recommend import training_time_setup

    items = int(ctx.turn.ask.get("items") or 0)
    lines = [ctx.say("fup.data.quality", items=f"{items:,}" if items else ctx.say("fup.data.that_many"))]
    tokens = items * EXAMPLE_TOKENS
    data: dict[str, Any] = {"items": items, "tokens_per_item": EXAMPLE_TOKENS, "tokens": tokens}
    rec = ctx.rec
    run = rec.trains_on if rec else None
    if items and rec is not None and run is not None and rec.workload.spec.trains:
        from gpu_advisor.tools.training_time import training_time

        w = rec.workload.model_copy(update={"train_tokens": float(tokens)})
        t = _call(ctx, "training_time", training_time, training_time_setup(w, run.gpu, run.gpus, run.owned))
        data["hours"] = t.hours
        lines.append(ctx.say("fup.data.sized", tokens=f"{tokens / 1e6:,.1f}", each=f"{EXAMPLE_TOKENS:,}",
                             option=f"{run.gpus} × {run.gpu_name}", hours=hours(t.hours)))
    elif items:
        lines.append(ctx.say("fup.data.tokens", tokens=f"{tokens / 1e6:,.1f}", each=f"{EXAMPLE_TOKENS:,}"))
    ctx.data["data_enough"] = data
    return _sep(ctx).join(lines)


# ---------------------------------------------------------------- does a card compute in a format

from gpu_advisor.assistant.support import card_support  # noqa: E402  (its reply lives in assistant/support.py)

__all__ = ["card_support"]
