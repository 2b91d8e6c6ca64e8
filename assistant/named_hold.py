"""What the cards the user named with a count carry of a service they cannot hold as asked, said under the heading
before the closest plans (tools.named_limit; review CT C8: '说错了，是四张L20，上下文要64k' for 80 people never said
what the four cards carry). Every limit found: all the users at a shorter context, fewer at once at the context asked,
each with the KV cache as planned and in 8 bits. Figures only from the recommend result."""

from __future__ import annotations

from gpu_advisor.assistant.catalog import say
from gpu_advisor.tools.recommend import Recommendation


def named_hold_lines(rec: Recommendation, lang: str) -> list[str]:
    """'**What 4 × L20 carry:** …', then a blank line; [] when no count named falls short."""
    from gpu_advisor.assistant.writers import _kv_flag, gb, gpu_words, tps

    limit = rec.named_limit
    row = None if limit is None else next(
        (o for o in rec.options if o.gpu == limit.gpu and o.gpus == limit.gpus and not o.owned), None)
    if limit is None or row is None:
        return []
    at = limit.at_limit
    kv_said = at is not None and at.kv_precision is not None
    figures = {"cards": gpu_words(row, lang), "users": f"{limit.users_asked:,}", "asked": f"{limit.context_asked:,}",
               "used": gb(row.serve_per_gpu_bytes or 0.0), "capacity": gb(row.capacity_bytes),
               "kv": str(at.kv_precision if kv_said and at is not None else limit.kv8 or "fp8").upper(),
               "flag": _kv_flag(at) if kv_said and at is not None else f"--kv-cache-dtype {limit.kv8 or 'fp8'}"}
    speed = say(lang, "owned_near.at_speed", used=gb(at.serve_per_gpu_bytes or 0.0), capacity=gb(at.capacity_bytes),
                tps=tps(at.decode_tokens_per_s or 0.0)) if at is not None and at.decode_tokens_per_s else ""
    parts = []
    if limit.users:
        parts.append(say(lang, "owned_near.part.users", n=f"{limit.users:,}", **figures))
    if limit.users_kv8 and limit.users_kv8 != limit.users:
        parts.append(say(lang, "owned_near.part.users_kv8", n=f"{limit.users_kv8:,}", **figures))
    if limit.context:
        parts.append(say(lang, "owned_near.part.context", n=f"{limit.context:,}", speed=speed, **figures))
    if limit.context_kv8:
        parts.append(say(lang, "owned_near.part.context_kv8", n=f"{limit.context_kv8:,}",
                         speed="" if limit.context else say(lang, "owned_near.at_speed_inner", used=gb(
                             at.serve_per_gpu_bytes or 0.0), capacity=gb(at.capacity_bytes), tps=tps(
                             at.decode_tokens_per_s or 0.0)) if at is not None and at.decode_tokens_per_s else "",
                         **figures))
    return [say(lang, "named_hold.head", **figures) + say(lang, "sep").join(parts)
            + say(lang, "owned_near.as_asked", **figures), ""]
