"""'我们想做个客服机器人，手上只有一张4090，跑什么模型合适？' answered with the models that run on the card
(assistant/weigh.py, `which_model`) or with the biggest model it holds (assistant/largest.py), then '主要回答退换货问题，并发也就十来个人', 'about 10 concurrent users', 'we need
16k context', 'at least 30 tokens/s each': the follow-up adds to the same question, so the same question is
answered again on the new figures (the candidates sized at that many users, that context, that speed), never
"which model?". Once a model is named the plan sizes it (the reader's model slot), so this keeps nothing then.

The question is kept in the reply's payload: the weigh answer records `which_model` and the card it was asked
of (ctx.data), and a follow-up that changes only what the candidates are sized on (WHICH_SLOTS) asks it again."""

from __future__ import annotations

from typing import Any

# What a follow-up may change and have the models that run on the card weighed again: the load (users, at once
# or as a range, a population), the context and the use that sets it, a speed or latency target, the format,
# how busy the cards are, a budget. A model, a card or a job of another kind said starts elsewhere.
WHICH_SLOTS = {"users", "users_range", "population", "population_daily", "population_monthly", "context", "use_case", "product", "personal",
               "prompt_tokens", "min_tokens_per_s", "ttft_ms", "ttft_percentile", "tpot_percentile", "e2e_ms",
               "precision", "kv_cache", "utilisation", "peak_hours", "peak_days", "budget_usd", "budget_usd_per_month",
               "budget_leeway", "region", "currency", "phase", "engine", "engine_app"}
SERVING = (None, "serve", "experiment", "production")  # the jobs whose candidates are weighed as served
# Intents a follow-up that only says figures may carry without asking something else (a what-if: 'what about 10 users?')
PLAIN = {"whatif", "not_sure", "fit_check"}


def asked_which(state: Any) -> tuple[str, dict[str, Any]] | None:
    """The last reply's topic and results when it answered which models run on a card: the candidates weighed
    (topic 'weigh', which_model) or the biggest model the cards serve (topic 'largest', not fine-tuning); else None."""
    from langchain_core.messages import AIMessage

    last = next((m for m in reversed(state.get("messages") or []) if isinstance(m, AIMessage)), None)
    payload = (last.additional_kwargs.get("gpu_advisor") or {}) if last is not None else {}
    results = payload.get("results") or {}
    topic = payload.get("topic")
    if not isinstance(results, dict):
        return None
    if topic == "weigh" and results.get("which_model"):
        return topic, results
    largest = results.get("largest") or {}
    if topic == "largest" and isinstance(largest, dict) and largest.get("gpu") and not largest.get("trains"):
        return topic, largest
    return None


def which_followed(turn: Any, state: Any, updates: dict[str, Any], after: dict[str, Any]) -> None:
    """Right after the models that run on a card, before any plan, a message that changes only what they were
    sized on: the same question again, on the profile now, on the card it was asked of."""
    if state.get("results") or turn.topic or turn.compare or turn.whatif or set(turn.intents) - PLAIN \
            or after.get("model") or not updates or set(updates) - WHICH_SLOTS or after.get("phase") not in SERVING:
        return
    found = asked_which(state)
    if found is None:
        return
    topic, kept = found
    turn.intents = sorted({*turn.intents, topic} - PLAIN)
    if topic == "largest":  # 'we own 2x 3090s, what model can we run?', then '10 users': the biggest at that load
        turn.ask["largest"] = {"methods": [], "each": False, "memory_gb": kept.get("memory_gb"), "trains": False}
        return
    turn.ask["weigh"] = {"models": [], "precisions": [], "which_model": True, "stand_in": {},
                         "speech": bool(kept.get("speech")), **({"count": kept["count"]} if kept.get("count") else {})}
    if not after.get("owned") and kept.get("card_id"):
        turn.cards = [kept["card_id"]]  # 'which model on an L40S?', then '20 users': that card again
        turn.counts = {kept["card_id"]: kept["count"]} if (kept.get("count") or 0) > 1 else {}
