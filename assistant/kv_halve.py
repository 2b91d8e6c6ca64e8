"""An 8-bit KV cache asked about ('用 fp8 kv cache 能省一半吗', 'does fp8 kv halve it?'): the cache is sized first in
the model's 16-bit default, the figure people start from, then in FP8 beside it, said as the halving it is, for all
the users at once and with the weights (assistant/followups.kv_cache; the figures are inference_memory's).

Data: ctx.data["kv_cache"]["fp8_users_bytes"], ["fp8_total_bytes"] beside the 16-bit figures."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.writers import gb

EIGHT_BIT_KV = 8


def baseline(ask: dict[str, Any], kv: str | None) -> tuple[str | None, bool]:
    """The KV format to size first and whether the 8-bit one was asked: an 8-bit cache asked is sized beside
    the 16-bit default (None), never instead of it."""
    if int(ask.get("kv_bits") or 0) == EIGHT_BIT_KV and kv in (None, "fp8", "int8"):
        return None, True
    return kv, False


def line(ctx: Any, sixteen: int, eight: int, users: int, weights: int) -> str:
    """The FP8 figure as the answer to 'does it halve it': per user, for all the users, and with the weights."""
    total = weights + eight * users
    ctx.data["kv_cache"].update({"fp8_users_bytes": eight * users, "fp8_total_bytes": total,
                                 "fp8_share": round(eight / max(sixteen, 1), 2)})
    return ctx.say("fkv.halves", gb=gb(eight), users=f"{users:,}", all16=gb(sixteen * users), all8=gb(eight * users),
                   total=gb(total))
