"""A correction of how many cards the plan has, said in a later turn: 'scratch that, we only got 2 of the a100s',
'finance only approved 2 a100s', '说错了，是4张3090', 'actually 4', '2 not 8'.

The reader gives u.recount = (count, card id or None, the card's name as said); the engine (assistant.premise)
puts that count in place of the cards the profile holds of that card, keeping the variant said before ('a100' after
'8x a100 40gb' is the 40GB card). A count weighed as a supposition ('what about 2?', '如果只有2张') is no correction.
The words are in words/premise.yaml."""

from __future__ import annotations

import re
import unicodedata

from gpu_advisor.assistant.reading.clauses import rejected
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern

MAX_CARDS = 4096


def bare_name(m: Message, s: int, e: int) -> str:
    """A card's name as said, without its count or plural ('2 a100s' -> 'a100')."""
    return re.sub(r"(?<=\d)s$", "", re.sub(r"^\d+\s*(?:[x×*]\s*)?", "", m.text[s:e].strip()))


def read_card_names(m: Message, u: Understanding) -> None:
    """u.ask['card_names']: each card named, by its name as said ('a100'), so that the engine keeps the variant said
    before for a card named again by its bare name ('what about 4 a100s' after '8x a100 40gb')."""
    names = {gpu_id: bare_name(m, s, e) for s, e, gpu_id, _n in m.gpus}
    if names:
        u.ask = {**u.ask, "card_names": names}


def read_recount(m: Message, u: Understanding) -> None:
    """u.recount when the message corrects the count of cards: one card named with its count, or a count alone;
    or one card tried with its count and said as a change ('scratch that … on a single 3090 instead')."""
    from gpu_advisor.assistant.reading.fixed_count import read_count_instead
    from gpu_advisor.assistant.reading.had_count import read_had_count
    from gpu_advisor.assistant.reading.owned_put_right import read_owned_put_right

    read_card_names(m, u)
    _read_recount(m, u)
    read_count_instead(m, u)
    read_had_count(m, u)  # 'wait we actually have 2 of them in the box': that many of the card named, owned
    read_owned_put_right(m, u)  # 'oh wait no, its one 4090 and one 3090': the cards owned, put right


def _read_recount(m: Message, u: Understanding) -> None:
    if not word_pattern("recount_cue").search(m.masked) or word_pattern("recount_hypothetical").search(m.masked) \
            or u.added_cards or u.compare_gpus:
        return
    cards = [g for g in m.gpus if not rejected(m, g[0], g[1])]
    if len(cards) > 1:
        return
    if cards:
        s, e, gpu_id, n = cards[0]
        if s not in m.counted:
            x = word_pattern("recount_of_the").search(m.masked[max(0, s - 32):s])
            if not x:
                return
            n = int(x.group(1))
        count, card, name = n, gpu_id, bare_name(m, s, e)
    else:
        if any(k.startswith("budget") for k in u.updates):
            return  # '说错了，每个月预算是3000': the budget corrected, not a count of cards
        x = word_pattern("recount_count").search(m.masked)
        taken = word_pattern("recount_taken").search(m.masked)
        if not x and taken:  # '2 of them are taken': the plan's cards less that many
            u.ask = {**u.ask, "recount_taken": True}
            x = taken
        if not x:
            return
        count, card, name = int(next(g for g in x.groups() if g)), None, ""
    if 0 < count <= MAX_CARDS:
        u.recount = (count, card, name)


def read_dropped_phase(m: Message, u: Understanding) -> None:
    """'不微调了', 'no fine-tuning, just serve it', 'skip the finetune': u.ask['drops'] = 'train' (or 'serve' for
    '不部署了'), the job given up; the engine plans the other one alone (assistant.premise.apply_dropped_phase)."""
    dropped = [job for job in ("train", "serve") if word_pattern(f"phase_dropped.{job}").search(m.masked)]
    if dropped == ["train"] and {"objective", "method"} & set(u.updates):
        return  # "it's GRPO, not SFT", "LoRA, not full fine-tuning": another way to train, no training given up
    if len(dropped) == 1:
        u.ask = {**u.ask, "drops": dropped[0]}
        if u.updates.get("phase") in (("fine-tune", "train-and-serve") if dropped[0] == "train" else ("serve", "train-and-serve")):
            u.updates.pop("phase")  # 'skip the finetune': the word names the job given up, not one to plan


def read_serving_cards_asked(m: Message, u: Understanding) -> None:
    """'微调完Qwen2.5-7B之后要上线…用什么卡部署比较合适': the question is the serving cards (u.ask['serving_cards']);
    the engine's request flag 'serve_cards' keeps the fine-tuning method from being asked (slots.ask_method)."""
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    if word_pattern("serving_cards_asked.en").search(m.masked) or word_pattern("serving_cards_asked.zh").search(typed):
        u.ask = {**u.ask, "serving_cards": True}
