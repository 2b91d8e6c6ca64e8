"""A product or model the user is on now ('we're on Kimi, want to serve llama 3.1 8b', '我们现在用Kimi，想自己部署
qwen2.5-7b'): said back, never sized in place of the model named. Grammar only: the words are in
words/mentions.yaml."""

from __future__ import annotations

from gpu_advisor.assistant.reading.message import Message
from gpu_advisor.assistant.reading.text import word_pattern


def product_now(m: Message) -> None:
    """An unknown name with no size, said as what they use today, beside a catalog model: a mention."""
    if m.unknown is None or m.unknown[1] or not m.names:
        return
    name = m.unknown[0]
    at = m.text.find(name.lower())
    cue = word_pattern("product_now_before").search(m.text[max(0, at - 40):at]) if at >= 0 else None
    if cue is None:
        return
    start, end = max(0, at - 40) + cue.start(), max(0, at - 40) + cue.end()
    if m.masked[start:end] == m.text[start:end]:  # "我们一直用Kimi": how long they have used it, not how busy the cards are
        m.masked = m.masked[:start] + word_pattern("not_quantities").sub(lambda x: " " * len(x.group()), m.masked[start:end]) \
            + m.masked[end:]
    m.unknown = None
    m.notes.append(("note.product_now", {"name": word_pattern("product_trailing").sub("", name)}))
