"""Accelerators on record that the catalog cannot size (knowledge: unsized_cards.yaml), named by the user
('4张海光K100', 'serve qwen on 8 MLU370-X8 cards', '昆仑芯P800'): one with its memory and bandwidth on record is
read as a described card of those figures (its count kept, like any card); one without is said with what is
known and what is missing, and waits for the user's figures. Never swapped for a catalog card."""

from __future__ import annotations

from functools import cache

from gpu_advisor.assistant.reading.names import name_tokens
from gpu_advisor.assistant.reading.text import MASK, word_pattern
from gpu_advisor.knowledge import unsized_cards
from gpu_advisor.knowledge.resolve import normalise
from gpu_advisor.knowledge.schema import UnsizedCard

Note = tuple[str, dict[str, str]]


def described(card: UnsizedCard) -> str | None:
    """The card as a custom-card id, named, when its memory and bandwidth are on record."""
    return f"{card.spec},name={card.name}" if card.spec else None


@cache
def sized_index() -> dict[str, str]:
    """Normalised name or alias of a card with figures enough to size -> its custom-card id."""
    return {normalise(key): spec for c in unsized_cards() if (spec := described(c))
            for key in (c.id, c.name, c.name_zh, *c.aliases)}


@cache
def _unsized_index() -> dict[str, UnsizedCard]:
    """Normalised name or alias of every card here -> its record."""
    return {normalise(key): c for c in unsized_cards() for key in (c.id, c.name, c.name_zh, *c.aliases)}


def _figures(card: UnsizedCard, lang: str) -> str:
    """The figures on record, in the reply's words."""
    zh = lang == "zh"
    parts = [(card.memory_gb, "{:g} GB 显存" if zh else "{:g} GB memory"),
             (card.memory_bandwidth_gbps, "带宽 {:g} GB/s" if zh else "{:g} GB/s"),
             (card.fp16_tflops, "FP16 {:g} TFLOPS"), (card.int8_tops, "INT8 {:g} TOPS"), (card.tdp_w, "{:g} W")]
    return ("、" if zh else ", ").join(form.format(v) for v, form in parts if v is not None)


def _missing(card: UnsizedCard, lang: str) -> str:
    words = {"memory_gb": ("memory", "显存"), "memory_bandwidth_gbps": ("memory bandwidth", "带宽"),
             "fp16_tflops": ("16-bit compute", "16 位算力")}
    return ("、" if lang == "zh" else ", ").join(words[k][lang == "zh"] for k in card.missing)


def unsized_named(masked: str, found: list[tuple[int, int, str, int]], lang: str
                  ) -> tuple[list[tuple[int, int]], list[Note], tuple[str, bool, int] | None]:
    """The cards here named in the message: (spans to hide, notes, the card waiting for its figures with
    whether it is the user's own and how many were said). A card read as a described card (found by the GPU reader) gets the note
    that says its figures are on record and its engines are not."""
    notes: list[Note] = []
    for _, _, gpu_id, _ in found:
        card = next((c for c in unsized_cards() if described(c) == gpu_id), None)
        if card:
            notes.append(("note.card_figures_only", {"name": card.name_zh if lang == "zh" else card.name,
                                                     "figures": _figures(card, lang),
                                                     "software": card.software_zh if lang == "zh" else card.software}))
    hidden: list[tuple[int, int]] = []
    waiting: tuple[str, bool, int] | None = None
    index = _unsized_index()
    tokens = [(s, e) for s, e, _ in name_tokens(masked)]
    i = 0
    while i < len(tokens):
        for n in (4, 3, 2, 1):
            s, e = tokens[i][0], tokens[min(i + n, len(tokens)) - 1][1]
            card = index.get(normalise(masked[s:e])) if MASK not in masked[s:e] else None
            if card and not described(card):
                break
        else:
            i += 1
            continue
        name = card.name_zh if lang == "zh" else card.name
        notes.append(("note.card_unsized", {"name": name, "figures": _figures(card, lang) or "-",
                                            "missing": _missing(card, lang),
                                            "software": card.software_zh if lang == "zh" else card.software}))
        hidden.append((s, e))
        if waiting is None:
            before = masked[max(0, s - 40):s]
            count = word_pattern("accelerator_count_before").search(masked[max(0, s - 24):s])
            waiting = (name, bool(word_pattern("accelerator_mine").search(before)
                                  or word_pattern("accelerator_mine_zh").search(before)),
                       max(1, int(count.group(1))) if count else 1)
        i += n
    return hidden, notes, waiting


def vendor_cards(vendor: str, lang: str) -> list[tuple[str, str, str]]:
    """The vendor's cards on record ('Hygon'): (name in the reply's language, its figures on record ('' when none),
    the figures sizing needs that are missing ('' when none)), those that can be sized first."""
    cards = sorted((c for c in unsized_cards() if c.vendor == vendor), key=lambda c: bool(c.missing))
    return [(c.name_zh if lang == "zh" else c.name, _figures(c, lang), _missing(c, lang) if c.missing else "")
            for c in cards]
