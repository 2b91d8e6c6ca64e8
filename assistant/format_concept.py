"""Weight formats weighed on a card with no model named ("explain fp8 vs int4 (awq/gptq) for serving, quality and
speed, and does my A100 even support fp8", "fp8和int4量化有啥区别，我的A100支持fp8吗"): a concept question, answered from
the knowledge data on what was named. No model is sized and none is picked (the user named none): each format's
published accuracy gap and weights per billion parameters, the speed note (assistant/precision_verdict.py's block),
then what the card itself computes: FP8 and INT8 tensor cores from the card record's figures (fp8_tflops, int8_tops),
the weight-only paths from knowledge/data/format_support.yaml, and which architectures in the card catalog have FP8
tensor cores. ctx.data["format_concept"] holds the codes.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any


def wanted(ctx: Any, spec: dict[str, Any]) -> bool:
    """Formats weighed with no model named in the message or on record, and no model asked for."""
    formats = len(spec.get("precisions") or []) > 1
    return formats and not spec.get("models") and not spec.get("which_model") and not ctx.profile.get("model")


def arch_name(arch: str) -> str:
    return arch.upper() if arch.startswith(("cdna", "rdna")) else arch.capitalize()


def fp8_archs(ctx: Any) -> str:
    """Which architectures of the card catalog have FP8 tensor cores (the cards' fp8_tflops) and which do not, each
    with its largest card as the example; NVIDIA's oldest first, then the others."""
    from gpu_advisor.knowledge import gpus
    from gpu_advisor.knowledge.schema import NVIDIA_ARCHS

    native: dict[str, bool] = {}
    largest: dict[str, Any] = {}
    for g in gpus():
        if g.arch:
            arch = str(g.arch)
            native[arch] = native.get(arch, False) or bool(g.fp8_tflops)
            if arch not in largest or g.memory_gb > largest[arch].memory_gb:
                largest[arch] = g
    order = sorted(native, key=lambda a: (NVIDIA_ARCHS.index(a) if a in NVIDIA_ARCHS else len(NVIDIA_ARCHS), a))

    def said(yes: bool) -> str:
        return ctx.say("list_sep").join(ctx.say("concept.fmt.arch", arch=arch_name(a), cards=largest[a].name)
                                        for a in order if native[a] == yes)
    return ctx.say("concept.fmt.fp8_archs", yes=said(True), no=said(False))


def _card_lines(ctx: Any, gpu: Any, support_said: bool) -> tuple[list[str], dict[str, Any]]:
    """What the card computes natively and its fast paths, from its record and format_support.yaml."""
    from gpu_advisor.knowledge import format_support

    paths = {f.id: f.path(gpu.arch) for f in format_support() if f.id in ("fp8", "int4")}
    fp8, four_path, int8_tops = paths.get("fp8"), paths.get("int4"), gpu.int8_tops
    data = {"gpu": gpu.id, "fp8_native": bool(gpu.fp8_tflops), "int8_native": bool(int8_tops),
            "fp8_path": fp8.code if fp8 else None, "int4_path": four_path.code if four_path else None}
    lines: list[str] = []
    if gpu.fp8_tflops:
        lines.append(ctx.say("concept.fmt.fp8_yes", gpu=gpu.name, tflops=f"{gpu.fp8_tflops:,.0f}"))
    elif not support_said:
        lines.append(ctx.say("concept.fmt.fp8_wo" if fp8 and fp8.code == "weight_only" else "concept.fmt.fp8_none",
                             gpu=gpu.name, kernels=fp8.kernels if fp8 else ""))
    fast = []
    if gpu.fp8_tflops:
        fast.append(ctx.say("concept.fmt.fast.fp8"))
    if int8_tops:
        fast.append(ctx.say("concept.fmt.fast.int8", tops=f"{int8_tops:,.0f}"))
    if four_path and four_path.code == "weight_only":
        fast.append(ctx.say("concept.fmt.fast.int4", kernels=four_path.kernels or ""))
    if fast:
        lines.append(ctx.say("concept.fmt.fast", gpu=gpu.name, paths=ctx.say("list_sep").join(fast)))
    return lines, data


def format_concept(ctx: Any, spec: dict[str, Any], gpu: Any) -> str:
    """The reply block: the formats compared (quality, memory, speed), then the card's own support."""
    from gpu_advisor.assistant.precision_verdict import verdict_block
    from gpu_advisor.knowledge import find_precision

    ids = list(spec.get("precisions") or [])
    widths: list[int] = []
    named: list[str] = []
    for pid in ids:
        bits = round(find_precision(pid).bits_per_weight)
        if bits not in widths:
            widths.append(bits)
            named.append(pid)
    shim = SimpleNamespace(turn=SimpleNamespace(ask={"widths": widths, "named": named, "quality": named}),
                           say=ctx.say, data=ctx.data, lang=ctx.lang)
    block = verdict_block(shim)
    names = ctx.say("list_sep").join(find_precision(p).name.split(" (")[0] for p in named)
    lines = ["## " + ctx.say("concept.fmt.title", formats=names, gpu=gpu.name), ""]
    if block:
        lines += [block, ""]
    support_said = gpu.id in ((ctx.turn.ask.get("support") or {}).get("cards") or [])
    card, data = _card_lines(ctx, gpu, support_said)
    lines += card
    lines.append(fp8_archs(ctx))
    lines += ["", ctx.say("concept.fmt.offer", gpu=gpu.name)]
    ctx.data["format_concept"] = {**data, "formats": named, "models_sized": []}
    ctx.data["weigh"] = {"models_sized": [], "own_offer": True}  # no candidates: its own offer, not weigh.offer
    return "\n".join(lines)
