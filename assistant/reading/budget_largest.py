"""The biggest model a budget pays for, no card and no model named ('what's the biggest model i can run locally on a
$3000 budget', '3000美元预算，本地最大能跑多大的模型', '$300 a month, biggest model i can run?', '预算5万，选什么模型
合适？', 'I have $5000 to spend, which model should I run?'): intent
`budget_largest`, answered at once by assistant/budget_largest.py with tools.budget_rigs: no phase or model
question. With a model or a card named, the question stays the plan's (reading/asked_more.py, reading/largest.py);
the engine drops the intent when the conversation already has a model or cards (assistant/budget_largest.py
keeps_plan). The words: words/budget_largest.yaml.

u.ask["budget_largest"]: {"trains": fine-tuning asked, "whole_pc": a computer asked for with the cards}."""

from __future__ import annotations

import unicodedata

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern
from gpu_advisor.assistant.reading.weigh import which_model_asked

# Intents the question replaces ('my budget is 3000 dollars, what's the largest model': no what-if of a card).
REPLACED = {"whatif", "fit_check", "not_sure", "concept", "explain", "why", "math", "capacity", "best_gpu", "largest"}
TRAIN_PHASES = ("fine-tune", "train-and-serve")
# What a card or a model said with it would be: the plan's question then, not this one.
NAMED_SLOTS = ("model", "owned", "only")


def read_budget_largest(m: Message, u: Understanding) -> None:
    if not (u.ask.get("biggest_model") or which_model_asked(m)) or not (u.updates.get("budget_usd") or u.updates.get("budget_usd_per_month")):
        return
    if m.gpus or m.names or m.unknown or m.unknown_card or any(u.updates.get(k) for k in NAMED_SLOTS):
        return  # 'deepseek v3 for 25k a month, else the biggest model for that money': under the plan (asked_more)
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    methods = [k for k in ("lora", "qlora", "full") if word_pattern(f"largest_methods.{k}").search(typed)]
    whole = bool(word_pattern("whole_build").search(typed) or word_pattern("budget_largest.whole_pc").search(typed))
    if whole and u.updates.get("budget_usd"):
        u.updates["has_host"] = False  # 'I need a whole PC too', '要配一台整机': the computer is bought with the cards
    u.intents = (u.intents - REPLACED) | {"budget_largest"}
    u.ask["budget_largest"] = {"trains": bool(methods) or u.updates.get("phase") in TRAIN_PHASES, "whole_pc": whole}
    u.compare_gpus, u.whatif_gpus, u.topic, u.aside = [], None, None, None
