"""A reasoning model's thinking mode switched ('关掉thinking模式的', 'with thinking off', 'enable_thinking=False',
'开启思考模式'): the sizing counts the output tokens said, so the switch changes nothing the tools size; it is
acknowledged, never 'not understood', and for thinking on the note says that a reasoning model writes its
thinking before the answer, often several times the answer's tokens (give the output with it counted).
The words: thinking_off / thinking_on (words/job.yaml)."""

from __future__ import annotations

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern


def read_thinking(m: Message, u: Understanding) -> None:
    """Note the thinking-mode switch said (off first: 'with thinking off' also holds 'with thinking')."""
    said = next((key for key in ("thinking_off", "thinking_on") if word_pattern(key).search(m.masked)), None)
    if said is None:
        return
    note: tuple[str, dict[str, str]] = (f"note.{said}", {})
    if note not in u.notes:
        u.notes.append(note)
