"""A format asked for that the plan's card does not run (FP8 or FP4 weights on the Ascend 910B: no FP8 units, and
vLLM-Ascend / MindIE serve 8 bits as W8A8 INT8; knowledge precisions.yaml unconverted_stacks): the plan serves the
card's 8-bit format instead (tools.recommend.serving_precision), and the assumption says so, so the reply never
carries FP8 weights or an FP8 flag for a card without FP8."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.knowledge import find_gpu, find_precision

# Plans that keep the job on your cards with a change (tools.owned_offload, tools.owned_qlora): other changes that
# also work are listed as others, not as what would make it work.
KEPT_ON_YOURS = ("zero_offload", "qlora", "qlora_serve")


def swapped_format_line(asked: str | None, best: Any, lang: str) -> str:
    """'- FP8 asked: the Huawei Ascend 910B has none …' or '' when the plan serves what was asked."""
    if not asked or best is None or not best.precision or best.precision == asked:
        return ""
    try:
        fmt, gpu = find_precision(asked), find_gpu(best.gpu)
    except (LookupError, ValueError):
        return ""
    if gpu.stack not in fmt.unconverted_stacks:
        return ""
    return "- " + say(lang, "advice.format_swapped", asked=asked.upper(), card=gpu.name, shown=best.precision)


def lever_key(key: str, option: Any) -> str:
    """The catalog key of a KV-cache lever said for the option it was sized on: INT8 on a card whose 8-bit cache is
    INT8 (tools.kv_format: the Ascend 910B), FP8 elsewhere."""
    if key in ("kv8", "int4_kv8") and getattr(option, "kv_precision", None) == "int8":
        return f"advice.lever_{key}_int8"
    if key == "zero_offload":  # the full fine-tune kept on your cards (tools.owned_offload)
        return "advice.lever_zero_offload"
    if key == "qlora_serve":  # QLoRA on your cards, the model served there in fewer bits (tools.owned_qlora)
        return "advice.lever_qlora_serve"
    return f"lever.{key}"
