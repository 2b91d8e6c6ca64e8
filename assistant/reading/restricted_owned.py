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
                u.notes.append(("note.owned_count_unsaid_total", {"card": find_gpu(gpu_id).name}))
    if not moved:
        return
    if owned:
        u.updates["owned"] = owned
    else:
        u.updates.pop("owned")
    u.updates["only"] = sorted({*(u.updates.get("only") or []), *moved})


def _single(m: Message, s: int) -> bool:
    return bool(word_pattern("owned_single_before").search(m.masked[max(0, s - 16):s]))


def personal_card_owned(m: Message, u: Understanding) -> None:
    """One person's one card said alone in its clause, nothing bought or rented ('个人玩家，一张A6000 48G，想QLoRA微调
    llama 3.3 70b…能跑吗，要几天'): the card is theirs, so the time on it comes first (review AE C9: 2 rented A6000s
    were the plan and the time on their own card was never said)."""
    only = u.updates.get("only") or []
    if u.whatif_gpus and not only:
        only = [f"{u.whatif_gpus[0]}x {u.whatif_gpus[1]}"]  # '一张A6000 … 能跑吗': read as the card asked about
    if not u.updates.get("personal") or u.updates.get("owned") or len(only) != 1 or len(m.gpus) != 1 \
            or u.compare_gpus or word_pattern("personal_card_getting").search(m.raw.lower()):
        return
    s, e, gpu_id, count = m.gpus[0]
    if count != 1 or only[0] not in (gpu_id, f"1x {gpu_id}"):
        return
    left = max(m.masked.rfind(c, 0, s) for c in ",，;；.。:：!?？\n") + 1
    rights = [i for i in (m.masked.find(c, e) for c in ",，;；.。!?？\n") if i >= 0]
    right = min(rights) if rights else len(m.masked)
    if word_pattern("personal_card_alone").match(m.masked[left:s]) \
            and word_pattern("personal_card_alone_after").match(m.masked[e:right]):
        u.updates["owned"] = [f"1x {gpu_id}"]
        u.updates.pop("only", None)
        u.updates.pop("preference", None)  # (home_buys: nobody buys the card they have)
        u.whatif_gpus = None
        u.intents.discard("whatif")
