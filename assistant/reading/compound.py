"""Compound follow-ups: one message after a plan that asks two (or more) questions about it, "how many gpu hours
is that and why not deepspeed", "一共多少卡时，另外为什么不用deepspeed". The message is split at the joiners of
words/compound.yaml; the pieces are handed back only when each one, read alone, is a question with its own reply
(or a change asked as a question, "and B200?"), so a single request that merely contains "and" ("compare L40S and
A100", "serve llama and qwen") is never split. The engine answers each piece in order (assistant/parts.py)."""

from __future__ import annotations

import re
import unicodedata

from gpu_advisor.assistant.reading.message import Understanding
from gpu_advisor.assistant.reading.text import vocab

# Intent codes that are a question of their own about the plan on screen (each has its own reply).
QUESTION_CODES = frozenset({
    "metric", "gpu_hours", "kv_cache", "data_enough", "precision_compare", "framework_why", "engine_choice", "interconnect",
    "card_support", "total_cost", "math", "why", "why_not", "rent_buy", "payback", "reserve", "own_enough",
    "how_long", "servers_limit", "servers_count", "cheapest", "running_costs", "compare_cards", "availability",
    "forecast", "quality", "fit_check",
})
# The fewest characters a piece keeps: shorter ones ('ok', 'hmm') go with the piece after them.
MIN_PIECE = 2


def _typed(text: str) -> str:
    return unicodedata.normalize("NFKC", text).lower().strip()


def pieces(text: str) -> list[str]:
    """The message cut at its joiners, filler-only pieces joined to the next; one piece when there is no joiner.
    A question mark that joined two pieces stays with the one it ended ('and B200? also ...': 'b200?')."""
    words = vocab()["compound"]["joiner"]
    typed = _typed(text)
    cut = re.split(f"((?:{words['en']})|(?:{words['zh']}))", typed)
    out: list[str] = []
    carry = ""
    for i in range(0, len(cut), 2):
        part = (cut[i] or "").strip(" ,，;；")
        before = cut[i - 1] if i else ""  # the joiner this piece came after
        joiner = cut[i + 1] if i + 1 < len(cut) else ""
        if part and ("?" in joiner or "？" in joiner):
            part += "?"
        if len(re.sub(r"\W", "", part)) < MIN_PIECE:
            carry = f"{carry} {part}".strip()
            continue
        if out and (_said(part, "refers_back") or _open_between(out[-1])):
            out[-1] = f"{out[-1]}{before}{part}"  # "difference between q4_k_m and awq? which one ...": one question
            continue
        out.append(f"{carry} {part}".strip() if carry and not out else part)
        carry = ""
    return out


def _said(piece: str, key: str) -> bool:
    words = vocab()["compound"][key]
    return bool(re.search(words["en"], piece) or re.search(words["zh"], piece))


def _open_between(piece: str) -> bool:
    """'difference between q4_k_m gguf' ends before its 'and': the next piece is the other half."""
    return bool(re.search(vocab()["compound"]["between"]["en"], piece)) and not piece.endswith("?")


def asks(piece: str, u: Understanding) -> bool:
    """Whether a piece, read alone, is a question of its own: a question code, a concept asked about, or another
    card or model asked as a question ('and B200?', 'what about the 32b', '那32b的呢')."""
    if u.intents & QUESTION_CODES or u.topic:
        return True
    cue = vocab()["compound"]["cue"]
    other = bool(u.compare_gpus or u.whatif_gpus or u.updates.get("model") or u.updates.get("precision"))
    return other and bool(re.search(cue["en"], piece) or re.search(cue["zh"], piece))
