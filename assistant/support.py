"""The reply to a support question ('does the H200 support FP4?', 'is mxfp4 even supported on a100', 'V100支持bf16吗',
'does the T4 run flash attention?', 'does the 4090 have nvlink?'): for each card and each format or feature asked,
a code (native, weight_only, other_kernels, none, bridge, pcie) and its sentence. Whether a card computes a format is
the card record's figure (FP8, INT8, BF16) or the format's (FP4 tensor-core architectures); what engines do on a
card that does not is knowledge/data/format_support.yaml's; NVLink is the card's interconnect."""

from __future__ import annotations

from typing import Any

FOUR_BIT = ("nvfp4", "mxfp4")  # the FP4 formats; a bare "FP4" asks about either
# Links between cards that are not NVLink, by interconnect: their names (the same in every language).
OTHER_LINKS = {"infinity-fabric": "Infinity Fabric", "hccs": "HCCS", "roce": "RoCE", "unified": "unified memory"}


def kind_of(said: str) -> str:
    """A format or feature as typed ('FA2', 'flash-attn', 'nv-link', 'MXFP4') as its code."""
    word = said.replace(" ", "").replace("-", "").replace("_", "").lower()
    if word.startswith(("flash", "fa2", "fa3")):
        return "flash-attention"
    if word.startswith("nvlink") or word.startswith("nvl"):
        return "nvlink"
    return word


def card_support(ctx: Any) -> str:
    """Each card named × each format or feature asked: whether it is supported, and the path engines take when not
    (ctx.data["support"]: one row per pair with its code)."""
    from gpu_advisor.assistant.followups import _sep
    from gpu_advisor.knowledge import engines, engines_on, find_gpu

    said = [kind_of(f) for f in ctx.turn.ask.get("formats") or []]
    said = list(dict.fromkeys(said))
    cards = [find_gpu(_as_said(ctx, c)) for c in ctx.turn.cards or []]
    lines: list[str] = []
    data: list[dict[str, Any]] = []
    for gpu in cards:
        for kind in said:
            line, row, loads, name = _one(ctx, gpu, kind)
            lines += line
            data.append({"gpu": gpu.id, "format": kind, **row})
            runs = {e.id for e, _name in engines_on(gpu)}  # vLLM needs Turing or newer: not listed on a V100
            loads = [x for x in loads if x in runs or x not in {e.id for e in engines()}]
            if loads and gpu is cards[-1]:
                names = [next((e.name for e in engines() if e.id == x), x) for x in loads]
                lines.append(ctx.say("fup.support.engines", fmt=name, engines=ctx.say("list_sep").join(names)))
    ctx.data["support"] = data
    ctx.data["formats"] = said
    return _sep(ctx).join(lines) if lines else ctx.say("fup.kv.no_model")


def _as_said(ctx: Any, card: str) -> str:
    """The card asked about as the user has it: 'v100' after '4x v100, no nvlink' is their V100 PCIe, not the SXM2
    module the bare name reads as (knowledge.pcie_variant)."""
    from gpu_advisor.knowledge import pcie_variant

    said = [c.partition("x ")[2].strip() or c for c in (ctx.profile or {}).get("owned") or (ctx.profile or {}).get("only") or []]
    other = pcie_variant(card)
    return other if other and other in said else card


def _path(ctx: Any, gpu: Any, kind: str, name: str) -> tuple[str, list[str]]:
    """What engines do with a format the card's tensor cores lack (format_support.yaml): (code, sentences)."""
    from gpu_advisor.knowledge import engines, format_support

    record = next((f for f in format_support() if f.id == kind), None)
    path = record.path(gpu.arch) if record else None
    if path is None:
        return "none", []
    if path.code == "weight_only":
        names = [next((e.name for e in engines() if e.id == x), x) for x in path.engines]
        return "weight_only", [ctx.say("fup.support.weight_only", fmt=name, kernels=path.kernels or "",
                                       engines=ctx.say("list_sep").join(names))]
    return path.code, [ctx.say("fup.support.no_path", fmt=name, arch=str(gpu.arch).capitalize())]


def _one(ctx: Any, gpu: Any, kind: str) -> tuple[list[str], dict[str, Any], list[str], str]:
    """One card and one format or feature: (sentences, data row, engines that load the format, its name)."""
    from gpu_advisor.knowledge import find_precision

    if "fp4" in kind:
        ids = [kind] if kind in FOUR_BIT else list(FOUR_BIT)
        archs = {a for i in ids for a in find_precision(i).tensor_core_archs}
        native = gpu.arch in archs
        name = "FP4" if len(ids) > 1 else find_precision(ids[0]).name.split(" (")[0]
        code, extra = ("native", []) if native else _path(ctx, gpu, ids[0], name)
        key = "fp4_yes" if native else "fp4_no_math" if code == "weight_only" else "fp4_no"
        lines = [ctx.say(f"fup.support.{key}", gpu=gpu.name, fmt=name), *extra]
        return lines, {"native": native, "code": code, "formats": ids}, \
            sorted({e for i in ids for e in find_precision(i).engines}), name
    if kind in ("fp8", "int8"):  # the card's 8-bit tensor throughput, when it has one
        field, unit = ("fp8_tflops", "tflops") if kind == "fp8" else ("int8_tops", "tops")
        figure = getattr(gpu, field)
        native = bool(figure)
        code, extra = ("native", []) if native else _path(ctx, gpu, kind, kind.upper())
        line = ctx.say(f"fup.support.{kind}_yes", gpu=gpu.name, **{unit: f"{figure:,.0f}"}) if native \
            else ctx.say(f"fup.support.{kind}_no_math" if code == "weight_only" else f"fup.support.{kind}_no", gpu=gpu.name)
        return [line, *extra], {"native": native, "code": code, field: figure}, [], kind.upper()
    if kind == "int4":  # a weight format on every card: no engine computes in INT4
        code, _extra = _path(ctx, gpu, kind, "INT4")
        path = next(f for f in format_support_records() if f.id == kind).path(gpu.arch)
        key = "int4_weights" if code == "weight_only" and path else "int4_no"
        names = ctx.say("list_sep").join(_engine_names(path.engines)) if path else ""
        return [ctx.say(f"fup.support.{key}", gpu=gpu.name, kernels=path.kernels if path else "", engines=names,
                        arch=str(gpu.arch).capitalize())], {"native": False, "code": code}, [], "INT4"
    if kind == "flash-attention":
        from gpu_advisor.knowledge import format_support

        record = next(f for f in format_support() if f.id == kind)
        path = record.path(gpu.arch)
        code = path.code if path else "none"
        key = {"native": "fa_yes", "other_kernels": "fa_other"}.get(code, "fa_none")
        return [ctx.say(f"fup.support.{key}", gpu=gpu.name, kernels=path.kernels if path else "",
                        arch=str(gpu.arch).capitalize())], {"native": code == "native", "code": code}, [], "FlashAttention"
    if kind == "nvlink":
        link = gpu.interconnect
        code = {"nvlink": "native", "nvlink-bridge": "bridge", "pcie": "pcie"}.get(link, "other")
        key = {"native": "link_yes", "bridge": "link_bridge", "pcie": "link_no"}.get(code, "link_other")
        return [ctx.say(f"fup.support.{key}", gpu=gpu.name, gbps=f"{gpu.nvlink_gbps or 0:,.0f}",
                        gen=gpu.pcie_gen or "", link=OTHER_LINKS.get(link, link))], \
            {"native": code == "native", "code": code, "nvlink_gbps": gpu.nvlink_gbps}, [], "NVLink"
    # bf16 / fp16: the card's 16-bit tensor throughput; a card without BF16 trains in FP16 AMP
    native = gpu.native_bf16 or "bf16" not in kind
    return [ctx.say("fup.support.bf16" if native else "fup.support.bf16_no", gpu=gpu.name,
                    tflops=f"{gpu.bf16_tflops:,.0f}")], \
        {"native": native, "code": "native" if native else "none", "bf16_tflops": gpu.bf16_tflops}, [], kind.upper()


def format_support_records() -> list[Any]:
    from gpu_advisor.knowledge import format_support

    return list(format_support())


def _engine_names(ids: list[str]) -> list[str]:
    from gpu_advisor.knowledge import engines

    return [next((e.name for e in engines() if e.id == x), x) for x in ids]


def beside(lang: str, ask: dict[str, Any]) -> str:
    """The support answer for a question asked beside a sizing (reading.support: ask {"formats", "cards"}), in one
    paragraph for the reply's notes."""
    from types import SimpleNamespace

    from gpu_advisor.assistant.inform import Context

    turn = SimpleNamespace(ask={"formats": ask.get("formats") or []}, cards=ask.get("cards") or [])
    ctx = Context(lang, turn, {}, {}, "global")
    text = card_support(ctx)
    return text if ctx.data.get("support") else ""
