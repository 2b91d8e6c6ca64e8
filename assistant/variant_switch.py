"""The current model's variant asked for by a word or a direction ('what if we use the air version instead' after
GLM-4.5, 'the coder one', '换成air版', 'a smaller one', '用小一点的那个'): the catalog model it means becomes the
plan's model, said in one line; a word no model of that family carries is said too, never silently dropped."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.knowledge import find_model
from gpu_advisor.knowledge.model_variants import neighbour_size, variant_named


def variant_switch(asked: dict[str, str] | None, current: str | None, lang: str) -> tuple[str | None, str | None]:
    """(the model to plan with, or None to keep the current one; the line that says so, or None)."""
    if not asked or not current:
        return None, None
    try:
        model = find_model(current)
    except (LookupError, ValueError):
        return None, None  # a generic or unknown model: no family to look in
    if model.resolved_from != "catalog":
        return None, None
    if "same" in asked:  # 'the instruct one': the same weights' shape, the plan stands
        return None, say(lang, "reply.variant_same", word=asked["same"], name=model.name)
    if "size" in asked:
        chosen = neighbour_size(model.id, larger=asked["size"] == "larger")
        if chosen is None:
            return None, say(lang, f"reply.variant_no_{asked['size']}", name=model.name)
        return chosen, say(lang, f"reply.variant_{asked['size']}", name=model.name, chosen=find_model(chosen).name)
    chosen = variant_named(model.id, asked["word"])
    if chosen is None:
        return None, say(lang, "reply.variant_none", word=asked["word"], name=model.name)
    if chosen == model.id:
        return None, None  # 'the air version' while GLM-4.5-Air is planned: nothing moves
    return chosen, say(lang, "reply.variant_taken", word=asked["word"], name=model.name, chosen=find_model(chosen).name)


def apply_variant(u: Any, updates: dict[str, Any], current: str | None, lang: str, notes: list[str]) -> None:
    """Put the variant asked for into the turn's updates (a what-if on the plan) and its line into the notes."""
    if "model" in updates:
        return
    chosen, line = variant_switch(u.ask.get("variant"), current, lang)
    if chosen:
        updates["model"] = chosen
        u.intents.add("whatif")
    if line:
        notes.append(line)
