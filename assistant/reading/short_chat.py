"""A service said to carry short chats ("mostly short chats", "quick questions", "短对话", "简短问答") with no
lengths given: each request's prompt and answer are short (knowledge rules.short_chat_prompt_tokens and
short_chat_output_tokens, the one place those lengths live), and the reply says which it took (note.short_chat*)."""

from __future__ import annotations

from gpu_advisor.assistant.reading.message import Message
from gpu_advisor.knowledge import rules

SERVES = (None, "serve", "production", "train-and-serve", "experiment")  # phases whose requests are chats
# the note for the lengths taken from the words: the prompt's, the answer's, or both
NOTES = {("prompt_tokens",): "note.short_chat_prompt", ("output_tokens",): "note.short_chat_output",
         ("output_tokens", "prompt_tokens"): "note.short_chat"}


def short_chat(m: Message, slot: str) -> int | None:
    """The length a short chat gives `slot` ("prompt_tokens" or "output_tokens") when the message says short
    chats and not that length; one note per message says the lengths taken (both when both)."""
    if m.phase not in SERVES:
        return None
    if not m.live("short_chat"):
        if slot != "prompt_tokens" or not m.live("short_prompt"):
            return None
        m.notes.append(("note.short_prompt", {"prompt": f"{rules().short_chat_prompt_tokens:,}"}))
        return rules().short_chat_prompt_tokens  # 'short prompts': the prompt only
    r = rules()
    lengths = {"prompt_tokens": r.short_chat_prompt_tokens, "output_tokens": r.short_chat_output_tokens}
    taken = {slot} | {s for slots, key in NOTES.items() for k, _v in m.notes if k == key for s in slots}
    m.notes[:] = [(k, v) for k, v in m.notes if k not in NOTES.values()]
    m.notes.append((NOTES[tuple(sorted(taken))], {"prompt": f"{lengths['prompt_tokens']:,}",
                                                  "output": f"{lengths['output_tokens']:,}"}))
    return lengths[slot]
