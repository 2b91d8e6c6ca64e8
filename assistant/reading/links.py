"""'4x V100 32GB, no nvlink', '没有nvlink', 'without nvlink', 'nvlink: no': the cards named have no NVLink between
them. Each NVLink (SXM) card becomes the catalog's PCIe form of it (knowledge.pcie_variant: same chip, same memory),
said in a note; a card the catalog holds only with NVLink stays, and a note says its multi-GPU figures assume NVLink.
The words: words/hardware.yaml (no_link)."""

from __future__ import annotations

from gpu_advisor.assistant.reading.message import Message
from gpu_advisor.assistant.reading.text import word_pattern
from gpu_advisor.knowledge import find_gpu, pcie_variant


def read_no_link(m: Message) -> None:
    """Swap the cards of a message that says there is no NVLink for their PCIe forms, in m.gpus (every reader after
    this one sees the PCIe card), with a note for each card swapped or kept."""
    said = word_pattern("no_link").search(m.masked)
    if not said or not m.gpus:
        return
    swapped: list[tuple[int, int, str, int]] = []
    for start, end, gpu_id, count in m.gpus:
        other = pcie_variant(gpu_id)  # (None for a card already without NVLink)
        if other:
            m.notes.append(("note.no_link_pcie", {"card": find_gpu(gpu_id).name, "pcie": find_gpu(other).name}))
        elif find_gpu(gpu_id).interconnect == "nvlink":
            m.notes.append(("note.no_link_kept", {"card": find_gpu(gpu_id).name}))
        swapped.append((start, end, other or gpu_id, count))
    m.gpus = swapped
