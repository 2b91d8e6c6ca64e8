"""Why one user's generation is slow on the user's own card ("why does my H100 generate tokens slower than expected when
batch size is 1? its like 40 tok/s on a 8b model in fp16", "为什么我的4090跑得慢，只有20 token/s";
reading/slow_decode.py): the card's decode ceiling for that model and format (tools.decode_ceiling: bandwidth / bytes
read per token, with its formula), what a tuned serving engine gets there (tools.throughput.speed), the speed the user
measured as a share of both, then the likely causes in order when it is below what the card does, or the levers
when it is what the card does. Every sentence is a catalog key (slowdec.*), in the user's language."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.writers import tps

# The model and format the ceiling is shown for when the user named none (said as an example).
EXAMPLE_MODEL, EXAMPLE_FORMAT = "llama-3.1-8b", "bf16"
# The causes of a batch-1 decode far below the card's, most likely first: the serving software (eager, un-graphed
# Python loops), the host CPU launching kernels, weights left in CPU memory, the card's own clocks or variant, and
# another job on the card.
CAUSES = ("framework", "host", "offload", "card", "shared")
# Where the measured speed is what the card does: fewer bytes per token, or tokens guessed ahead.
LEVERS = ("format", "speculative", "batch")


def _pct(x: float) -> str:
    return f"{x * 100:.0f}%"


def slow_decode(ctx: Any) -> str:
    from gpu_advisor.knowledge import engines, find_gpu, find_precision
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.decode_ceiling import CONTEXT, CeilingInput, decode_ceiling

    asked = dict((getattr(ctx.turn, "ask", None) or {}).get("slow_decode") or {})
    gpu = find_gpu(str(asked["gpu"]))
    example = not asked.get("model")
    model = str(asked.get("model") or EXAMPLE_MODEL)
    fmt = str(asked.get("precision") or EXAMPLE_FORMAT)
    measured = asked.get("measured")
    inp = CeilingInput(model=model, precision=fmt, gpu=gpu.id, measured_tokens_per_s=measured)
    try:
        r = decode_ceiling(inp)
    except (ToolError, LookupError, ValueError):
        return str(ctx.say("slowdec.unsized", gpu=gpu.name)) + "\n\n" + _causes(ctx, gpu.name, None)
    if ctx.recorder is not None:
        ctx.recorder("decode_ceiling", inp.model_dump(mode="json"), r.model_dump(mode="json"), 0.0)
    ctx.data["slow_decode"] = {"gpu": gpu.id, "model": r.model, "precision": r.precision,
                               "ceiling_tokens_per_s": round(r.ceiling_tokens_per_s, 1),
                               "engine": r.engine, "engine_tokens_per_s": round(r.engine_tokens_per_s, 1),
                               "measured_tokens_per_s": measured, "verdict": r.verdict, "example": example}
    read = r.weight_gb + r.kv_gb
    values = {"gpu": gpu.name, "model": r.model, "fmt": find_precision(r.precision).name, "weights": f"{r.weight_gb:.1f}",
              "kv": f"{r.kv_gb:.2f}", "read": f"{read:.1f}", "bw": f"{r.bandwidth_gbps:,.0f}",
              "ceiling": tps(r.ceiling_tokens_per_s), "est": tps(r.engine_tokens_per_s), "context": f"{CONTEXT:,}",
              "engine": next((e.name for e in engines() if e.id == r.engine), r.engine),
              "lo": tps(r.engine_tokens_per_s_range[0]), "hi": tps(r.engine_tokens_per_s_range[1])}
    parts = [ctx.say("slowdec.lead_example" if example else "slowdec.lead", **values),
             ctx.say("slowdec.formula", **values)]
    if read > gpu.memory_gb:  # the model does not fit the card: that is the answer, whatever was measured
        ctx.data["slow_decode"]["verdict"] = "not_fit"
        parts.append(ctx.say("slowdec.not_fit", **values, memory=f"{gpu.memory_gb:g}"))
        return "\n\n".join(parts)
    if measured is None:
        parts.append(ctx.say("slowdec.unmeasured", **values))
        return "\n\n".join(parts) + "\n\n" + _causes(ctx, gpu.name, r)
    values |= {"measured": tps(float(measured)), "of_ceiling": _pct(r.share_of_ceiling or 0),
               "of_engine": _pct(r.share_of_engine or 0)}
    parts.append(ctx.say(f"slowdec.verdict.{r.verdict}", **values))
    if r.verdict == "expected":
        parts.append("\n".join(ctx.say(f"slowdec.lever.{code}", n=i) for i, code in enumerate(LEVERS, 1)))
    if r.verdict != "slow":  # what the card does, or more than it can: no cause to look for
        return "\n\n".join(parts)
    return "\n\n".join(parts) + "\n\n" + _causes(ctx, gpu.name, r)


def _causes(ctx: Any, gpu: str, r: Any) -> str:
    """The likely causes, most likely first, each with what to check or try."""
    weights = f"{r.weight_gb:.1f}" if r is not None else "?"
    lines = [ctx.say("slowdec.causes_head")]
    lines += [ctx.say(f"slowdec.cause.{code}", n=i, gpu=gpu, weights=weights) for i, code in enumerate(CAUSES, 1)]
    return "\n".join(lines)
