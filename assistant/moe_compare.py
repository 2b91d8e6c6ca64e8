"""Two models weighed and the MoE concept asked in one message ('GLM-4.5-Air跟Qwen3-30B-A3B用vllm部署哪个更省显存？
还有为啥moe激活参数那么少，显存还是要那么多'): the comparison first, as it is the question asked, with both models
sized the same way on the region's reference card (assistant/moe.py REFERENCE) in FP8 for one user by the tools
(tools.recommend.evaluate): each one's parameters, memory and speed, then the verdict on each dimension asked
(assistant/choice_dims.py). The concept follows it (assistant/moe.py)."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant import choice_dims
from gpu_advisor.assistant.moe import FORMAT, fewest_that_hold
from gpu_advisor.assistant.writers import gb, tps
from gpu_advisor.knowledge import find_gpu, find_model


def compared_models(ask: dict[str, Any]) -> list[str]:
    """The two models a message weighs beside the concept, in the order said; [] when it weighs none."""
    models = list(dict.fromkeys(str(x) for x in ask.get("models") or []))
    return models[:2] if len(models) >= 2 and set(ask.get("dims") or []) & set(choice_dims.ON_CARD) else []


def compare_lines(ctx: Any, reference: str) -> list[str]:
    """Each model's figures on the reference card and the verdict on each dimension asked; [] when none is sized."""
    from gpu_advisor.assistant.engine import describe

    models = compared_models(ctx.turn.ask)
    if not models:
        return []
    gpu = find_gpu(reference)
    rows: list[dict[str, Any]] = []
    out: list[str] = []
    for model_id in models:
        o = fewest_that_hold(ctx, model_id, gpu)
        if o is None or not o.decode_tokens_per_s:
            return []
        m = find_model(model_id)
        name = describe("model", model_id, ctx.lang)
        mem = (o.serve_per_gpu_bytes or 0) * o.gpus
        rows.append({"model": model_id, "name": name, "gpus": o.gpus, "gpu_name": gpu.name,
                     "tps": o.decode_tokens_per_s, "mem_bytes": mem})
        option = f"{o.gpus} × {gpu.name}"
        out.append("- " + ctx.say("moe_compare.row", model=name, total=f"{m.total_params_b:g}",
                                  active=f"{(m.active_params_b or m.total_params_b):g}", option=option,
                                  mem=gb(mem), tps=tps(o.decode_tokens_per_s)))
    verdicts = choice_dims.codes(rows, list(ctx.turn.ask.get("dims") or []))
    ctx.data["moe_compare"] = {"card": gpu.id, "precision": FORMAT, "rows": rows, "verdicts": verdicts}
    head = ctx.say("moe_compare.head", a=rows[0]["name"], b=rows[1]["name"])
    return [head, "", *out, "", *choice_dims.lines(ctx.lang, rows, verdicts, gpu.name)]
