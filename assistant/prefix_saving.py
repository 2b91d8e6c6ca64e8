"""Prefix caching asked as a concept, with what it saves (reading/prefix_saving.py sets intent prefix_saving): how it
works (KV blocks hashed by their token prefix, hits token for token, stored once, evicted least recently used; on by
default in vLLM V1, RadixAttention in SGLang), how a RAG prompt should be laid out for it, and the saving computed by
tools.prefix_saving: the share of prefill skipped and of the first token's time at low load, the prefix's KV held
once (for a model named), decoding unchanged. Nothing is sized or asked. ctx.data["prefix_saving"] holds the
tool's result."""

from __future__ import annotations

from typing import Any

from gpu_advisor.tools.prefix_saving import (
    DEFAULT_QUESTION,
    DEFAULT_RETRIEVED,
    PrefixSavingInput,
    prefix_saving,
)


def _pct(share: float) -> str:
    return f"{share:.0%}"


def _tokens(n: float) -> str:
    return f"{n:,.0f}"


def _saving(ctx: Any, r: Any) -> list[str]:
    lines = [ctx.say("pfx.saving", shared=_tokens(r.shared_tokens), own=_tokens(r.own_tokens),
                     total=_tokens(r.prompt_tokens), cached=_tokens(r.cached_tokens), pct=_pct(r.prefill_saved_share),
                     ttft=_pct(r.ttft_saved_share))]
    if r.own_assumed:
        lines.append(ctx.say("pfx.assumed", retrieved=_tokens(DEFAULT_RETRIEVED), question=_tokens(DEFAULT_QUESTION)))
    return lines


def _memory(ctx: Any, r: Any) -> str:
    from gpu_advisor.assistant.writers import gb

    if r.model and r.kv_bytes_per_token:
        kb = f"{r.kv_bytes_per_token / 1024:,.0f}"
        if r.sequences and r.sequences > 1:
            return ctx.say("pfx.mem.users", model=r.model, kb=kb, shared=_tokens(r.shared_tokens),
                           gb=gb(r.prefix_kv_bytes or 0), users=r.sequences, saved=gb(r.kv_saved_bytes or 0))
        return ctx.say("pfx.mem.model", model=r.model, kb=kb, shared=_tokens(r.shared_tokens),
                       gb=gb(r.prefix_kv_bytes or 0))
    return ctx.say("pfx.mem", shared=_tokens(r.shared_tokens))


def prefix_reply(ctx: Any) -> str:
    from gpu_advisor.assistant.followups import _call
    from gpu_advisor.tools.common import ToolError

    ask = ctx.turn.ask
    parts = [ctx.say("pfx.how"), ctx.say("pfx.rag")]
    shared = int(ask.get("shared") or 0)
    data: dict[str, Any] = {"shared": shared or None}
    if shared:
        inp = PrefixSavingInput(shared_tokens=shared, own_tokens=ask.get("own"), model=ask.get("model"),
                                sequences=ask.get("users"))
        try:
            r = _call(ctx, "prefix_saving", prefix_saving, inp)
        except (ToolError, LookupError, ValueError):
            r = _call(ctx, "prefix_saving", prefix_saving, inp.model_copy(update={"model": None, "sequences": None}))
        parts += ["\n".join(_saving(ctx, r)), _memory(ctx, r), ctx.say("pfx.decode")]
        data.update(r.model_dump(mode="json", exclude={"terms"}))
    else:
        parts += [ctx.say("pfx.saving_rule"), ctx.say("pfx.decode")]
    ctx.data["prefix_saving"] = data
    return "\n\n".join(parts)
