"""Self-hosting weighed against an API named by its maker with no model named ('deepseek api 输入两块钱一百万token，
输出八块，每天五千万token，自建划算吗', 'we pay the deepseek api … would self-hosting be cheaper?'): the model to host is the
one that API serves (knowledge/data/api_prices.yaml: deepseek-chat serves DeepSeek-V3; read as u.ask["api_model"] by
reading/api_paid.py), taken and said so the user can change it, never a question of which version. An API that
serves no open model (gpt-4o-mini), another family named or a model planned before leaves the model alone."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.reading import Understanding
from gpu_advisor.knowledge import find_model
from gpu_advisor.knowledge.api_prices import api_price_by_id


def api_served(u: Understanding, updates: dict[str, Any], lang: str) -> str | None:
    """The model the named API serves set in `updates` when no model is named or planned; the note that says so,
    else None."""
    served, price = u.ask.get("api_model"), api_price_by_id(str(u.ask.get("api_named")))
    if not served or price is None or "model" in updates:
        return None
    updates["model"] = served
    return say(lang, "note.api_model", model=find_model(served).name, provider=price.provider, api=price.id)
