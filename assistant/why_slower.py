"""Why one card is slower than another, asked out of curiosity ('why is the l40s so much slower than an h100 at
serving a 70b model … just curious', '为什么L40S跑70B推理比H100慢那么多，不买卡，就是好奇'; reading/compare_job.py
curious_why sets ask["why"]): the reply's first line is the answer, the figure the job turns on (writing tokens,
decode: memory bandwidth; reading a prompt, prefill, and training: compute), with both cards' figures from the
catalog; and, when a model is said, what it takes on each card (the fit tool's smallest count, the speed tool's tokens
per second for one user, the all-reduces a split over PCIe sends), never a plan, a rental or a purchase."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.verdict import FIT_CONTEXT, SAME

# The figure a job's speed turns on (the first of verdict.JOB_ORDER that is a speed): writing tokens reads the
# weights (bandwidth), reading a prompt and training multiply them (compute).
WHY_FIGURE = {"decode": "bandwidth", "serve": "bandwidth", "local": "bandwidth", "usual": "bandwidth",
              "prefill": "compute", "train": "compute"}
FIGURE_KEY = {"bandwidth": "memory_bandwidth_gbps", "compute": "bf16_tflops"}
# The counts the fit tool tries for a model said (one server of each card at most).
COUNTS = [1, 2, 4, 8]


def _job(ctx: Any) -> str:
    return str((getattr(ctx.turn, "ask", None) or {}).get("job") or "decode")


def lead(ctx: Any, facts: list[dict[str, Any]]) -> str | None:
    """The answer in one line: the slower card, the figure that makes it so, both figures and the ratio; None when
    the two cards are about even on that figure (the comparison below says so)."""
    job = _job(ctx)
    figure = WHY_FIGURE.get(job, "bandwidth")
    key = FIGURE_KEY[figure]
    a, b = facts[0], facts[1]
    if not a[key] or not b[key]:
        return None
    fast, slow = (a, b) if a[key] >= b[key] else (b, a)
    x = fast[key] / slow[key]
    if x < SAME:
        return None
    ctx.data["why"] = {"job": job, "figure": figure, "fast": fast["id"], "slow": slow["id"], "ratio": round(x, 1)}
    return str(ctx.say(f"why.lead.{figure}", slow=slow["name"], fast=fast["name"], job=ctx.say(f"why.job.{job}"),
                       a=f"{fast[key]:,.0f}", b=f"{slow[key]:,.0f}", x=f"{round(x, 1):g}"))


def _precision(ctx: Any, facts: list[dict[str, Any]]) -> tuple[str, bool]:
    """The weights' format: the one said, else FP8 where both cards have FP8 units, else 8-bit integer (assumed)."""
    said = ctx.profile.get("precision")
    if said:
        return str(said), True
    return ("fp8" if all(f["fp8_tflops"] for f in facts) else "int8"), False


def _on_card(model: str, precision: str, gpu_id: str, recorder: Any) -> dict[str, Any] | None:
    """The fit tool's smallest count of this card for the model (one user, FIT_CONTEXT), and the speed tool's
    figures there; None when the tools cannot size it or no count up to 8 holds it."""
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.fit import FitInput, fit
    from gpu_advisor.tools.models import resolve_model
    from gpu_advisor.tools.throughput import SpeedInput, link, speed

    def recorded(name: str, tool: Any, inp: Any) -> Any:
        """The tool's result for `inp`, recorded; None when it cannot size it."""
        try:
            out = tool(inp)
        except (ToolError, LookupError, ValueError):
            return None
        if recorder is not None:
            recorder(name, inp.model_dump(mode="json"), out.model_dump(mode="json"), 0.0)
        return out

    r = recorded("fit", fit, FitInput(model=model, gpu=gpu_id, phase="serve", counts=COUNTS, precision=precision,
                                      context=FIT_CONTEXT))
    if r is None:
        return None
    if r.smallest_fit is None:
        return {"model": r.model, "gpus": None}
    o = next(o for o in r.options if o.gpus == r.smallest_fit)
    s = recorded("speed", speed, SpeedInput(model=model, precision=precision, gpu=gpu_id, gpus=r.smallest_fit,
                                            context=FIT_CONTEXT))
    if s is None:
        return None
    decode = next(t for t in s.terms if t.key == "decode_tokens_per_s")
    comm = float(decode.inputs.get("communication_s") or 0.0)
    gpu = find_gpu(gpu_id)
    split_pcie = r.smallest_fit > 1 and link(gpu)[0] == "pcie" and not gpu.has_nvlink  # as the speed tool warns
    return {"model": r.model, "gpus": r.smallest_fit, "per_gpu_gb": round(o.per_gpu_bytes / 1e9, 1),
            "capacity_gb": round(o.capacity_bytes / 1e9, 1), "tokens_per_s": round(s.decode_tokens_per_s),
            "ms_per_token": round(s.time_per_output_token_s * 1e3 or 1e3 / s.decode_tokens_per_s, 1),
            "comm_ms": round(comm * 1e3, 1), "split_pcie": split_pcie,
            "all_reduces": 2 * resolve_model(model).num_layers if split_pcie else 0}


def model_lines(ctx: Any, facts: list[dict[str, Any]]) -> list[str]:
    """The model said on each card: how many it takes, split how, and one user's tokens per second."""
    model = ctx.profile.get("model")
    if not model:
        return []
    precision, said = _precision(ctx, facts)
    rows = {f["id"]: _on_card(str(model), precision, f["id"], ctx.recorder) for f in facts}
    if not all(rows.values()):
        return []
    name = next(iter(rows.values()))["model"]  # type: ignore[index]
    ctx.data["why_model"] = {"model": name, "precision": precision, "context": FIT_CONTEXT, "cards": rows}
    fmt = precision.upper()
    lines = [ctx.say("why.model_head", model=name, fmt=fmt if said else ctx.say("why.assumed", fmt=fmt))]
    for f in facts:
        r = rows[f["id"]] or {}
        if r.get("gpus") is None:
            lines.append("- " + ctx.say("why.model_none", card=f["name"]))
            continue
        key = "why.model_split_pcie" if r["split_pcie"] else "why.model_split" if r["gpus"] > 1 else "why.model_one"
        lines.append("- " + ctx.say(key, card=f["name"], n=r["gpus"], gb=f"{r['per_gpu_gb']:.1f}",
                                    cap=f"{r['capacity_gb']:.1f}", tps=f"{r['tokens_per_s']:,}",
                                    reduces=r["all_reduces"], comm=f"{r['comm_ms']:g}", ms=f"{r['ms_per_token']:g}"))
    if _job(ctx) in ("decode", "serve"):
        lines.append(ctx.say("why.model_decode", model=name))
    return lines
