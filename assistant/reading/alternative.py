"""A second model asked about as the alternative to the planned one: "thinking mixtral 8x7b for an internal coding
assistant, 150 devs ... would qwen2.5 coder 32b be cheaper to run?", "打算用mixtral 8x7b给150个开发者，或者用qwen2.5
coder 32b会不会更省". Before, the second model was read as a second service beside the first ('also serving of
Qwen2.5-Coder 32B, at the same time'); now both are the models weighed for one job (u.ask["models"], the planned one
first), sized on the same load by assistant/model_choice.py, which says which costs less. The words:
words/alternative.yaml."""

from __future__ import annotations

from gpu_advisor.assistant.reading.message import Message
from gpu_advisor.assistant.reading.text import word_pattern

# Characters read before and after a model's name for the comparison.
WINDOW = 60


def _asked_about(m: Message, start: int, end: int) -> bool:
    """Whether the model at text[start:end] is asked about as cheaper (the comparison right beside its name)."""
    text = m.text
    after = text[end:end + WINDOW]
    before = text[max(0, start - WINDOW):start]
    compared = word_pattern("alternative.after.en").search(after) or word_pattern("alternative.after.zh").search(after)
    if not compared:
        return bool(word_pattern("alternative.before").search(before))
    cut = list(word_pattern("alternative.clause_start").finditer(before))
    clause = before[cut[-1].end():] if cut else before
    return bool(word_pattern("alternative.asked").search(clause + " " + after[:compared.end() + 8]))


def alternative_models(m: Message, named: list[tuple[int, int, str]]) -> list[str]:
    """[planned model, alternative] when exactly two models are named and one is asked about as cheaper; else []."""
    models = list(dict.fromkeys(model_id for _s, _e, model_id in named))
    if len(models) != 2:
        return []
    asked = {model_id for s, e, model_id in named if _asked_about(m, s, e)}
    if len(asked) != 1:
        return []
    (other,) = asked
    return [next(x for x in models if x != other), other]
