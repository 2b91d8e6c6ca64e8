"""A count of cards put right inside one message: '我们有十六张910B，想全参微调qwen2.5-72b，数据五千万token左右。。等下我看错了，
是三十二张', 'we have 16 h100s, want to full finetune qwen2.5-72b. wait, it's 32', 'sorry, 32 not 16'. The owned
cards said before the cue were sized at the first count; now the count after the cue (words/fixed_count.yaml) is
the count of the one card owned. A later turn's correction is reading.premise.read_recount's."""

from __future__ import annotations

import re

from gpu_advisor.assistant.reading.message import Message, Understanding, prepare
from gpu_advisor.assistant.reading.premise import MAX_CARDS
from gpu_advisor.assistant.reading.text import word_pattern

_COUNTED = re.compile(r"^(\d+)x (.+)$")


def read_fixed_count(cut: str, u: Understanding) -> None:
    """u.updates['owned'] at the count said after a correction cue, when one card was owned before it."""
    owned = u.updates.get("owned")
    if not isinstance(owned, list) or len(owned) != 1:
        return
    held = _COUNTED.match(str(owned[0]))
    if held is None:
        return
    m = prepare(cut, None)
    masked = m.masked
    cues = list(word_pattern("fixed_count.cue").finditer(masked))
    card = max((e for _s, e, _g, _n in m.gpus), default=-1)
    for cue in reversed(cues):
        if card < 0 or cue.start() < card:
            continue  # the cue must follow the cards it corrects
        x = word_pattern("fixed_count.count").match(masked[cue.end():].strip(" ,，:：-—"))
        if x is None or "▒" in masked[cue.end():cue.end() + x.end()]:
            continue
        n = int(x.group("n"))
        if 0 < n <= MAX_CARDS and n != int(held.group(1)):
            u.updates["owned"] = [f"{n}x {held.group(2)}"]
            u.recount = None  # put right here: no count left to put in place of the cards held before
        return


def read_either_count(m: Message, u: Understanding) -> None:
    """'MI300X or H100 for serving Qwen3-235B-A22B? we'd get 8 of either', 'H20和L20各8张': u.counts gives every card
    weighed that count, so the comparison is 8 against 8 (as '8x MI300X or 8x H100' is), not each card's own fit."""
    cards = list(dict.fromkeys(u.compare_gpus or u.cards))
    if len(cards) < 2 or any(c in u.counts for c in cards):
        return
    x = word_pattern("fixed_count.either").search(m.masked)
    if x is None:
        return
    n = int(next(g for g in x.groups() if g))
    if 0 < n <= MAX_CARDS:
        u.counts = {**u.counts, **dict.fromkeys(cards, n)}


def read_count_instead(m: Message, u: Understanding) -> None:
    """'ok scratch that. what if we just use gpt-oss-20b on a single 3090 instead' after '4 used 3090s max': one card
    tried with its count and said as a change (words fixed_count.instead) is the count of the plan's cards
    (u.recount, as 'scratch that, only 2 of the a100s'), not a row weighed beside 4 x 3090 that stays the plan."""
    if u.recount is not None or u.whatif_gpus is None or u.compare_gpus or u.added_cards \
            or not word_pattern("fixed_count.instead").search(m.masked) \
            or word_pattern("fixed_count.weighed").search(m.masked):
        return
    cards = {g for _s, _e, g, _n in m.gpus}
    n, card = u.whatif_gpus
    if cards != {card} or not 0 < n <= MAX_CARDS:
        return
    names = u.ask.get("card_names") or {}
    u.recount = (n, card, str(names.get(card, "")))
    u.ask = {k: v for k, v in u.ask.items() if k != "hypothetical"}


def read_card_asked_if_sold(m: Message, u: Understanding) -> None:
    """'现在国内还能买到H100吗？H20 和 4090D 哪个更适合部署qwen2.5-32b': the card of the sentence asking whether it is
    sold is no card to plan on (it was '购买 8 × H100', a card the reply says cannot be sold in China); the cards
    weighed are the two in the other sentence, and 'buy' in the stock question is no wish to buy."""
    cards = list(dict.fromkeys(u.compare_gpus or u.cards))
    if len(cards) < 3:
        return
    for part in word_pattern("fixed_count.sentence").finditer(m.masked):
        named = {g for s, _e, g, _n in m.gpus if part.start() <= s < part.end()}
        if len(named) != 1 or not word_pattern("fixed_count.sold").search(part.group()):
            continue
        rest = {g for s, _e, g, _n in m.gpus if not part.start() <= s < part.end()}
        (card,) = named
        if card in rest or len(rest) < 2:
            return
        u.compare_gpus = [c for c in u.compare_gpus if c != card]
        u.cards = [c for c in u.cards if c != card] + ([card] if u.also == "availability" else [])
        only = [o for o in u.updates.get("only") or [] if o.split("x ")[-1].strip() != card]
        if "only" in u.updates:
            u.updates["only"] = only or None
            if not only:
                u.updates.pop("only")
        outside = m.masked[:part.start()] + m.masked[part.end():]
        if u.updates.get("preference") == "buy" and not re.search(r"\bbuy|买|购", outside):
            u.updates.pop("preference")
        u.intents.discard("whatif")
        return
