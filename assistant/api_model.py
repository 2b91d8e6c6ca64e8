"""Self-hosting weighed against an API named by its maker with no model named ('deepseek api 输入两块钱一百万token，
输出八块，每天五千万token，自建划算吗', 'we pay the deepseek api … would self-hosting be cheaper?'): the model to host is the
one that API serves (knowledge/data/api_prices.yaml: deepseek-chat serves DeepSeek-V3), taken and said so the user
can change it, never a question of which version. An API that serves no open model (gpt-4o-mini), another family
named ('deepseek api … self-host qwen': which Qwen is asked) or a model planned before leaves the model alone."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.reading import Understanding
from gpu_advisor.knowledge import find_model
from gpu_advisor.knowledge.api_prices import api_price_by_id


def api_served(u: Understanding, updates: dict[str, Any], lang: str) -> str | None:
    """The model the named API serves set in `updates` when self-hosting is weighed against that API and no model is
    named or planned; the note that says so, else None."""
    named = u.ask.get("api_named")
    price = api_price_by_id(named) if named and u.ask.get("break_even") else None
    if price is None or not price.models or "model" in updates:
        return None
    model = find_model(price.models[0])
    families = {v.get("family_key") for k, v in u.notes if k == "note.family_which"}
    if families - {model.family}:  # 'deepseek api … self-host qwen': another family, asked which
        return None
    updates["model"] = model.id
    return say(lang, "note.api_model", model=model.name, provider=price.provider, api=price.id)
