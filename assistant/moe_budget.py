"""buy2: a machine to buy for a very large mixture-of-experts model ('预算50万人民币，想自己搭一台机器跑deepseek v3
推理，内部20个人用，买啥？') on a budget that buys no GPU server holding it. Said plainly first, then what the budget
does buy, each sized by a tool: a CPU+GPU build (the routed experts in a server's 12-channel DDR5, attention and the
KV cache on one card: llama.cpp --n-cpu-moe / KTransformers, tools.offload), a smaller dense model on a few cards
within the budget (tools.recommend), and renting the server that holds the model, or the model's own API (review AY 9).
Words: catalog buy2.moe.*."""

from __future__ import annotations

import math
from typing import Any

from gpu_advisor.assistant.catalog import say

SERVER_RAM = "ddr5-4800-server-12ch"  # knowledge/host_memory.yaml
OFFLOAD_CARDS = ("rtx-pro-6000", "l20", "rtx-4090")  # one card beside the server's RAM: the first allowed
OFFLOAD_CARDS_CHINA = ("l20", "rtx-pro-6000", "rtx-4090")  # in China the L20 is sold through ordinary channels
SMALLER = ("qwen2.5-72b", "qwen2.5-32b")  # strong dense models that fit a few cards
FEW = 4  # the smaller model on 2-4 cards
BIG_MOE_B = 200  # a mixture of experts this large (total parameters, billions): no small card set holds it


def _cheapest_holding(rec: Any) -> Any:
    rows = [o for o in [rec.best, *rec.options] if o is not None and o.serves is not False and o.purchase_usd]
    return min(rows, key=lambda o: o.purchase_usd) if rows else None


def _cheapest_rented(rec: Any) -> Any:
    rows = [o for o in [rec.best, *rec.options] if o is not None and o.serves is not False and o.usd_per_hour]
    return min(rows, key=lambda o: o.usd_per_hour) if rows else None


def _offload(model: str, w: Any, budget: float) -> tuple[Any, Any] | None:
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.offload import OffloadInput, offload

    for gpu_id in OFFLOAD_CARDS_CHINA if w.region == "china" else OFFLOAD_CARDS:
        gpu = find_gpu(gpu_id)
        if (w.domestic_only and not gpu.domestic_china) or not gpu.buy_price_usd or gpu.buy_price_usd > budget / 3:
            continue
        try:
            r = offload(OffloadInput(model=model, gpu=gpu_id, precision="q4_k_m", context=w.context, ram=SERVER_RAM))
        except (ToolError, ValueError, KeyError, LookupError):
            continue
        if r.fits:
            return gpu, r
    return None


def _smaller(w: Any) -> Any:
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.recommend import recommend

    for model in SMALLER:
        try:
            r = recommend(w.model_copy(update={"model": model, "serve_precision": None}))
        except (ToolError, ValueError, LookupError):
            continue
        rows = [o for o in [r.best, *r.options] if o is not None and o.ok and o.gpus <= FEW and o.purchase_usd
                and o.purchase_usd <= w.budget_usd]  # a few cards, not a rack of consumer cards
        if rows:
            return r.model_name, min(rows, key=lambda o: o.purchase_usd or 0.0)
    return None


def moe_budget_block(answer: Any, lang: str, money: Any) -> str:
    """The block, or "" unless a very large MoE is to be bought for serving and no server holding it fits the budget."""
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.tools.models import resolve_model

    rec = answer.recommend if answer is not None else None
    if rec is None or (rec.best is not None and rec.best.ok):
        return ""
    w = rec.workload
    if w.preference != "buy" or not w.budget_usd or not w.spec.serves or w.spec.trains or w.owned:
        return ""
    model = resolve_model(w.model)
    if not model.num_experts or model.total_params_b < BIG_MOE_B:
        return ""
    holds = _cheapest_holding(rec)
    if holds is None or holds.purchase_usd <= w.budget_usd:
        return ""
    lines = [say(lang, "buy2.moe.head", budget=money(w.budget_usd), model=model.name, n=holds.gpus,
                 card=find_gpu(holds.gpu).name, price=money(holds.purchase_usd)), say(lang, "buy2.moe.instead")]
    built = _offload(model.id, w, w.budget_usd)
    if built is not None:
        gpu, r = built
        lo, hi = r.decode_tokens_per_s_range
        lines.append(say(lang, "buy2.moe.offload", card=gpu.name, price=money(gpu.buy_price_usd), ram=f"{math.ceil(r.ram_needed_gb):,}",
                         gpu_gb=f"{r.gpu_gb:,.0f}", tps=f"{r.decode_tokens_per_s:,.0f}", lo=f"{lo:,.0f}", hi=f"{hi:,.0f}",
                         flags=r.flags, users=w.users))
    small = _smaller(w)
    if small is not None:
        name, b = small
        lines.append(say(lang, "buy2.moe.smaller", model=name, n=b.gpus, card=find_gpu(b.gpu).name,
                         price=money(b.purchase_usd), users=w.users))
    rented = _cheapest_rented(rec)
    lines.append(say(lang, "buy2.moe.rent", model=model.name, n=rented.gpus, card=find_gpu(rented.gpu).name,
                     hour=money(rented.usd_per_hour)) if rented is not None else say(lang, "buy2.moe.api", model=model.name))
    return "\n".join(lines)
