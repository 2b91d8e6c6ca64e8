"""A card the catalog does not hold, named with its memory ('Radeon Pro W7800 (32gb)', 'rx 5995 16gb', 'i have a zx
9000 16gb'): sized as that card, of the memory said, with the bandwidth and compute it is assumed to have (the
median of the catalog's cards of that memory, knowledge.assumed_card) said in a note, so that the user's own card
does the job it can instead of being swapped for a card to buy."""

from __future__ import annotations

import re
from collections.abc import Callable

from gpu_advisor.assistant.reading.text import MASK, word_pattern
from gpu_advisor.knowledge.assumed_card import assumed_figures

Note = tuple[str, dict[str, str]]
Found = tuple[int, int, str, int]  # (start, end, card id, count)


def assumed_card(name: str, gb: float) -> tuple[str, Note]:
    """The described-card id a card of `gb` GB named `name` is sized as, and the note that says what is assumed."""
    figures = assumed_figures(gb)
    vendor = "amd" if word_pattern("assumed_card_amd").search(name.lower()) else "nvidia"
    label = " ".join(re.sub(r"[,=]", " ", name).split())
    spec = (f"custom:memory={gb:g}GB,bandwidth={figures.bandwidth_gbps:g}GB/s,bf16={figures.bf16_tflops:g},"
            f"vendor={vendor},segment=consumer,name={label} {gb:g}GB")
    return spec, ("note.card_unknown_memory", {"name": name, "gb": f"{gb:g}", "bandwidth": f"{figures.bandwidth_gbps:g}",
                                               "peers": str(figures.peers), "peer_gb": f"{figures.peer_memory_gb:g}"})


def count_before(text: str, start: int) -> tuple[int, int]:
    """The count said just before a card ('2x rx 5995 16gb', 'two Radeon Pro W7800'): (count, where it begins)."""
    before = text[max(0, start - 40):start]
    m = word_pattern("gpu_count_before").search(before)
    if not m or int(m.group(1)) <= 0:
        return 1, start
    return int(m.group(1)), start - (len(before) - m.start(1))


def owned_named(masked: str, typed: Callable[[str], str]) -> tuple[list[Found], list[Note]]:
    """Cards the user says are theirs by a name no reader knows, with their memory ('i have a zx 9000 16gb', '我有一张
    zx 9000 16G'): each sized as an assumed card of that memory (assumed_card)."""
    found: list[Found] = []
    notes: list[Note] = []
    for x in word_pattern("owned_card_memory").finditer(masked):
        name = x["name"]
        if MASK in x.group(0) or word_pattern("assumed_card_not_card").match(name) \
                or word_pattern("assumed_card_ram_after").match(masked[x.end():x.end() + 24]):
            continue
        gb = float(x["gb"])
        if not 1 <= gb <= 1024:
            continue
        spec, note = assumed_card(typed(name), gb)
        count = int(x["count"]) if x["count"] else 1
        if count <= 0:
            continue
        found.append((x.start("count") if x["count"] else x.start("name"), x.end(), spec, count))
        notes.append(note)
    return found, notes
