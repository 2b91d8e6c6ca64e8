"""'为什么不用 LoRA？全参有必要吗', 'is full fine-tuning really necessary?', 'why not lora, is full really needed': a
fine-tuning method named as the one QUESTIONED (words/job.yaml method_questioned right after it) is not the one
asked for. The method proposed beside it wins; questioned alone after its own plan, a full fine-tune is weighed
against LoRA, the lighter method that usually replaces it. The engine answers the switch with reasons
(assistant/method_switch.py); u.ask["method_questioned"] keeps which one was questioned."""

from __future__ import annotations

from assistant.reading.message import Message, Understanding
from assistant.reading.text import word_pattern

METHODS = ("qlora", "lora", "full")
# The method weighed against one questioned alone: a full fine-tune's usual replacement.
LIGHTER = {"full": "lora"}


def _hits(m: Message) -> list[tuple[int, str, bool]]:
    """Each method named: (where, which, questioned)."""
    out: list[tuple[int, str, bool]] = []
    qlora = [x.span() for x in word_pattern("method.qlora").finditer(m.masked)]
    for name in METHODS:
        for x in word_pattern(f"method.{name}").finditer(m.masked):
            if name == "lora" and any(s <= x.start() < e for s, e in qlora):
                continue
            asked = bool(word_pattern("method_questioned").match(m.masked[x.end():x.end() + 30]))
            out.append((x.start(), name, asked))
    return sorted(out)


def read_method_why(m: Message, u: Understanding) -> None:
    if u.intents & {"reset", "help", "empty", "method_compare"} or u.choice is not None:
        return
    hits = _hits(m)
    questioned = [name for _s, name, asked in hits if asked]
    if not questioned:
        return
    proposed = [name for _s, name, asked in hits if not asked and name not in questioned]
    q = questioned[-1]
    u.ask = {**u.ask, "method_questioned": q}
    u.intents = (u.intents - {"whatif"}) | {"why_not"}
    to = proposed[-1] if proposed else LIGHTER.get(q)
    if to:
        u.updates["method"] = to
        u.updates.setdefault("phase", "fine-tune")
    elif u.updates.get("method") == q:
        u.updates.pop("method")
