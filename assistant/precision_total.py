"""'two things: how much vram does llama 3.3 70b need in plain fp16, and if i put it on 2x H100 80gb how many tokens
per sec can i expect for like 10 concurrent users': the total at the format said was never stated, and the plan
jumped to 8 cards to buy. Now, when the memory is asked at a stated format and the cards the user named cannot hold
it, the reply opens with that total (all the named cards' memory together: weights + KV for the users) and, on the
same cards, the lighter format (FP8, then int8, then 4-bit) that holds them, with its tokens/s per user (tools
recommend.evaluate: the same option model the plan uses)."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say

LIGHTER = ("fp8", "int8", "int4")


def _named(answer: Any) -> Any:
    """The cards the user named that the plan outgrew (fewer than the plan's, not serving at the format said)."""
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.tools.recommend import evaluate

    rec = answer.recommend
    best = rec.best if rec else None
    if best is None:
        return None
    found = next((o for o in answer.options if o.gpus < best.gpus and o.serves is False and o.serve_per_gpu_bytes),
                 None)
    if found is not None:
        return found
    for entry in rec.workload.candidates or []:  # 'on 2 张 H100': the count kept with the card ('2x h100-sxm')
        count, sep, gpu = str(entry).partition("x ")
        if sep and count.isdigit() and 0 < int(count) < best.gpus:
            o = evaluate(rec.workload, find_gpu(gpu), int(count))
            if o is not None and o.serves is False and o.serve_per_gpu_bytes:
                return o
    return None


def total_at_format(ask: dict[str, Any], answer: Any) -> dict[str, Any] | None:
    """The figures: the total at the stated format on the named cards, and the lighter format that fits there."""
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.recommend import evaluate

    rec = answer.recommend
    said = rec.workload.serve_precision if rec else None
    named = _named(answer) if said and ask.get("figure") == "memory" else None
    if named is None:
        return None
    out: dict[str, Any] = {"precision": said, "gpus": named.gpus, "gpu": named.gpu, "gpu_name": named.gpu_name,
                           "total_bytes": named.serve_per_gpu_bytes * named.gpus, "capacity_bytes": named.capacity_bytes,
                           "users": rec.workload.users, "lighter": None}
    for fmt in LIGHTER:
        if fmt == said:
            continue
        try:
            o = evaluate(rec.workload.model_copy(update={"serve_precision": fmt}), find_gpu(named.gpu), named.gpus,
                         owned=named.owned)
        except (ToolError, LookupError, ValueError):
            continue
        if o is not None and o.serves and o.decode_tokens_per_s:
            out["lighter"] = {"precision": fmt, "per_gpu_bytes": o.serve_per_gpu_bytes,
                              "tokens_per_s": o.decode_tokens_per_s}
            break
    return out


def with_total_first(text: str, extra: dict[str, Any], ask: dict[str, Any], answer: Any,
                     lang: str) -> tuple[str, dict[str, Any]]:
    """The reply opening with the total at the format said and the lighter format on the user's cards."""
    from gpu_advisor.assistant.writers import gb, tps

    f = total_at_format(ask, answer)
    if f is None:
        return text, extra
    users = f["users"] or 1
    parts = [say(lang, "second2.total_no", fmt=str(f["precision"]).upper(), total=gb(f["total_bytes"]), users=users,
                 n=f["gpus"], card=f["gpu_name"], have=gb(f["capacity_bytes"] * f["gpus"]))]
    if f["lighter"]:
        lf = f["lighter"]
        parts.append(say(lang, "second2.total_lighter", fmt=str(lf["precision"]).upper(), n=f["gpus"],
                         card=f["gpu_name"], need=gb(lf["per_gpu_bytes"]), have=gb(f["capacity_bytes"]),
                         users=users, tps=tps(lf["tokens_per_s"])))
    first = ("" if lang == "zh" else " ").join(parts)
    return first + "\n\n" + text, {**extra, "total_at_format": f}
