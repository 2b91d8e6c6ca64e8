"""A comparison of cards kept across a correction (review S27 swapmodel): 'MI300X vs H200 for serving gpt-oss-120b,
which is better and why', then 'sorry i meant gpt-oss-20b, on a single card' (or '换成 qwen2.5 32b，单卡', 'make it
32k context', '50 users actually', 'with fp8 instead'). The second turn changes the job, not the question: the same
cards are weighed again on the new job, side by side with the verdict, and a count said with no card ('on a single
card', '单卡', 'each on one card') is that many of each card compared, never of the card the last verdict picked.

The comparison is the one the last reply gave (its payload's 'also' entry of code compare_cards): one source, the
reply the user read. A turn that names cards, asks another question, or starts another job leaves it."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, HumanMessage

from gpu_advisor.assistant.reading.message import Understanding

# What a turn may say and still be a correction of the job compared: a change asked as a question ('what about
# int4?') or as a check of the fit ('单卡能跑吗'). Any other intent is a question of its own.
CORRECTION_INTENTS = frozenset({"whatif", "fit_check"})
# The slots that say which cards, not the job: a turn that sets them has left the comparison.
CARD_SLOTS = frozenset({"owned", "only"})


def compared_before(messages: list[Any]) -> list[str]:
    """The cards the last reply compared side by side (catalog ids, in the order shown), or []."""
    for message in reversed(messages[:-1]):
        if isinstance(message, HumanMessage):
            continue
        if not isinstance(message, AIMessage):
            return []
        payload = message.additional_kwargs.get("gpu_advisor") or {}
        for entry in payload.get("also") or []:
            if isinstance(entry, dict) and entry.get("code") == "compare_cards":
                cards = [c.get("id") for c in entry.get("cards") or [] if isinstance(c, dict)]
                return list(dict.fromkeys(c for c in cards if c)) if len(cards) >= 2 else []
        return []
    return []


def models_before(messages: list[Any]) -> tuple[list[str], list[str]]:
    """The models the last reply weighed for the job (catalog ids) and the dimensions asked of them, or ([], [])."""
    for message in reversed(messages[:-1]):
        if isinstance(message, HumanMessage):
            continue
        if not isinstance(message, AIMessage):
            break
        choice = (message.additional_kwargs.get("gpu_advisor") or {}).get("model_choice") or {}
        models = [str(r["model"]) for r in choice.get("rows") or [] if isinstance(r, dict) and r.get("model")]
        return (models, list(choice.get("dims") or [])) if len(models) >= 2 else ([], [])
    return [], []


def _correction(u: Understanding, updates: dict[str, Any]) -> bool:
    """Whether the turn only changes the job (or the count of cards) and names no cards or question of its own."""
    if u.compare_gpus or u.whatif_gpus or u.cards or u.added_cards or u.topic or u.aside or u.also:
        return False
    if u.intents - CORRECTION_INTENTS or u.ask.get("models") or u.owned_untyped:
        return False
    if CARD_SLOTS & set(updates):
        return False
    return bool({k: v for k, v in updates.items() if v is not None} or u.card_count)


def keep_compared(u: Understanding, state: Any, updates: dict[str, Any], fresh: bool) -> bool:
    """Carry the last reply's comparison into this turn when it only corrects the job: the cards weighed again
    (u.compare_gpus, u.cards), at the count said for each, and the comparison asked beside the plan (u.also); the
    models weighed again (u.ask models and dims) when the correction keeps the model. True when it did."""
    phase = (state.get("profile") or {}).get("phase")
    if fresh or not _correction(u, updates) or updates.get("phase") not in (None, phase):
        return False  # another job ('what about fine-tuning it'): the cards named are weighed for it (phase_moved)
    card_count = u.card_count
    return _keep_cards(u, state) | _keep_models(u, state, updates, card_count)


def _keep_models(u: Understanding, state: Any, updates: dict[str, Any], card_count: int | None) -> bool:
    """'qwen2.5 72b vs llama 3.1 70b, which is cheaper to host?', then 'make it 32k context': both models again. A new
    model said ('sorry i meant qwen2.5 32b') is another question: the pair is left."""
    models, dims = models_before(list(state.get("messages") or []))
    if len(models) < 2 or "model" in updates or card_count:
        return False
    u.ask = {**u.ask, "models": models, **({"dims": dims} if dims else {})}
    return True


def _keep_cards(u: Understanding, state: Any) -> bool:
    """The cards of the last comparison weighed again, at the count said now ('on a single card': one of each), else
    at the counts said with them before ('2 3090s vs one 4090')."""
    cards = compared_before(list(state.get("messages") or []))
    if len(cards) < 2:
        return False
    previous = dict(((state.get("results") or {}).get("counts")) or {})
    counts = {g: int(u.card_count) for g in cards} if u.card_count else {g: n for g, n in previous.items() if g in cards}
    u.compare_gpus, u.cards, u.counts = list(cards), list(cards), counts
    u.also, u.card_count, u.recount = "compare_cards", None, None
    u.ask = {k: v for k, v in u.ask.items() if k not in ("one_card", "recount")}
    u.intents = set(u.intents) - {"fit_check"}
    return True
