"""HBM against GDDR for LLM work ('HBM3 vs GDDR7 what's the difference for inference', 'HBM和GDDR有什么区别'),
from the catalog's cards of each kind: the bandwidth, memory per card and price of a card, each as a range with the
cards at its ends, then one user's decode speed for one model on the fastest GDDR card and on the reference HBM card
(tools.throughput.speed): decoding reads every weight once per token, so it follows bandwidth."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.writers import tps
from gpu_advisor.knowledge import Gpu, find_gpu, find_model, find_precision, gpus
from gpu_advisor.tools.common import ToolError

KINDS = ("hbm", "gddr")
REFERENCE_HBM = "h100-sxm"  # the guide's reference HBM card (3.35 TB/s)
EXAMPLE_MODEL, EXAMPLE_FORMAT = "qwen2.5-14b", "fp8"  # fits one card of either kind in 8-bit
CONTEXT = 8192


def _cards(kind: str) -> list[Gpu]:
    """The catalog's cards of one memory kind, laptops left out (no one buys one for this)."""
    return [g for g in gpus() if g.memory_type == kind and not g.laptop]


def _tb(gbps: float) -> str:
    return f"{gbps / 1000:.2g}" if gbps < 1000 else f"{gbps / 1000:.3g}"


def _kind_line(ctx: Any, kind: str) -> tuple[str, dict[str, Any]]:
    cards = _cards(kind)
    slow, fast = min(cards, key=lambda g: g.memory_bandwidth_gbps), max(cards, key=lambda g: g.memory_bandwidth_gbps)
    small, big = min(cards, key=lambda g: g.memory_gb), max(cards, key=lambda g: g.memory_gb)
    priced = [g for g in cards if g.buy_price_usd]
    cheap = min(priced, key=lambda g: g.buy_price_usd or 0) if priced else None
    dear = max(priced, key=lambda g: g.buy_price_usd or 0) if priced else None
    data = {"cards": len(cards), "bandwidth_gbps": [slow.memory_bandwidth_gbps, fast.memory_bandwidth_gbps],
            "memory_gb": [small.memory_gb, big.memory_gb],
            "buy_usd": [cheap.buy_price_usd, dear.buy_price_usd] if cheap and dear else None}
    text = ctx.say(f"memtypes.{kind}", n=len(cards), bw_lo=_tb(slow.memory_bandwidth_gbps), slow=slow.name,
                   bw_hi=_tb(fast.memory_bandwidth_gbps), fast=fast.name, gb_lo=f"{small.memory_gb:g}",
                   gb_hi=f"{big.memory_gb:g}")
    if cheap and dear:
        text += ctx.say("sep") + ctx.say("memtypes.price", lo=ctx.usd(cheap.buy_price_usd or 0), cheap=cheap.name,
                                         hi=ctx.usd(dear.buy_price_usd or 0), dear=dear.name)
    return text + ctx.say("fig.end"), data


def _example(ctx: Any) -> tuple[str, dict[str, Any]] | None:
    """One user's decode speed for the example model on the fastest GDDR card and the reference HBM card."""
    from gpu_advisor.assistant.followups import _call
    from gpu_advisor.tools.throughput import SpeedInput, speed

    gddr = max(_cards("gddr"), key=lambda g: (g.memory_bandwidth_gbps, -(g.buy_price_usd or 1e9)))
    hbm = find_gpu(REFERENCE_HBM)
    runs = {}
    for gpu in (hbm, gddr):
        try:
            runs[gpu.id] = _call(ctx, "speed", speed, SpeedInput(model=EXAMPLE_MODEL, precision=EXAMPLE_FORMAT, gpu=gpu.id,
                                                                 batch=1, context=CONTEXT)).decode_tokens_per_s
        except (ToolError, LookupError, ValueError):
            return None
    a, b = runs[hbm.id], runs[gddr.id]
    data = {"model": EXAMPLE_MODEL, "precision": EXAMPLE_FORMAT, "context": CONTEXT,
            "tokens_per_s": {hbm.id: a, gddr.id: b}}
    text = ctx.say("memtypes.example", model=find_model(EXAMPLE_MODEL).name,
                   fmt=find_precision(EXAMPLE_FORMAT).name.split(" (")[0], hbm=hbm.name, hbm_bw=_tb(hbm.memory_bandwidth_gbps),
                   hbm_tps=tps(a), gddr=gddr.name, gddr_bw=_tb(gddr.memory_bandwidth_gbps), gddr_tps=tps(b),
                   ratio=f"{a / b:.1f}", bw_ratio=f"{hbm.memory_bandwidth_gbps / gddr.memory_bandwidth_gbps:.1f}")
    return text, data


def memory_types(ctx: Any) -> str:
    lines = ["## " + ctx.say("memtypes.title"), ""]
    data: dict[str, Any] = {}
    for kind in KINDS:
        text, data[kind] = _kind_line(ctx, kind)
        lines.append("- " + text)
    example = _example(ctx)
    lines += ["", ctx.say("memtypes.why")]
    if example:
        lines += ["", example[0]]
        data["speed"] = example[1]
    lines += ["", ctx.say("memtypes.rest")]
    ctx.data["memory_types"] = data
    return "\n".join(lines)
