"""The reply to two fine-tuning options, each a method on its own model ('LoRA on Gemma 3 27B or a full fine-tune of
Gemma 2 9B?', u.ask["options"]): each option's training memory on one GPU (tools.training.training_memory), then on
the cards said (sharded with ZeRO-3 over several) with its time for the same data (tools.training_time, which slows
a full fine-tune's gradient exchange over PCIe), and a verdict on codes: which fits, which is faster, which needs
less memory per GPU."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.writers import gb, hours

# The data both options are timed on, and the card they are timed on when none was said.
TOKENS, ONE_CARD = 10e6, "a100-80gb-sxm"


def _label(ctx: Any, method: str, model: str) -> str:
    from gpu_advisor.assistant.method_compare import _name

    return ctx.say("mopt.label", method=_name(ctx, method), model=model)


def _cards(ctx: Any) -> tuple[str, int]:
    """The one kind of card said (owned, or the only ones to use) and how many; the default card, one, otherwise."""
    said = ctx.profile.get("owned") or ctx.profile.get("only") or []
    kinds = {c.partition("x ")[2].strip() if "x " in c else c for c in said}
    if len(kinds) != 1:
        return ONE_CARD, 1
    head = said[0].partition("x ")[0]
    return kinds.pop(), int(head) if "x " in said[0] and head.isdigit() else 1


def options_reply(ctx: Any, options: list[list[str]]) -> str:
    from gpu_advisor.assistant.catalog import localise
    from gpu_advisor.assistant.followups import _call
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.inference import usable_bytes
    from gpu_advisor.tools.training import TrainingMemoryInput, training_memory
    from gpu_advisor.tools.training_time import TrainingTimeInput, training_time

    card, n = _cards(ctx)
    gpu = find_gpu(card)
    room = usable_bytes(gpu)
    option = f"{n} × {gpu.name}"
    precision = "bf16" if gpu.native_bf16 else "fp16"
    rows: list[dict[str, Any]] = []
    warnings: list[str] = []
    for method, model in options:
        try:
            one = _call(ctx, "training_memory", training_memory, TrainingMemoryInput(model=model, method=method))
            on = _call(ctx, "training_memory", training_memory,
                       TrainingMemoryInput(model=model, method=method, gpus=n, zero=3 if n > 1 else None))
            t = _call(ctx, "training_time", training_time,
                      TrainingTimeInput(model=model, gpu=gpu.id, gpus=n, method=method, tokens=TOKENS, precision=precision))
        except (ToolError, LookupError, ValueError):
            continue
        rows.append({"method": method, "model": model, "name": _label(ctx, method, one.model),
                     "one_gpu_bytes": one.per_gpu_total_bytes, "per_gpu_bytes": on.per_gpu_total_bytes,
                     "fits": on.per_gpu_total_bytes <= room, "hours": t.hours})
        warnings += [w for w in t.warnings if w not in warnings]
    ctx.data["method_options"] = {"gpu": gpu.id, "gpus": n, "tokens": TOKENS, "capacity_bytes": room,
                                  "options": rows, "verdict": None}
    if len(rows) < 2:
        return ctx.say("mcmp.no_model")
    lines = [ctx.say("mopt.head")]
    for r in rows:
        lines.append(ctx.say("mopt.one", name=r["name"], gb=gb(r["one_gpu_bytes"])))
    how = ctx.say("mcmp.cards.sharded", n=n) if n > 1 else ""
    said = bool(ctx.profile.get("owned") or ctx.profile.get("only"))
    lines.append(ctx.say("mopt.cards_head" if said else "mopt.cards_example", option=option, tokens=f"{TOKENS / 1e6:g}M"))
    for r in rows:
        key = "mopt.fits" if r["fits"] else "mopt.no"
        lines.append(ctx.say(key, name=r["name"], gb=gb(r["per_gpu_bytes"]), capacity=gb(room), how=how,
                             hours=hours(r["hours"])))
    lines += [f"⚠ {localise(ctx.lang, w)}" for w in warnings]
    lines.append(_verdict(ctx, rows, option))
    lines.append(ctx.say("mcmp.quality"))
    return "\n".join(lines)


def _verdict(ctx: Any, rows: list[dict[str, Any]], option: str) -> str:
    """Which option, as a code: the one that fits when only one does; the faster when both do (its memory per GPU
    beside it); none when neither fits."""
    fitting = [r for r in rows if r["fits"]]
    if len(fitting) == 1:
        code, values = "one_fits", {"name": fitting[0]["name"], "option": option,
                                    "other": next(r["name"] for r in rows if not r["fits"])}
    elif not fitting:
        code, values = "none", {"option": option}
    else:
        fast, slow = sorted(fitting[:2], key=lambda r: r["hours"])
        light = min(fitting[:2], key=lambda r: r["per_gpu_bytes"])
        same = slow["hours"] < 1.1 * fast["hours"]
        code = "both_same" if same else "both"
        values = {"fast": fast["name"], "slow": slow["name"], "a": hours(fast["hours"]), "b": hours(slow["hours"]),
                  "x": f"{slow['hours'] / fast['hours']:.1f}", "light": light["name"], "gb": gb(light["per_gpu_bytes"]),
                  "option": option}
    ctx.data["method_options"]["verdict"] = code
    return ctx.say(f"mopt.verdict.{code}", **values)
