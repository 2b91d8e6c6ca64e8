"""The speed of a mixture-of-experts model on the card the user named beside the question why it needs memory for
every parameter ("为什么显存要按总参数算，但速度按激活参数算？那 qwen3-30b-a3b 用一张 4090 跑大概多快"): one user, sized
with the tools (tools.recommend.evaluate) on the count said, else the fewest of 1, 2, 4, 8 that hold it, in 8-bit
(FP8) when that fits, else the usual 4-bit file of the card (Q4_K_M on a desktop card or a Mac, INT4 on a server
card). ctx.data["reference"] holds the figures, with asked: True."""

from __future__ import annotations

import time
from typing import Any

from gpu_advisor.assistant.writers import gb, tps
from gpu_advisor.knowledge import find_gpu
from gpu_advisor.tools.recommend import Option, Workload, evaluate

COUNTS = (1, 2, 4, 8)
FORMATS = {"desktop": ("fp8", "q4_k_m"), "server": ("fp8", "int4")}
DESKTOP = ("consumer", "apple")


def _sized(ctx: Any, model_id: str, gpu: Any, n: int, fmt: str, owned: bool) -> Option | None:
    w = Workload(phase="serve", model=model_id, serve_precision=fmt, users=1, region=ctx.region)
    start = time.perf_counter()
    o = evaluate(w, gpu, n, owned=owned)
    if ctx.recorder is not None:
        ctx.recorder("evaluate_option", {"workload": w.model_dump(mode="json"), "gpu": gpu.id, "gpus": n},
                     o.model_dump(mode="json") if o else {}, (time.perf_counter() - start) * 1000)
    return o


def on_card(ctx: Any, model_id: str, card: list[Any]) -> str | None:
    """The line for one user on the card named: its memory, whether it fits, its tokens per second."""
    gpu_id, count, owned = str(card[0]), int(card[1] or 0), bool(card[2])
    try:
        gpu = find_gpu(gpu_id)
    except LookupError:
        return None
    o: Option | None = None
    for n in (count,) if count else COUNTS:  # 'on a 4090': one card in 4-bit before two in 8-bit
        for fmt in FORMATS["desktop" if gpu.segment in DESKTOP else "server"]:
            o = _sized(ctx, model_id, gpu, n, fmt, owned) or o
            if o is not None and o.ok:
                break
        if o is not None and o.ok:
            break
    if o is None:
        return None
    option = f"{o.gpus} × {gpu.name}" if o.gpus > 1 else gpu.name
    fmt_said = (o.precision or "").upper()
    ctx.data["reference"] = {"gpu": gpu.name, "gpu_id": gpu.id, "gpus": o.gpus, "asked": True, "ok": o.ok,
                             "precision": o.precision, "per_gpu_bytes": o.serve_per_gpu_bytes,
                             "capacity_bytes": o.capacity_bytes, "tokens_per_s": o.decode_tokens_per_s}
    if not o.ok or not o.decode_tokens_per_s:
        return ctx.say("concept.moe.no_fit", option=option, fmt=fmt_said, per=gb(o.serve_per_gpu_bytes or 0),
                       cap=gb(o.capacity_bytes))
    return ctx.say("concept.moe.on_card", option=option, fmt=fmt_said, per=gb(o.serve_per_gpu_bytes or 0),
                   cap=gb(o.capacity_bytes), tps=tps(o.decode_tokens_per_s))
