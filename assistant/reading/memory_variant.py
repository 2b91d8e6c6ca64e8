"""A card's memory put right with nothing else said: 'sorry, they're the 80GB ones not 40', 'oh they're 80gb',
'80G的', '是80G版本', 'not 40gb, 80', '不是40G，是80G的'. No card is named, so the card meant is the one already in the
conversation: u.ask['memory_variant'] = (memory in GB, memory said wrong or None). The engine puts that card's
variant of the memory in its place (assistant/memory_variant.py). The words are in words/memory_variant.yaml."""

from __future__ import annotations

import re

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern
from gpu_advisor.knowledge import find_gpu

_PUNCT = re.compile(r"[,.;:!?()\"~\-]+")
_SENTENCE = re.compile(r"\.(?!\d)|[;!?]")
_CLAUSE = re.compile(r"\.(?!\d)|[;!?,]")
_MEMORY_TYPED = re.compile(r"(?<!\d)\d{1,3}\s*(?:gb|g|gib)\b")  # a memory said with the card ('a100 80gb')


def memory_said(text: str) -> tuple[float, int | None] | None:
    """(memory, old memory or None) when the cleaned message is a card's memory said and nothing else."""
    rest = re.sub(r"\s+", " ", _PUNCT.sub(" ", text.replace("'", ""))).strip()
    filler = word_pattern("memory_variant.filler")
    while (cut := filler.sub("", rest, count=1).strip()) != rest:
        rest = cut
    x = word_pattern("memory_variant.said").match(rest) or word_pattern("memory_variant.not_first").match(rest)
    if x is None:
        return None
    memory, old = float(x["memory"]), int(x["old"]) if x["old"] else None
    return None if old == memory or not 8 <= memory <= 512 else (memory, old)


def _clauses(text: str) -> list[str]:
    """The message's sentences, then its clauses ('not 40gb, 80' is one sentence, 'sorry, 80g的, 另外' three clauses)."""
    return [*_SENTENCE.split(text), *_CLAUSE.split(text)]


def _family_named(m: Message, u: Understanding) -> bool:
    """'its actually the 8gb version of the 3060', '3060是8G的': a memory said of the one card named without its
    memory (so by its family) puts the held card's memory right; the card is not put in its own place."""
    if len(m.gpus) != 1:
        return False
    s, e, card, _n = m.gpus[0]
    if _MEMORY_TYPED.search(m.text[s:e]) or (u.ask.get("replaced") or (card,))[0] != card:
        return False
    before = word_pattern("memory_variant.card_link").sub("", m.masked[:s])
    if not card.startswith("apple-") and word_pattern("memory_variant.system_ram").search(f"{before} {m.masked[e:]}"):
        return False  # 'I have 64GB RAM, 4090': the computer's memory beside the card
    said = memory_said(f"{before} {m.masked[e:]}".strip())
    if said is None:
        return False
    # the family named only to say which memory: no card named anew (the held one's variant is not kept over it)
    u.ask = {k: v for k, v in u.ask.items() if k not in ("replaced", "card_names")} | {"memory_variant": said}
    if u.updates.get("owned") == [f"1x {card}"]:  # 'my 3060 is the 8gb one': 'my' owns no other card
        u.updates = {k: v for k, v in u.updates.items() if k != "owned"}
    return True


def read_memory_variant(m: Message, u: Understanding) -> None:
    """u.ask['memory_variant'] when the message only puts a card's memory right, naming no card or naming the card
    by its memory ('actually they're A100 80GB': read as 'actually they're 80gb', u.ask['memory_variant_card'])."""
    mine = [f"1x {g}" for _s, _e, g, _n in m.gpus]  # "my bad, they're A100 80GB": 'my' is no card owned
    if _family_named(m, u):
        return
    if len(m.gpus) > 1 or u.ask.get("replaced"):
        return
    if u.updates and u.updates != {"owned": mine}:
        # "they're the 80gb ones. and actually we decided on lora": one clause puts the memory right, the others
        # change the job (no card in them)
        if not m.gpus and not set(u.updates) & {"owned", "only"}:
            said = next(filter(None, map(memory_said, _clauses(m.text))), None)
            if said:
                u.ask = {**u.ask, "memory_variant": said}
        return
    text, card = m.text, None
    if m.gpus:
        s, e, card, _n = m.gpus[0]
        if not _MEMORY_TYPED.search(m.text[s:e]):
            return  # 'we have one l40s': a card named, no memory said: no memory put right
        text = f"{m.masked[:s]} {find_gpu(card).memory_gb:g}gb {m.masked[e:]}"
    said = memory_said(text)
    if said:
        u.ask = {**u.ask, "memory_variant": said, **({"memory_variant_card": card} if card else {})}
