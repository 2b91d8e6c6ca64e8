"""Why the user's own setup is slow, then what their budget buys (review AG #20: 'we run a 4x A6000 box (48gb each, no
nvlink) serving llama 3.1 70b awq for about 20 people. users are complaining its slow. should we buy another box or
upgrade … budget maybe 40k' got 'rent 4 more', a 40,960-token context and NVLink they don't have).

First their cards' speed for the job (the plan's own figures on the cards they own) and why: memory bandwidth, and
the cards of one copy joined over PCIe. Then the two ways forward within the budget, each a tool's figures: a
second box like theirs as a second copy of the model (the recommend tool on twice their cards: the users shared
out), and the fastest set of other cards whose purchase fits the budget (the plan's own options)."""

from __future__ import annotations

import re
from typing import Any

from gpu_advisor.assistant.catalog import say


def _mine(rec: Any) -> Any:
    best = rec.best
    if best is not None and best.owned and not best.owned_gpus:
        return best
    return next((o for o in rec.options if o.owned and not o.owned_gpus), None)


def _second_box(rec: Any, mine: Any, recorder: Any) -> tuple[Any, float | None] | None:
    """Twice the user's cards as two copies laid out as theirs (the recommend tool's evaluate, the users shared out),
    and what a box like theirs costs to buy."""
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.tools.recommend import Workload, evaluate
    from gpu_advisor.tools.scale import Layout

    if mine.engine is None or mine.precision is None:
        return None
    gpu, n, data = find_gpu(mine.gpu), mine.gpus, rec.workload.model_dump()
    both = Workload.model_validate({**data, "owned": [f"{2 * n}x {mine.gpu}"]})
    copies = 2 * max(mine.replicas, 1)
    layout = Layout(tp=mine.tp or n // max(mine.replicas, 1), replicas=copies, users_per_replica=-(-both.users // copies),
                    engine=mine.engine, precision=mine.precision, kv_precision=mine.kv_precision)
    two = evaluate(both, gpu, 2 * n, owned=True, layout=layout)
    if recorder is not None:
        recorder("evaluate", {"workload": both.model_dump(mode="json"), "layout": layout.model_dump(mode="json")},
                 two.model_dump(mode="json") if two else {}, 0.0)
    if two is None or not two.serves or two.decode_tokens_per_s is None:
        return None
    box = evaluate(Workload.model_validate({**data, "owned": []}), gpu, n)
    return two, box.purchase_usd if box is not None else None


def _upgrade(rec: Any, mine: Any, budget: float | None) -> Any:
    """The fastest per user of the plan's options that serve the job, beat the user's cards and cost no more than the
    budget to buy (the cheaper of two as fast)."""
    rows = [o for o in rec.options if not o.owned and o.ok and o.decode_tokens_per_s and o.purchase_usd
            and (budget is None or o.purchase_usd <= budget)
            and o.decode_tokens_per_s > (mine.decode_tokens_per_s or 0) * 1.2]
    return max(rows, key=lambda o: (round(o.decode_tokens_per_s), -o.purchase_usd), default=None)


def slow_words(turn_ask: dict[str, Any], answer: Any, lang: str, recorder: Any = None) -> tuple[str, dict[str, Any]] | None:
    """The paragraph on their own cards' speed and the options in the budget, with its figures; None when the
    message did not say their setup is slow or the plan has no figures for their cards."""
    from gpu_advisor.assistant.quant_lever import quant_words
    from gpu_advisor.assistant.writers import cash, seconds, tps
    from gpu_advisor.knowledge import find_gpu

    rec = answer.recommend
    if not turn_ask.get("slow") or rec is None or rec.workload is None:
        return None
    mine = _mine(rec)
    if mine is None or not mine.serves or not mine.decode_tokens_per_s or mine.ttft_s is None:
        return None
    gpu, w = find_gpu(mine.gpu), rec.workload
    pcie = bool(turn_ask.get("no_link")) or gpu.interconnect in ("pcie", "nvlink-bridge")
    split = mine.tp or (mine.gpus // max(mine.replicas, 1))
    link = "pcie" if pcie else "nvlink"
    text = [say(lang, "owned_slow.why", n=mine.gpus, card=gpu.name, users=w.users, tps=tps(mine.decode_tokens_per_s),
                ttft=seconds(mine.ttft_s), bw=f"{gpu.memory_bandwidth_gbps:,.0f}",
                link=say(lang, f"owned_slow.link_{link}", split=split) if split > 1 else "",
                engine=say(lang, "owned_slow.engine_awq" if (w.serve_precision or "") == "awq" else "owned_slow.engine"))]
    data: dict[str, Any] = {"gpu": mine.gpu, "gpus": mine.gpus, "tokens_per_s": mine.decode_tokens_per_s,
                            "ttft_s": mine.ttft_s, "pcie": pcie}
    budget = w.budget_usd
    second = _second_box(rec, mine, recorder)
    up = _upgrade(rec, mine, budget)
    within = say(lang, "owned_slow.within", budget=cash(budget, rec)) if budget else say(lang, "owned_slow.ways")
    parts = []
    if second is not None:
        two, price = second
        per_copy = two.users_per_replica or -(-w.users // max(two.replicas, 1))
        parts.append(say(lang, "owned_slow.second_box", n=mine.gpus, card=gpu.name, users=per_copy,
                         tps=tps(two.decode_tokens_per_s or 0),
                         price=say(lang, "owned_slow.price", price=cash(price, rec)) if price else ""))
        data["second_box"] = {"gpus": two.gpus, "tokens_per_s": two.decode_tokens_per_s, "purchase_usd": price}
    if up is not None:
        parts.append(say(lang, "owned_slow.upgrade", n=up.gpus, card=up.gpu_name, price=cash(up.purchase_usd, rec),
                         tps=tps(up.decode_tokens_per_s), users=w.users, ttft=seconds(up.ttft_s or 0)))
        data["upgrade"] = {"gpu": up.gpu, "gpus": up.gpus, "tokens_per_s": up.decode_tokens_per_s,
                           "purchase_usd": up.purchase_usd}
    elif budget:
        parts.append(say(lang, "owned_slow.no_upgrade", budget=cash(budget, rec)))
    if parts:
        sep = "" if lang == "zh" else " "
        text.append(within + sep + sep.join(parts))
    quant = quant_words(rec, mine, lang) if turn_ask.get("quant") else None  # 'does quantization fix it?'
    text += [quant] if quant else []
    return "\n\n".join(text), data


def place_first(text: str, block: str) -> str:
    """The block right under the reply's headline (or first, when there is none)."""
    parts = text.split("\n\n")
    at = next((i for i, p in enumerate(parts) if p.startswith("## ")), None)
    if at is None:
        return block + "\n\n" + text
    return "\n\n".join([*parts[:at + 1], block, *parts[at + 1:]])


def with_slow(text: str, turn_ask: dict[str, Any], answer: Any, lang: str, recorder: Any = None
              ) -> tuple[str, dict[str, Any] | None]:
    """The reply with the paragraph on their slow setup under its headline, and that paragraph's figures."""
    slow = slow_words(turn_ask, answer, lang, recorder)
    return (place_first(text, slow[0]), slow[1]) if slow else (text, None)


def counted_owned(u: Any, updates: dict[str, Any]) -> list[str] | None:
    """'wait we actually have 2 of them in the box' (review AG #9 T2 got 'Buy 2 × RTX 6000 Ada'): the count said of
    the card just named, as the cards owned (the engine read it as that many of the plan's card, or as a what-if)."""
    if not u.owns_named:
        return None
    only = [str(x) for x in updates.get("only") or []]
    if only and all(re.match(r"\d+x ", x) for x in only):  # the count this message said, of the card named before
        return only
    if u.card_count and u.whatif_gpus and int(u.whatif_gpus[0]) == u.card_count:
        said = [f"{u.card_count}x {u.whatif_gpus[1]}"]
        u.whatif_gpus = None
        return said
    return None
