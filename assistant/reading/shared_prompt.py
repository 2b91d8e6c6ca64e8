"""A prompt said on top of each item's or request's own length ('tickets are ~300 tokens each plus a ~400 token
prompt with the label definitions', '每条300 token，另外加一个400 token的提示词'): read with every item, so the tokens
in are the two added, said (note.shared_prompt). The prompt is the same each time: prefix caching would read it
once, which the tools do not model, and the note says so. The words: shared_prompt_before/after (words/units.yaml)."""

from __future__ import annotations

from gpu_advisor.assistant.reading.message import Message


def shared_prompt(m: Message) -> int:
    """The tokens of the shared prompt said in this message, 0 when none."""
    found = [q for q in m.role("shared_prompt_tokens") if q.value >= 1]
    return round(found[-1].value) if found else 0


def with_shared_prompt(m: Message, each: int | None) -> int | None:
    """`each` (an item's or a request's own tokens) with the shared prompt added, said; the prompt alone
    when no own length was said; `each` when no shared prompt was said."""
    shared = shared_prompt(m)
    if not shared:
        return each
    if not each:
        return shared
    note = ("note.shared_prompt", {"each": f"{each:,}", "shared": f"{shared:,}", "total": f"{each + shared:,}"})
    if note not in m.notes:
        m.notes.append(note)
    return each + shared
