"""Which model of a family a name means: the conversation's generation for a family and a size said as a
follow-up ('what about 14b qwen' after Qwen2.5 7B is Qwen2.5 14B), and the text model under a vision one
for a job with no images ('mistral small 24b' to classify tickets). A name with its version is taken as
typed."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from gpu_advisor.assistant.reading.names import family_words
from gpu_advisor.assistant.reading.text import word_pattern
from gpu_advisor.knowledge import find_model, models
from gpu_advisor.knowledge.resolve import line_sibling, names_version, size_label, text_sibling

if TYPE_CHECKING:
    from gpu_advisor.assistant.reading.message import Message

_BARE_SIZE = re.compile(r"\d+(?:\.\d+)?B")


def text_model(model_id: str, text: str) -> tuple[str, tuple[str, dict[str, str]] | None]:
    """A vision-language model named by family and size only, in a message that says nothing of images,
    scans or pages: the text model it extends (same layout, no vision tower, no image tokens), and a note
    that says so. Otherwise the model as read, no note."""
    if names_version(model_id, text) or word_pattern("vision_cue").search(text):
        return model_id, None
    sibling = text_sibling(model_id)
    if not sibling:
        return model_id, None
    return sibling, ("note.text_model", {"name": find_model(sibling).name, "vision": find_model(model_id).name})


def as_text_model(m: Message, spec: str) -> str:
    """The model read (a catalog id or a size), the text model for a vision one with no images said."""
    if spec[0].isdigit():
        return spec
    chosen, note = text_model(spec, m.text)
    longest = max((q.context_tokens for q in m.role("context")), default=0)
    if note and longest > find_model(chosen).max_context:
        return spec  # "mistral small 24b at 64k context": only the vision model reads that far
    if note:
        m.notes.append(note)
    return chosen


def same_generation(current: str | None, new: str | None, text: str) -> tuple[str, bool] | None:
    """A size said after a model was planned ('the 70b one', '换成32b的', 'what about 14b qwen'): the model
    of the current one's line with that size when the catalog has it (Qwen2.5 7B -> Qwen2.5 14B), and
    whether the user named the family (else only the size). None when the new name carries its own version
    ('qwen3 14b'), names another family, or the line has no model of that size."""
    if not current or not new or current == new:
        return None
    try:
        now = find_model(current)
    except (LookupError, ValueError):
        return None
    if now.family == "generic":
        return None
    if not _BARE_SIZE.fullmatch(new):
        try:
            said = find_model(new)
        except (LookupError, ValueError):
            return None
        if said.family != now.family or names_version(said.id, text):
            return None
        sibling = line_sibling(current, size_label(said.id))
        return (sibling, True) if sibling and sibling != said.id else None
    said_families = set(re.findall(r"[a-z][a-z\-]*", text.lower())) & family_words()
    if said_families and now.family not in said_families:
        return None  # "what about 14b llama" while on Qwen: another family, read elsewhere
    versioned = [x.id for x in models() if x.family == now.family and new.lower() in size_label(x.id).split("-")[:1]
                 and names_version(x.id, text)]
    if versioned:
        return versioned[0], False  # "14b qwen3": the generation said, whatever the order
    sibling = line_sibling(current, new.lower())
    return (sibling, False) if sibling else None



def missing_size(current: str | None, size: str | None) -> dict[str, Any] | None:
    """'what about the 32b' after Llama 3.1 8B: the line has no 32B. Its name and the sizes it comes in (for
    the note that says the size was sized as another model), or None when the line has that size."""
    from gpu_advisor.knowledge.resolve import line_models

    if not current or not size or not _BARE_SIZE.fullmatch(size):
        return None
    try:
        now = find_model(current)
    except (LookupError, ValueError):
        return None
    line = line_models(current)
    if now.family == "generic" or len(line) < 2 or size.lower() in {size_label(x) for x in line}:
        return None
    # the name before its size, without the separator ('DeepSeek-R1-Distill-Qwen-32B': never 'DeepSeek-R1-Distill-Qwen-')
    name = re.sub(r"[\s_-]*\d+(?:\.\d+)?B\b.*$", "", now.name).strip() or now.name
    return {"line": name, "sizes": [size_label(x).upper() for x in line], "size": size}
