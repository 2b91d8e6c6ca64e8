"""Cards you own are a ceiling, not a count to fill (review AP E3: two DGX H100 owned, training on them part of the
week, 'how many GPUs does Llama 3.3 70B serving eat?' got 'You need 16 × H100' at 19 GB of 85 GB each). The plan on
your cards is the fewest of them that meet every target (tools.recommend: _fewest_owned); this line says how many of
yours it takes and how many stay free for the other work."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say


def owned_total(rec: Any, gpu_id: str) -> int:
    """How many of this card the user said they own (0 when none)."""
    from gpu_advisor.tools.recommend import parse_owned

    total = 0
    for text in rec.workload.owned if rec.workload is not None else []:
        count, gpu = parse_owned(text)
        total += count if gpu.id == gpu_id else 0
    return total


def fleet_line(rec: Any, lang: str) -> str | None:
    """'**Yes, on what you own: it takes 2 of your 16 × H100** (…); the other 14 stay free for other work.' None when
    the plan is not on fewer of your cards than you own."""
    from gpu_advisor.assistant.writers import gb, tps

    best = rec.best
    if best is None or not best.owned or best.owned_gpus or not best.ok or best.serve_per_gpu_bytes is None \
            or not rec.workload.spec.serves:
        return None
    total = owned_total(rec, best.gpu)
    if total <= best.gpus:
        return None
    unit = max(1, best.gpus // max(1, best.replicas))
    layout = f"{best.replicas} × TP{unit}" if best.replicas > 1 else f"TP{unit}"
    speed = tps(best.decode_tokens_per_s) if best.decode_tokens_per_s else "?"
    from gpu_advisor.assistant.tp_divide import idle_note

    line = say(lang, "fleet.takes", n=best.gpus, total=total, card=best.gpu_name, layout=layout,
               precision=best.precision or "", used=gb(best.serve_per_gpu_bytes), capacity=gb(best.capacity_bytes),
               tps=speed, free=total - best.gpus)
    idle = idle_note(lang, rec.workload.model, total, best.gpus)  # 3 cards, 64 heads: why the third is idle, PP=3
    return line + ("" if lang == "zh" or not idle else " ") + idle
