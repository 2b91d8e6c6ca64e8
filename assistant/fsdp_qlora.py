"""'想微调一下qwen2.5 72b 用qlora … 我手上有两张3090' (review BK #8): the cards owned do not hold the QLoRA as planned,
but FSDP + QLoRA with CPU offload (Answer.AI's recipe) does at a shorter sequence: said after the owned cards' line,
with its limits (sequences cut to that length, CPU memory for the offloaded shards, much slower than one large card
because every step moves the weights over PCIe), from tools.owned_qlora's sizing."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.tools.owned_qlora import fsdp_qlora_on_owned


def fsdp_lines(rec: Any, lang: str, words: Any, gb: Any) -> list[str]:
    """The line, or [] when the recipe does not apply or does not fit."""
    w = rec.workload
    if w is None or not w.owned:
        return []
    found = fsdp_qlora_on_owned(w, rec)
    if found is None:
        return []
    option = next((o for o in rec.owned_options if o.gpu == found.gpu), None)
    return [say(lang, "owned.fsdp_qlora", option=words(option) if option is not None else found.gpu,
                seq=f"{found.seq_len:,}", used=gb(found.per_gpu_bytes), capacity=gb(found.capacity_bytes),
                cpu=f"{found.cpu_bytes / 1e9:,.0f}", cut=say(lang, "owned.fsdp_cut", seq=f"{found.seq_len:,}",
                                                              planned=f"{w.seq_len:,}") if found.seq_len < w.seq_len else ""), ""]
