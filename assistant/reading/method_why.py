"""'为什么不用 LoRA？全参有必要吗', 'is full fine-tuning really necessary?', 'why not lora, is full really needed': a
fine-tuning method named as the one QUESTIONED (words/job.yaml method_questioned right after it) is not the one
asked for. The method proposed beside it wins; questioned alone after its own plan, a full fine-tune is weighed
against LoRA, the lighter method that usually replaces it. The engine answers the switch with reasons
(assistant/method_switch.py); u.ask["method_questioned"] keeps which one was questioned."""

from __future__ import annotations

import re
import unicodedata

from gpu_advisor.assistant.reading.clauses import negated
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.method_compare import fallback_pair
from gpu_advisor.assistant.reading.text import vocab, word_pattern

METHODS = ("qlora", "lora", "full")  # lightest first
# The method weighed against one questioned alone: a full fine-tune's usual replacement.
LIGHTER = {"full": "lora"}


def _hits(m: Message) -> list[tuple[int, str, bool]]:
    """Each method named: (where, which, questioned)."""
    out: list[tuple[int, str, bool]] = []
    qlora = [x.span() for x in word_pattern("method.qlora").finditer(m.masked)]
    for name in METHODS:
        for x in word_pattern(f"method.{name}").finditer(m.masked):
            if (name == "lora" and any(s <= x.start() < e for s, e in qlora)) or negated(m.masked, x.start()):
                continue  # 'full fine-tuning (not lora)': the refused one is neither weighed nor questioned
            asked = bool(word_pattern("method_questioned").match(m.masked[x.end():x.end() + 30]))
            out.append((x.start(), name, asked))
    return sorted(out)


def read_method_why(m: Message, u: Understanding) -> None:
    if u.intents & {"reset", "help", "empty", "method_compare"} or u.choice is not None:
        return
    hits = _hits(m)
    questioned = [name for _s, name, asked in hits if asked]
    if not questioned:
        _weighed(m, u, list(dict.fromkeys(name for _s, name, _a in hits)), fallback_pair(m))
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


def _weighed(m: Message, u: Understanding, named: list[str], fallback: tuple[str, str] | None = None) -> None:
    """'full finetune mistral 7b vs lora … 200k examples, which one and what hardware': two methods weighed for a
    job sized in the same message. The plan is on the lighter one that keeps quality (LoRA when named); the other
    is sized beside it and the verdict says which (u.ask["methods_weighed"]: [planned, other]). One asked first with
    the other as its fallback ('full FT? if not, LoRA?'): the plan is the one asked, and the engine moves it to the
    fallback when it does not fit (u.ask["method_fallback"]; assistant/method_fallback.py)."""
    if len(named) < 2 or "method" not in u.updates or "method_compare" in u.intents or u.ask.get("method_choice"):
        return  # (weighed on the cards they own: reading/method_compare.py _choice_in_plan)
    cue = vocab()["method_compare"]["cue"]
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    if fallback is None and not (re.search(cue["en"], m.text) or re.search(cue["zh"], typed)):
        return
    plan = fallback[0] if fallback else "lora" if "lora" in named else min(named, key=METHODS.index)
    other = fallback[1] if fallback else next(n for n in sorted(named, key=METHODS.index, reverse=True) if n != plan)
    u.updates["method"] = plan
    u.ask = {**u.ask, "methods_weighed": [plan, other], **({"method_fallback": other} if fallback else {})}
