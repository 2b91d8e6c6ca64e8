"""The reply to 'what's the biggest model i can run locally on a $3000 budget' with no card and no model named
(intent `budget_largest`, reading/budget_largest.py): the rigs the budget buys (one-off) or rents (a month), each
with the largest catalog model it runs in 4-bit (or the format said) and one user's speed, or fine-tunes with
QLoRA (tools.budget_rigs); what was assumed listed under them. No phase or model question before it.

Every figure comes from the tool's result, which travels in the payload (ctx.data["budget_largest"])."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.sized_load import context_each, users_at_once
from gpu_advisor.assistant.writers import gb, tps
from gpu_advisor.knowledge import find_gpu, used_prices
from gpu_advisor.tools.budget_rigs import BudgetRigs, Rig, budget_rigs
from gpu_advisor.tools.cost import HOURS_PER_MONTH
from gpu_advisor.tools.recommend import Workload

PLACEHOLDER_MODEL = "llama-3.1-8b"  # the workload's model slot: replaced by every size the tools try


def budget_intents(u: Any, profile: Any) -> None:
    """The conversation decides between this answer and the plan's: 'the biggest model for that money' beside a
    model or cards already known is the plan's question (assistant/asked_more.py); 'what's the biggest model I can
    run?' with no card, after a budget said and no model, is this one."""
    known = profile.model or profile.owned or profile.only
    if "budget_largest" in u.intents and known:
        u.intents = u.intents - {"budget_largest"}
        return
    spec = u.ask.get("largest")
    if spec is None or "largest" not in u.intents or known or spec.get("memory_gb") \
            or u.updates.get("owned") or u.updates.get("only") or not (profile.budget_usd or profile.budget_usd_per_month):
        return
    u.intents = (u.intents - {"largest"}) | {"budget_largest"}
    u.ask["budget_largest"] = {"trains": bool(spec.get("trains")), "whole_pc": False}


# What a follow-up to the answer may change and be answered again at once ('used is fine', 'what about 8-bit?',
# 'I need a whole PC', '$5000 then', 'for fine-tuning'); a model or a card named starts the plan instead.
FOLLOW_SLOTS = {"used_ok", "has_host", "precision", "budget_usd", "budget_usd_per_month", "budget_leeway",
                "utilisation", "phase", "method", "context", "seq_len", "region", "currency", "personal", "preference",
                "users", "users_range", "population", "population_daily", "population_monthly", "use_case", "product", "prompt_tokens",
                "min_tokens_per_s"}  # the load, the use and a speed: each rig sized again at them ('并发十来个人')
TRAIN_PHASES = ("fine-tune", "train-and-serve")


def budget_followed(turn: Any, state: Any, updates: dict[str, Any], after: dict[str, Any], text: str) -> None:
    """Right after this answer, before any plan, a message that changes only what it was sized on ('used is fine',
    'what about 8-bit?', 'I need a whole PC', '二手也行'): the same question again, on the profile now."""
    from langchain_core.messages import AIMessage

    from gpu_advisor.assistant.reading.text import word_pattern

    if state.get("results") or turn.topic or turn.compare or turn.whatif or set(turn.intents) & {"reset", "help"} \
            or after.get("model") or after.get("owned") or after.get("only"):
        return
    typed = text.lower()
    whole = bool(word_pattern("whole_build").search(typed) or word_pattern("budget_largest.whole_pc").search(typed))
    if not (updates or whole) or set(updates) - FOLLOW_SLOTS:
        return
    last = next((m for m in reversed(state.get("messages") or []) if isinstance(m, AIMessage)), None)
    if last is None or (last.additional_kwargs.get("gpu_advisor") or {}).get("topic") != "budget_largest":
        return
    if whole and after.get("budget_usd"):
        after["has_host"] = False
    turn.intents = sorted({*turn.intents, "budget_largest"} - {"whatif", "not_sure", "fit_check"})
    turn.ask["budget_largest"] = {"trains": after.get("phase") in TRAIN_PHASES, "whole_pc": whole}


def _workload(ctx: Any, spec: dict[str, Any]) -> tuple[Workload, float]:
    p = ctx.profile
    trains = bool(spec.get("trains")) or p.get("phase") in TRAIN_PHASES
    monthly = p.get("budget_usd_per_month") is not None
    fields: dict[str, Any] = {
        "phase": "fine-tune" if trains else "serve", "model": PLACEHOLDER_MODEL, "users": 1 if trains else users_at_once(p),
        "context": context_each(p), "region": ctx.region, "used_ok": bool(p.get("used_ok")),
        "has_host": p.get("has_host") is not False, "serve_precision": None if trains else p.get("precision"),
        "budget_leeway": p.get("budget_leeway") or 0.0,
        **({"budget_usd_per_month": p["budget_usd_per_month"]} if monthly else {"budget_usd": p.get("budget_usd")})}
    if p.get("seq_len"):
        fields["seq_len"] = p["seq_len"]
    hours = HOURS_PER_MONTH * (p.get("utilisation") or 1.0)
    return Workload(**fields), hours


def _name(ctx: Any, model_id: str) -> str:
    from gpu_advisor.assistant.engine import describe

    return describe("model", model_id, ctx.lang)


def _size(b: float) -> str:
    return f"{b:.1f}".removesuffix(".0")


def _cards(ctx: Any, r: Rig) -> str:
    name = find_gpu(r.gpu).name
    if r.whole_computer:
        return name
    return f"{r.gpus} × {name}" + (ctx.say("budget_largest.used") if r.used else "")


def _head(ctx: Any, r: Rig) -> str:
    if not r.buy:
        few = ctx.say("budget_largest.few_offers", n=r.offers) if r.few_offers else ""
        return ctx.say("budget_largest.rig_rent", cards=_cards(ctx, r), rate=ctx.usd(r.usd_per_gpu_hour or 0),
                       price=ctx.usd(r.usd), few=few)
    key = "budget_largest.rig_mac" if r.whole_computer else "budget_largest.rig_buy"
    return ctx.say(key, cards=_cards(ctx, r), price=ctx.usd(r.usd))


def _line(ctx: Any, r: Rig, trains: bool, users: int = 1) -> str:
    moe = ctx.say("budget_largest.moe", active=_size(r.active_params_b)) if r.active_params_b else ""
    if trains:
        held = ctx.say("budget_largest.trains", model=_name(ctx, r.model), params=_size(r.params_b), moe=moe,
                       used=gb(r.per_gpu_gb * 1e9), cap=gb(r.capacity_gb * 1e9))
    else:
        held = ctx.say("budget_largest.serves" + ("_users" if users > 1 else ""), model=_name(ctx, r.model),
                       params=_size(r.params_b), moe=moe, fmt=(r.precision or "").upper(),
                       tps=tps(r.decode_tokens_per_s or 0), users=users)
    if r.dense_model is not None:
        key = "budget_largest.dense_train" if trains else "budget_largest.dense"
        held += ctx.say(key, model=_name(ctx, r.dense_model), params=_size(r.dense_params_b or 0),
                        tps=tps(r.dense_tokens_per_s or 0))
    return "- " + _head(ctx, r) + ctx.say("budget_largest.colon") + held + ctx.say("budget_largest.end")


def _assumed(ctx: Any, found: BudgetRigs, budget: str) -> list[str]:
    lines = []
    if found.monthly:
        key = "budget_largest.assumed.rent" if found.hours_per_month == HOURS_PER_MONTH \
            else "budget_largest.assumed.rent_hours"
        lines.append(ctx.say(key, budget=budget, hours=f"{found.hours_per_month:,.0f}"))
    else:
        key = "budget_largest.assumed.buy" if found.has_host else "budget_largest.assumed.buy_pc"
        mac = ctx.say("budget_largest.assumed.mac") if any(r.whole_computer for r in found.rigs) else ""
        lines.append(ctx.say(key, budget=budget, pc=ctx.usd(found.pc_usd)) + mac)
        sold_used = [find_gpu(r.gpu).name for r in found.rigs if r.used and used_prices()[r.gpu].used_only]
        if found.used_said:
            lines.append(ctx.say("budget_largest.assumed.used_said"))
        elif sold_used:
            lines.append(ctx.say("budget_largest.assumed.used_only", cards=ctx.say("list_sep").join(sold_used)))
    if found.trains:
        lines.append(ctx.say("budget_largest.assumed.train", seq=f"{found.seq_len:,}"))
    elif found.precision:
        lines.append(ctx.say("budget_largest.assumed.format_said", fmt=found.precision.upper()))
    else:
        lines.append(ctx.say("budget_largest.assumed.format"))
    if not found.trains:
        key = "budget_largest.assumed.serve_local" if not found.monthly else "budget_largest.assumed.serve"
        lines.append(ctx.say(key + ("_users" if found.users > 1 else ""), context=f"{found.context:,}",
                             users=f"{found.users:,}"))
    return [ctx.say("answer.assumptions"), *("- " + x for x in lines)]


def budget_largest_reply(ctx: Any) -> str:
    spec = ctx.turn.ask.get("budget_largest") or {}
    w, hours = _workload(ctx, spec)
    found = budget_rigs(w, hours)
    if ctx.recorder is not None:
        ctx.recorder("budget_rigs", {"workload": w.model_dump(mode="json"), "hours_per_month": hours},
                     found.model_dump(mode="json"), 0.0)
    ctx.data["budget_largest"] = found.model_dump(mode="json")
    budget = ctx.usd(found.budget_usd)
    kind = ("rent" if found.monthly else "buy") + ("_train" if found.trains else "")
    lines = ["## " + ctx.say(f"budget_largest.title_{kind}", budget=budget), ""]
    if not found.rigs:
        lines.append(ctx.say("budget_largest.none_rent" if found.monthly else "budget_largest.none", budget=budget))
    else:
        lines.append(ctx.say("budget_largest.lead_rent" if found.monthly else "budget_largest.lead"))
        lines.append("")
        lines += [_line(ctx, r, found.trains, found.users) for r in found.rigs]
    lines.append("")
    lines += _assumed(ctx, found, budget)
    ctx.data["budget_largest"]["own_offer"] = True  # the follow-ups this answer takes, offered here (not the plan's)
    if found.rigs:
        lines += ["", ctx.say("budget_largest.offer_rent" if found.monthly else "budget_largest.offer_buy")]
    return "\n".join(lines)
