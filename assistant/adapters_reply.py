"""The serving answer's block on many LoRA adapters on its base model (tools.multi_lora via the plan's
Recommendation.multi_lora): what one adapter weighs, the slots vLLM keeps on each GPU for one batch, the adapters
kept in system memory, and the per-user speed a batch of mixed adapters gives up, from the plan's own speed."""

from __future__ import annotations

from gpu_advisor.assistant.catalog import say
from gpu_advisor.tools.recommend import Recommendation


def _tps(n: float) -> str:
    return f"{n:,.0f}" if n >= 10 else f"{n:,.1f}"


def _gb(n: float) -> str:
    return f"{n / 1e9:,.2f} GB" if n < 10e9 else f"{n / 1e9:,.0f} GB"


def adapter_lines(rec: Recommendation, lang: str) -> list[str]:
    a = rec.multi_lora
    if a is None:
        return []
    low, high = a.throughput_cost
    figures = {"loras": f"{a.loras:,}", "rank": a.lora_rank, "model": a.model,
               "targets": say(lang, f"adapters.targets_{a.targets.replace('-', '_')}"),
               "adapter_mb": f"{a.bytes_per_adapter / 1e6:,.0f}", "slots": a.max_loras, "slot_gb": _gb(a.gpu_slot_bytes),
               "max_rank": a.max_lora_rank, "distinct": f"{a.distinct_per_batch:,.1f}", "batch": a.concurrency,
               "cpu_gb": _gb(a.cpu_bytes), "low": f"{low:.0%}", "high": f"{high:.0%}"}
    lines = [say(lang, "adapters.block", **figures)]
    best = rec.best
    if best is not None and best.decode_tokens_per_s:
        t = best.decode_tokens_per_s
        lines.append(say(lang, "adapters.speed", low=f"{low:.0%}", high=f"{high:.0%}", slow=_tps(t * (1 - high)),
                         fast=_tps(t * (1 - low)), tps=_tps(t)))
    if best is not None and best.adapter_slot_bytes:  # the plan's memory holds them (tools.recommend counts them)
        lines.append(say(lang, "adapters.counted", slot_gb=_gb(best.adapter_slot_bytes),
                         total=_gb(best.serve_per_gpu_bytes or 0.0)))
    spare = (best.capacity_bytes - best.serve_per_gpu_bytes) if best is not None and best.serve_per_gpu_bytes else None
    if spare is not None and best is not None and not best.adapter_slot_bytes and a.gpu_slot_bytes > spare:
        lines.append(say(lang, "adapters.tight", slot_gb=_gb(a.gpu_slot_bytes), spare=_gb(max(0.0, spare))))
    return [("" if lang == "zh" else " ").join(lines), ""]
