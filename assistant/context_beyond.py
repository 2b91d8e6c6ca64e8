"""A context asked beyond what the model reads ('serve llama 3 70b at 32k context': Llama 3 reads 8,192 tokens): said
at once, with the models of the same size and layout that read that far (Llama 3.1 70B, Llama 3.3 70B) or, when
none is on record, that it needs RoPE scaling or a longer-context model. From the model records' max_context
(knowledge/data/models.yaml); the note is the catalog's note.context_beyond*."""

from __future__ import annotations

from typing import Any

MAX_SIBLINGS = 2
SAME_SIZE = 0.05  # parameter counts within 5% are the same size


def siblings(model_id: str, tokens: int) -> list[Any]:
    """Catalog models of the same family, layout and size as `model_id` that read at least `tokens` tokens."""
    from gpu_advisor.knowledge import models

    base = next(m for m in models() if m.id == model_id)
    return [m for m in models() if m.id != base.id and m.family == base.family and m.max_context >= tokens
            and m.num_layers == base.num_layers and m.hidden_size == base.hidden_size
            and abs(m.total_params_b - base.total_params_b) <= SAME_SIZE * base.total_params_b][:MAX_SIBLINGS]


def context_beyond(profile: Any, updates: dict[str, Any], lang: str, notes: list[str]) -> None:
    """Add the note when this turn said the model or the context and the context is beyond the model's."""
    from gpu_advisor.assistant.catalog import say
    from gpu_advisor.assistant.context_alike import alike
    from gpu_advisor.knowledge import find_model, models

    if "model" not in updates and "context" not in updates:
        return
    model_id, tokens = updates.get("model") or profile.model, updates.get("context") or profile.context
    if not model_id or not tokens:
        return
    try:
        model = find_model(model_id)
    except (LookupError, ValueError):
        return
    if int(tokens) <= model.max_context or model.id not in {m.id for m in models()}:
        return  # a bare size ('a 14B model') reads what it is told: no record to hold it to
    values = {"model": model.name, "limit": f"{model.max_context:,}", "asked": f"{int(tokens):,}"}
    if model.yarn_context and int(tokens) <= model.yarn_context:  # 'qwen2.5-7b 128k': its card's YaRN reaches it
        native = model.yarn_original or model.max_context
        notes.append(say(lang, "note.context_yarn", **values, native=f"{native:,}", reach=f"{model.yarn_context:,}",
                         factor=f"{model.yarn_context / native:g}"))
        return
    found = siblings(model.id, int(tokens))
    if found:
        names = say(lang, "list_sep").join(m.name for m in found)
        notes.append(say(lang, "note.context_beyond", **values, others=names, reach=f"{min(m.max_context for m in found):,}"))
    elif near := alike(model.id, int(tokens)):  # 'gemma 2 27b at 32k': Gemma 3 27B, Mistral Small 3.1 24B read it
        names = say(lang, "list_sep").join(m.name for m in near)
        notes.append(say(lang, "note.context_beyond_alike", **values, others=names,
                         reach=f"{min(m.max_context for m in near):,}"))
    else:
        notes.append(say(lang, "note.context_beyond_none", **values))
