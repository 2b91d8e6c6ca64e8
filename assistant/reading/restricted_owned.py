"""A card said without a count as the one to use, its count asked or a limit said around it ('只能用昇腾910B，要多少张卡',
'we already own L40S so stick to those - how many?'): the choice limited to that card, as many as the job needs, never
one card owned (review AE C2, AD E8). A card said with an article or 'one' ('i have a 4090') stays one card owned; a
card counted ('we have 4 L40S') stays as counted. Words in words/restricted_owned.yaml."""

from __future__ import annotations

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern
from gpu_advisor.knowledge import find_gpu


def owned_as_restriction(m: Message, u: Understanding) -> None:
    owned = list(u.updates.get("owned") or [])
    if not owned:
        return
    moved: list[str] = []
    for s, e, gpu_id, count in m.gpus:
        said = f"{count}x {gpu_id}"
        if said not in owned or s in m.counted or count != 1 or _single(m, s):
            continue
        limit = word_pattern("owned_limit_before").search(m.masked[max(0, s - 32):s]) \
            or word_pattern("owned_limit_after").match(m.masked[e:e + 48])
        asked = word_pattern("owned_count_question").search(m.masked) \
            and word_pattern("owned_many_speaker").search(m.masked)
        if limit or asked:
            owned.remove(said)
            moved.append(gpu_id)
            if word_pattern("owned_have_near").search(m.masked[max(0, s - 24):s]):
                u.notes.append(("note.owned_count_unsaid", {"card": find_gpu(gpu_id).name}))
    if not moved:
        return
    if owned:
        u.updates["owned"] = owned
    else:
        u.updates.pop("owned")
    u.updates["only"] = sorted({*(u.updates.get("only") or []), *moved})


def _single(m: Message, s: int) -> bool:
    return bool(word_pattern("owned_single_before").search(m.masked[max(0, s - 16):s]))
