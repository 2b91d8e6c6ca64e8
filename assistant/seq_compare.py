"""The reply to two training sequence lengths weighed on memory ('does context length matter much for finetuning
memory? going from 4k to 32k for llama 3.1 8b lora, on a single a100 80gb'; reading/seq_compare.py): the training
memory tool at each length for the same model and method (one GPU, or the cards said), what grows (the activations,
the logits within them) and what does not (weights, gradients, optimizer states), whether each length fits the card
said, and a verdict as a code (ctx.data["seq_compare"]["code"]):

- grows_fits: both lengths fit the card said; how much more the longer takes.
- grows_not_fits: the longer one does not fit; what the fused loss (logits never held whole) or QLoRA needs there.
- grows: no card said; the card memory each length fits.
- barely: the longer length adds little (under SMALL times the memory)."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.method_compare import COMMON_CARDS_GB, EXAMPLE_MODEL, _name
from gpu_advisor.assistant.writers import gb

# Below this ratio of the two totals the length "barely" matters.
SMALL = 1.15


def _size(ctx: Any, model: str, method: str, seq: int, n: int = 1, **extra: Any) -> Any:
    from gpu_advisor.assistant.followups import _call
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.training import TrainingMemoryInput, training_memory

    try:
        return _call(ctx, "training_memory", training_memory,
                     TrainingMemoryInput(model=model, method=method, seq_len=seq, gpus=n, zero=3 if n > 1 else None,
                                         **extra))
    except (ToolError, LookupError, ValueError):
        return None


def _card(ctx: Any) -> tuple[int, Any] | None:
    """The cards said (one kind, 'N x card'), as (count, card)."""
    from gpu_advisor.knowledge import find_gpu

    said = ctx.profile.get("owned") or ctx.profile.get("only") or []
    kinds = {c.partition("x ")[2].strip() if "x " in c else c for c in said}
    if len(kinds) != 1:
        return None
    head = said[0].partition("x ")[0]
    try:
        return (int(head) if "x " in said[0] and head.isdigit() else 1), find_gpu(kinds.pop())
    except (LookupError, ValueError):
        return None


def seq_compare(ctx: Any) -> str:
    from gpu_advisor.tools.inference import usable_bytes

    lengths = [int(x) for x in ctx.turn.ask["seq_lens"]][:2]
    short, long_ = sorted(lengths)
    method = ctx.turn.ask.get("seq_method") or "lora"
    rec = ctx.rec
    model = ctx.profile.get("model") or (rec.workload.model if rec else None)
    example = not model
    model = model or EXAMPLE_MODEL
    card = _card(ctx)
    n = card[0] if card else 1
    a, b = _size(ctx, model, method, short, n), _size(ctx, model, method, long_, n)
    if a is None or b is None:
        return ctx.say("mcmp.no_model")
    lines = [ctx.say("seqc.head", model=a.model, method=_name(ctx, method))]
    if example:
        lines.append(ctx.say("mcmp.example", model=a.model))
    if n > 1:
        lines.append(ctx.say("seqc.sharded", n=n))
    rows = []
    for seq, r in ((short, a), (long_, b)):
        rest = r.per_gpu_total_bytes - r.weights_bytes - r.activation_bytes
        rows.append({"seq_len": seq, "per_gpu_bytes": r.per_gpu_total_bytes, "weights_bytes": r.weights_bytes,
                     "activation_bytes": r.activation_bytes, "logit_bytes": r.logit_bytes, "rest_bytes": rest})
        lines.append("- " + ctx.say("seqc.row", seq=f"{seq:,}", total=gb(r.per_gpu_total_bytes), weights=gb(r.weights_bytes),
                                    act=gb(r.activation_bytes), logits=gb(r.logit_bytes), rest=gb(rest)))
    x = b.per_gpu_total_bytes / a.per_gpu_total_bytes
    lines.append(ctx.say("seqc.grows", a=f"{short:,}", b=f"{long_:,}", len_x=f"{long_ / short:g}",
                         diff=gb(b.per_gpu_total_bytes - a.per_gpu_total_bytes), act_a=gb(a.activation_bytes),
                         act_b=gb(b.activation_bytes), log_a=gb(a.logit_bytes), log_b=gb(b.logit_bytes),
                         weights=gb(b.weights_bytes)))
    data: dict[str, Any] = {"model": a.model, "method": method, "gpus": n, "rows": rows, "times": round(x, 2),
                            "card": None}
    values = {"a": f"{short:,}", "b": f"{long_:,}", "a_gb": gb(a.per_gpu_total_bytes), "b_gb": gb(b.per_gpu_total_bytes),
              "x": f"{x:.1f}"}
    if card:
        gpu = card[1]
        room = usable_bytes(gpu)
        option = f"{n} × {gpu.name}"
        fits = {seq: r.per_gpu_total_bytes <= room for seq, r in ((short, a), (long_, b))}
        data["card"] = {"gpu": gpu.id, "gpus": n, "capacity_bytes": room, "fits": {str(k): v for k, v in fits.items()}}
        lines.append(ctx.say("seqc.card.head", option=option, cap=gb(room)))
        for seq, r in ((short, a), (long_, b)):
            lines.append("- " + ctx.say("seqc.card.fits" if fits[seq] else "seqc.card.no", seq=f"{seq:,}",
                                        gb=gb(r.per_gpu_total_bytes)))
        values["option"] = option
        code = "grows_fits" if all(fits.values()) else "grows_not_fits" if fits[short] else "neither_fits"
    else:
        code = "grows"
        fit_b = next((c for c in COMMON_CARDS_GB if c * 1e9 * 0.95 >= b.per_gpu_total_bytes), None)
        values["card_gb"] = str(fit_b) if fit_b else ""
        code += "" if fit_b else "_big"
    if x < SMALL:
        code = "barely"
    data["code"] = code
    lines.append(ctx.say(f"seqc.verdict.{code}", **values))
    if code in ("grows_not_fits", "neither_fits"):
        lines += _ways(ctx, model, method, long_, n, card[1] if card else None, data)
    ctx.data["seq_compare"] = data
    ctx.data["method_compare"] = {"example": True, "seq_compare": True}  # its own offer below, not the methods'
    lines.append(ctx.say("seqc.offer"))
    return "\n".join(lines)


def _ways(ctx: Any, model: str, method: str, seq: int, n: int, gpu: Any, data: dict[str, Any]) -> list[str]:
    """What the longer length needs with a fused loss (the logits never held whole) and, for LoRA, with QLoRA."""
    from gpu_advisor.tools.inference import usable_bytes

    room = usable_bytes(gpu) if gpu is not None else 0.0
    ways = []
    fused = _size(ctx, model, method, seq, n, loss="fused")
    if fused is not None:
        ways.append(("fused", fused.per_gpu_total_bytes))
    if method == "lora":
        q = _size(ctx, model, "qlora", seq, n, loss="fused")
        if q is not None:
            ways.append(("qlora_fused", q.per_gpu_total_bytes))
    data["ways"] = [{"way": w, "per_gpu_bytes": v, "fits": v <= room} for w, v in ways]
    said = [ctx.say(f"seqc.way.{w}", gb=gb(v)) + (ctx.say("seqc.way.fits") if v <= room else "") for w, v in ways]
    return [ctx.say("seqc.ways", seq=f"{seq:,}", ways=ctx.say("verdict.sep").join(said))] if said else []
