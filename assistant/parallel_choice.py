"""Tensor against pipeline parallelism for a model named ("TP or PP for 70B across 2 nodes?"): a verdict from
the sizing tools (inference_memory at the default context, one conversation), never the glossary alone.

Codes (ctx.data["par_choice"]["code"]):
- one_card: one card holds the model: neither; every card (or group) a copy of its own (data parallel).
- one_node: one server holds it on `tp` cards: tensor parallel inside the server over its fast link, and no
  parallelism across servers: the servers are copies side by side (data parallel).
- cross_node: one server does not hold it: tensor parallel inside each server, pipeline parallel across `pp`
  servers (only activations cross the network); whether FP8 weights would bring it back into one server.
- fixed_format: a fixed number of cards said with no servers ("70B on 4 × 3090") that BF16 does not fit: tensor
  parallel over all of them in the first smaller format (FP8 where the card has FP8 tensor cores, INT8, INT4) that
  fits; pipeline parallel would split the same memory over the same cards.
A concept asked beside it ("what's the difference…") gets the two explained in a few lines first.
"""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.link_words import explain_said, link_said
from gpu_advisor.assistant.parallel_follow import users_lines
from gpu_advisor.assistant.parallel_native import SIXTEEN_BIT, across_lines, key, native_note, serve_format
from gpu_advisor.assistant.writers import gb

DEFAULT_CARD = "h100-sxm"  # the card a node is sized on when none is said
DEFAULT_PER_NODE = 8  # cards in one server (HGX) when none is said
MAX_STAGES = 8


def _memory(ctx: Any, model: str, precision: str, gpu: str, tp: int, pp: int, batch: int = 1) -> Any:
    from gpu_advisor.assistant.followups import _call
    from gpu_advisor.assistant.slots import SLOTS
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.inference import InferenceMemoryInput, inference_memory

    context = int(ctx.turn.ask["par_choice"].get("context") or SLOTS["context"].default)
    try:
        return _call(ctx, "inference_memory", inference_memory,
                     InferenceMemoryInput(model=model, precision=precision, gpu=gpu, gpus=tp, pp=pp, batch=batch,
                                          context=context))
    except (ToolError, LookupError, ValueError):
        return None


def _layout(ctx: Any, model: str, precision: str, gpu: str, per_node: int) -> tuple[int, int, Any]:
    """The fewest cards that hold the model: tensor parallel 1, 2, 4 … up to a server, then whole servers as
    pipeline stages; (0, 0, None) when even MAX_STAGES servers do not."""
    tp = 1
    while tp <= per_node:
        mem = _memory(ctx, model, precision, gpu, tp, 1)
        if mem is not None and mem.fits:
            return tp, 1, mem
        tp *= 2
    for pp in range(2, MAX_STAGES + 1):
        mem = _memory(ctx, model, precision, gpu, per_node, pp)
        if mem is not None and mem.fits:
            return per_node, pp, mem
    return 0, 0, None


def verdict(ctx: Any) -> str:
    from gpu_advisor.knowledge import find_gpu

    spec = ctx.turn.ask["par_choice"]
    card = find_gpu(spec.get("gpu") or DEFAULT_CARD)
    per_node = int(spec.get("per_node") or DEFAULT_PER_NODE)
    servers = int(spec.get("servers") or 0)
    model = str(spec["model"])
    fixed = int(spec.get("fixed") or 0)
    fmt = "bf16" if fixed else serve_format(model, card, spec.get("precision"))  # V3: its FP8 checkpoint
    tp, pp, mem = _layout(ctx, model, fmt, card.id, per_node)
    data: dict[str, Any] = {"model": model, "gpu": card.id, "per_node": per_node, "servers": servers, "tp": tp,
                            "pp": pp, "precision": fmt, "gpu_said": bool(spec.get("gpu")),
                            "precision_said": spec.get("precision")}
    ctx.data["par_choice"] = data
    head = [explain_said(ctx, card)] if spec.get("explain") else []
    if spec.get("follow") and spec.get("gpu"):  # the cards said after the verdict: theirs, said back
        head.append(ctx.say("parc.yours", servers=max(servers, 1), per_node=per_node, gpu=card.name))
    if fixed and (mem is None or pp > 1):  # '70B on 4 × 3090': those cards, in a smaller format
        return "\n\n".join(head + [_fixed(ctx, model, card, fixed, data)])
    head += native_note(ctx, mem.model if mem else model, fmt, spec.get("precision"))
    body = [_verdict(ctx, card, per_node, servers, model, (tp, pp, fmt), mem, data)]
    if mem is not None and spec.get("users"):  # the people said: does one copy hold them all, and at what speed
        body += users_lines(ctx, _memory, int(spec["users"]), data)
    elif not spec.get("gpu") and servers:  # 'across 2 nodes' with no cards said: the usual server, said
        body.append(ctx.say("parc.assumed_node", per_node=per_node, gpu=card.name))
    return "\n\n".join(head + body)


def _fixed(ctx: Any, model: str, card: Any, n: int, data: dict[str, Any]) -> str:
    """The first format smaller than BF16 that fits the n cards said at tensor parallel n, from the tools."""
    whole = _memory(ctx, model, "bf16", card.id, n, 1)
    for fmt in ("fp8", "int8", "int4") if card.fp8_tflops else ("int8", "int4"):
        mem = _memory(ctx, model, fmt, card.id, n, 1)
        if mem is not None and mem.fits:
            data.update({"code": "fixed_format", "tp": n, "pp": 1, "precision": fmt, "context": mem.context,
                         "per_gpu_bytes": mem.per_gpu_total_bytes, "capacity_bytes": mem.gpu_capacity_bytes,
                         "bf16_total_bytes": whole.total_bytes if whole else None})
            link = link_said(ctx, card)  # the card's own in-server link (assistant.link_words)
            return "\n\n".join([
                ctx.say("parc.fixed", tp=n, gpu=card.name, fmt=fmt.upper(), model=mem.model,
                        total=gb(whole.total_bytes if whole else 0), per_gpu=gb(mem.per_gpu_total_bytes),
                        cap=gb(mem.gpu_capacity_bytes or 0), context=f"{mem.context:,}"),
                ctx.say("parc.why_fixed", link=link)])
    data["code"] = "too_big"
    return ctx.say("parc.fixed_none", tp=n, gpu=card.name)


def _verdict(ctx: Any, card: Any, per_node: int, servers: int, model: str, layout: tuple[int, int, str], mem: Any,
             data: dict[str, Any]) -> str:
    tp, pp, fmt = layout
    if mem is None:
        data["code"] = "too_big"
        return ctx.say(key("too_big", fmt), per_node=per_node, gpu=card.name, n=MAX_STAGES, fmt=fmt.upper())
    data.update({"context": mem.context, "per_gpu_bytes": mem.per_gpu_total_bytes, "capacity_bytes": mem.gpu_capacity_bytes,
                 "total_bytes": mem.total_bytes})
    figures = {"model": mem.model, "gpu": card.name, "per_gpu": gb(mem.per_gpu_total_bytes),
               "cap": gb(mem.gpu_capacity_bytes or 0), "total": gb(mem.total_bytes), "tp": tp, "pp": pp,
               "per_node": per_node, "context": f"{mem.context:,}", "fmt": fmt.upper()}
    link = link_said(ctx, card)
    if pp > 1:
        data["code"] = "cross_node"
        lines = [ctx.say(key("cross_node", fmt), **figures), ctx.say("parc.why_cross", link=link)]
        lines += across_lines(ctx, model, per_node, servers, pp, data)  # 'TP16 or TP8+PP2?': TP16 by name, EP
        if servers and servers < pp:
            lines.append(ctx.say(key("short", fmt), servers=servers, pp=pp, fmt=fmt.upper()))
        eight = _layout(ctx, model, "fp8", card.id, per_node) if fmt in SIXTEEN_BIT else (0, 0, None)
        if eight[1] == 1 and eight[2] is not None:  # FP8 weights bring it back into one server
            data.update({"fp8_tp": eight[0], "fp8_per_gpu_bytes": eight[2].per_gpu_total_bytes})
            lines.append(ctx.say("parc.change.fp8", tp=eight[0], gpu=card.name, per_gpu=gb(eight[2].per_gpu_total_bytes)))
        else:
            lines.append(ctx.say(key("change.cross", fmt)))
        return "\n\n".join(lines)
    copies = (per_node // tp) * max(servers, 1)
    data.update({"code": "one_card" if tp == 1 else "one_node", "copies": copies})
    where = ctx.say("parc.servers", servers=servers, copies=copies, per_node=per_node, tp=tp) if servers > 1 else \
        ctx.say("parc.one_server", copies=per_node // tp, per_node=per_node)
    if tp == 1:
        lines = [ctx.say(key("one_card", fmt), **figures), where]
    else:
        lines = [ctx.say(key("one_node", fmt), **figures), ctx.say("parc.why_one_node", link=link), where]
    lines.append(ctx.say("parc.change.one"))
    return "\n\n".join(lines)
