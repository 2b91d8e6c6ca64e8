"""A model named as speculative decoding's draft ('llama 3.1 8b as draft for 70b', 'draft model qwen2.5 0.5b',
'用llama 3.2 1b做草稿模型给70B加速', 'qwen2.5 32b用qwen2.5 0.5b当draft'): the draft, never the model to serve. Found
when the message is prepared (reading.message), its words and name masked and taken out of the names found, so the
model reader sees only the model it drafts for; read_draft then records it (slot draft_model, speculative 'draft')
and gives a model said as a bare size ('for 70b') the draft's family. The words are words/draft_model.yaml."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gpu_advisor.assistant.reading.clauses import negated
from gpu_advisor.assistant.reading.text import MASK, word_pattern
from gpu_advisor.knowledge import find_model, models

if TYPE_CHECKING:  # reading.message prepares a message with find_draft
    from gpu_advisor.assistant.reading.message import Message, Understanding

Span = tuple[int, int, str]  # (start, end, a catalog id, a size such as '8B', or EAGLE)
EAGLE = "eagle3"  # an EAGLE head named as the draft: that method, no draft model


def _models(masked: str, names: list[tuple[int, int, str]]) -> list[Span]:
    sizes = [(x.start(), x.end(), f"{float(x['n']):g}B") for x in word_pattern("draft_bare_size").finditer(masked)]
    heads = [(x.start(), x.end(), EAGLE) for x in word_pattern("draft_eagle").finditer(masked)]
    return sorted([*names, *sizes, *heads])


def _near(start: int, end: int, found: list[Span], masked: str) -> Span | None:
    """The model right before the role word ('X as the draft'), else right after it ('draft model X')."""
    before = [x for x in found if x[1] <= start and word_pattern("draft_link_before").match(masked[x[1]:start])]
    if before:
        return before[-1]
    after = [x for x in found if x[0] >= end and word_pattern("draft_link_after").match(masked[end:x[0]])]
    return after[0] if after else None


def find_draft(masked: str, names: list[tuple[int, int, str]]) -> tuple[str, list[tuple[int, int, str]], str | None]:
    """(the masked text with the role's words and the draft masked, the names left, the draft or None)."""
    found = _models(masked, names)
    for x in word_pattern("draft_role").finditer(masked):
        if negated(masked, x.start()):
            continue
        model = _near(x.start(), x.end(), found, masked)
        if model is None:
            continue
        lo, hi = min(x.start(), model[0]), max(x.end(), model[1])
        masked = masked[:lo] + MASK * (hi - lo) + masked[hi:]
        return masked, [n for n in names if not lo <= n[0] < hi], model[2]
    return masked, names, None


def _size(spec: str) -> float | None:
    try:
        model = find_model(spec)
    except (LookupError, ValueError):
        return None
    return model.total_params_b if model.family == "generic" else None


def _family_size(draft_id: str, size: float) -> str | None:
    """The model of the draft's family and tokenizer at the size said ('llama 3.2 1b as draft for 70b'): its own
    line's first ('llama-3.1-8b', 70 -> 'llama-3.1-70b'), else the family's record of that size."""
    from gpu_advisor.assistant.reading.weigh import sibling  # reading.weigh reads a prepared Message

    found = sibling(draft_id, size)
    if found is not None:
        return found
    draft = find_model(draft_id)
    return next((m.id for m in models() if m.family == draft.family and m.vocab_size == draft.vocab_size
                 and round(m.total_params_b) == round(size) and m.id != draft_id), None)


def read_draft(m: Message, u: Understanding) -> None:
    """Record the draft model found (its size said alone: the served model's family at that size) and the model it
    drafts for said as a bare size: the draft's family at that size."""
    if m.draft is None:
        return
    if m.draft == EAGLE:  # 'eagle3 as the draft for llama 3.3 70b'
        u.updates["speculative"] = EAGLE
        u.updates.setdefault("phase", "serve")
        return
    target = u.updates.get("model")
    draft_size, target_size = _size(m.draft), _size(target) if isinstance(target, str) else None
    draft: str | None = m.draft
    if draft_size is not None:  # '8b as draft for llama 3.1 70b'
        from gpu_advisor.assistant.reading.weigh import sibling  # reading.weigh reads a prepared Message

        draft = sibling(target, draft_size) if isinstance(target, str) and target_size is None else None
    elif target_size is not None:  # 'llama 3.1 8b as draft for 70b'
        u.updates["model"] = _family_size(m.draft, target_size) or target
    if u.updates.get("speculative") not in ("eagle3", "mtp"):
        u.updates["speculative"] = "draft"
    if draft is not None and u.updates.get("speculative") == "draft":
        u.updates["draft_model"] = draft
    if u.updates.get("model") and not u.updates.get("phase"):
        u.updates["phase"] = "serve"  # a draft speeds up decoding: the model is served
