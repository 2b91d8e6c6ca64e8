"""Why tensor-parallel sizes are powers of two, and whether a size works ('vllm多卡推理的时候tensor parallel为什么一般要2的幂？
我手上有三张3090能用tp=3吗', 'can vllm do tp=3 on three 3090s?'; reading/tp_divide.py sets ask["tp_rule"]): the rule
(tools/arch.tp_blockers: the attention heads and KV heads must divide by the size), the model's own heads and the sizes
that divide them when a model is named or planned, else the catalog's commonest head layouts and how many models refuse
the size asked, and for cards no size uses whole, pipeline parallel over all of them or TP on fewer. The same rule says
why a plan on your own cards leaves some idle (idle_note, assistant/fleet.py). ctx.data["tp_rule"] holds the codes."""

from __future__ import annotations

from collections import Counter
from typing import Any

from gpu_advisor.assistant.catalog import say

# How many of the catalog's commonest head layouts the answer names when no model is.
LAYOUTS = 3


def _join(lang: str, parts: list[str]) -> str:
    return ("" if lang == "zh" else " ").join(p for p in parts if p)


def _sizes(lang: str, sizes: list[int]) -> str:
    return say(lang, "list_sep").join(str(t) for t in sizes)


def _why(lang: str, model: Any, tp: int) -> str:
    """Why a size does not split the model: the head counts that do not divide by it (tools/arch.tp_blockers)."""
    from gpu_advisor.tools import arch

    return say(lang, "sep").join(say(lang, f"tpd.why.{code}", heads=model.num_attention_heads, kv=model.num_kv_heads,
                                     n=tp) for code in arch.tp_blockers(model, tp))


def _model(ctx: Any) -> Any | None:
    """The model named in the question, else the one planned; None for none, or one known only by its size."""
    from gpu_advisor.knowledge import find_model
    from gpu_advisor.tools import arch

    name = ctx.turn.ask.get("model") or (ctx.rec.workload.model if ctx.rec is not None and ctx.rec.workload else None) \
        or ctx.profile.get("model")
    if not name:
        return None
    try:
        model = find_model(str(name))
    except (LookupError, ValueError):
        return None
    return None if arch.is_generic(model) else model


def _catalog(lang: str, tp: int | None, data: dict[str, Any]) -> str:
    """The catalog's commonest head layouts with the sizes each allows, and how many models refuse the size asked."""
    from gpu_advisor.knowledge import models
    from gpu_advisor.tools import arch

    dense = [m for m in models() if not arch.is_generic(m)]
    layouts = Counter((m.num_attention_heads, m.num_kv_heads) for m in dense).most_common(LAYOUTS)
    rows = []
    for (heads, kv), count in layouts:
        sizes = next(arch.valid_tensor_parallel(m) for m in dense if (m.num_attention_heads, m.num_kv_heads) == (heads, kv))
        rows.append(say(lang, "tpd.layout", heads=heads, kv=kv, count=count, sizes=_sizes(lang, sizes)))
    data["layouts"] = [[h, k, c] for (h, k), c in layouts]
    line = say(lang, "tpd.layouts", rows=say(lang, "sep").join(rows))
    if tp and tp > 1:
        refused = sum(1 for m in dense if arch.tp_blockers(m, tp))
        data["refused"] = [refused, len(dense)]
        line = _join(lang, [line, say(lang, "tpd.refused" if refused else "tpd.none_refused", n=tp, refused=refused,
                                      total=len(dense))])
    return line


def tp_rule(ctx: Any) -> str:
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.tools import arch

    lang, ask = ctx.lang, ctx.turn.ask
    tp = int(ask["tp"]) if ask.get("tp") else None
    cards = int(ask["cards"]) if ask.get("cards") else None
    model = _model(ctx)
    data: dict[str, Any] = {"tp": tp, "cards": cards, "model": model.id if model else None}
    parts = [say(lang, "tpd.rule")]
    if model is not None:
        valid = arch.valid_tensor_parallel(model, max(8, tp or 0, cards or 0))
        data.update(heads=model.num_attention_heads, kv_heads=model.num_kv_heads, valid=valid)
        parts.append(say(lang, "tpd.model", model=model.name, heads=model.num_attention_heads, kv=model.num_kv_heads,
                         sizes=_sizes(lang, valid)))
        if tp:
            blocked = arch.tp_blockers(model, tp)
            data["blockers"] = blocked
            parts.append(say(lang, "tpd.asked_no", n=tp, why=_why(lang, model, tp)) if blocked
                         else say(lang, "tpd.asked_yes", n=tp, model=model.name))
    else:
        parts.append(_catalog(lang, tp, data))
    n = cards or tp
    if n and n > 1 and (model is None or arch.tp_blockers(model, n)):
        fewer = max(t for t in (arch.valid_tensor_parallel(model, n) if model is not None else [1, 2, 4, 8]) if t <= n)
        gpu = find_gpu(str(ask["gpu"])).name if ask.get("gpu") else None
        data["layout"] = {"pp": n, "tp_fewer": fewer}
        parts.append(say(lang, "tpd.cards" if gpu else "tpd.cards_any", n=n, gpu=gpu or "", tp=fewer, left=n - fewer))
    ctx.data["tp_rule"] = data
    return "\n\n".join(parts)


def idle_note(lang: str, model_id: str, total: int, used: int) -> str:
    """Why a plan on fewer of your cards than you own cannot take them all ('tensor parallelism cannot spread Llama 3.3
    70B over all 3: 64 attention heads do not divide by 3 …; pipeline parallel 3 uses all three'); empty when a
    tensor-parallel size uses all of them."""
    from gpu_advisor.knowledge import find_model
    from gpu_advisor.tools import arch

    model = find_model(model_id)
    if arch.is_generic(model) or not arch.tp_blockers(model, total):
        return ""
    return say(lang, "tpd.idle", model=model.name, n=total, why=_why(lang, model, total), free=total - used)
