"""The tensor-against-pipeline verdict (assistant/parallel_choice.py) in the checkpoint's own format, and the layouts
the user named answered by name (concept4).

- The format: the one the user said, else the model's official checkpoint (knowledge models.yaml native_precision:
  DeepSeek-V3 and R1 ship in FP8) where the card computes it (FP8 needs FP8 tensor cores), else BF16. A sizing in
  BF16 of an FP8 checkpoint doubles the memory and the servers (1,470 GB, "3 servers" for V3 on 2 × 8 H800).
- Across servers: tensor parallel over all the servers' cards (TP 16 on 2 × 8) is refused by name: it puts the
  two all-reduces per layer per token on the network between servers.
- A mixture-of-experts model: expert parallelism is the layout its makers serve with (whole experts per card,
  tokens sent all-to-all), the one to take for many users at once.
"""

from __future__ import annotations

from typing import Any

SIXTEEN_BIT = ("bf16", "fp16")


def serve_format(model: str, card: Any, stated: str | None) -> str:
    """The format sized: the one said, else the checkpoint's own where the card computes it, else BF16."""
    from gpu_advisor.knowledge import find_model

    if stated:
        return stated
    try:
        native = find_model(model).native_precision
    except (LookupError, ValueError):
        return "bf16"
    if not native or (native.startswith("fp8") and not card.fp8_tflops):
        return "bf16"
    return str(native)


def key(name: str, fmt: str) -> str:
    """The catalog key of a verdict line: the format-named one (concept4.parc.*) when the format is not 16-bit."""
    return f"parc.{name}" if fmt in SIXTEEN_BIT else f"concept4.parc.{name}"


def native_note(ctx: Any, model: str, fmt: str, stated: str | None) -> list[str]:
    """'DeepSeek-V3's official checkpoint is FP8, so that is the format sized' when the format was not said."""
    if stated or fmt in SIXTEEN_BIT:
        return []
    return [ctx.say("concept4.parc.native", model=model, fmt=fmt.upper())]


def across_lines(ctx: Any, model: str, per_node: int, servers: int, pp: int, data: dict[str, Any]) -> list[str]:
    """Tensor parallel over every card of several servers refused by name, and expert parallelism for a MoE model."""
    from gpu_advisor.knowledge import find_model

    lines: list[str] = []
    if servers >= 2:
        data["tp_across"] = per_node * servers
        lines.append(ctx.say("concept4.parc.tp_across", n=per_node * servers, servers=servers, per_node=per_node,
                             pp=max(pp, servers)))
    try:
        rec = find_model(model)
    except (LookupError, ValueError):
        return lines
    if rec.is_moe and rec.num_experts and servers >= 2:
        data["ep"] = per_node * servers
        lines.append(ctx.say("concept4.parc.ep", model=rec.name, experts=rec.num_experts,
                             k=rec.experts_per_token or 0, cards=per_node * servers))
    return lines
