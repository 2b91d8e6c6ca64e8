"""A purchase being weighed is not hardware owned: '想买张卡，二手3090还是4060ti 16G？', 'should we buy a couple of 4090s
or just rent an H100', 'Mac Studio 和两张二手3090 哪个好' after '想在家里跑', '想自己搭一台…买啥'.

When the message says the speaker is getting hardware (words/buy_weighed.yaml buy_weighed_intent) and sets two or
more cards against each other ('or', '还是', 'vs', '哪个'), each of those cards is a candidate to buy at the count
said with it, never 'yours', unless the words right before it say the speaker has it ('I have a 3090, should I
buy a 4090 or a 5090?' keeps the 3090 owned). 'At home', 'locally', a Mac named: where it will run, not what is had.
"""

from __future__ import annotations

import re

from gpu_advisor.assistant.reading.clauses import clause_bounds, negated
from gpu_advisor.assistant.reading.message import Message
from gpu_advisor.assistant.reading.text import word_pattern


def buying_choice(m: Message) -> bool:
    """Whether the message weighs cards to get: a buying word said (not negated) and two or more cards set
    against each other."""
    if len({g for _s, _e, g, _n in m.gpus}) < 2:
        return False
    if not any(not negated(m.masked, x.start()) for x in word_pattern("buy_weighed_intent").finditer(m.text)):
        return False
    return bool(word_pattern("which_cue").search(m.masked) or word_pattern("which_cue").search(m.raw.lower()))


def weighed(m: Message, s: int, e: int) -> bool:
    """Whether the card at s:e is one weighed to buy in a choice (buying_choice), not one the speaker has."""
    if not buying_choice(m) or _before_the_addition(m, s):
        return False
    left, _right = clause_bounds(m.masked, s, e)
    before = re.split(r"[,;.?!:]", m.masked[max(left, s - 32):s])[-1]
    return not (word_pattern("buy_weighed_have").search(before) or word_pattern("owned_after").match(m.masked[e:e + 40]))


def _before_the_addition(m: Message, s: int) -> bool:
    """Whether the card at s comes before another card said as an addition to it ('家里4090一张…还是再买张3090',
    'a 4090 at home … or get another 3090') and has no buying words of its own: the card added to is the one had;
    'should we add a 4090 or a 5090' ('再加一张4090还是5090') adds both, so neither comes before the addition."""
    if _buy_cue(m, s):
        return False
    return any(t > s and (cue := _buy_cue(m, t)) and word_pattern("buy_weighed_addition").search(cue)
               for t, _e, _g, _n in m.gpus)


def _buy_cue(m: Message, s: int) -> str:
    """The buying or adding words right before the card at s ('再 buy 张', 'get another'), or ''."""
    cue = word_pattern("considered_add_before").search(m.masked[max(0, s - 40):s])
    return cue.group(0) if cue else ""


def read_weighed_preference(m: Message) -> str | None:
    """Rent or buy (hardware.read_preference); when none is said and the cards weighed can only be had by buying
    ('Mac Studio 和两张二手3090 哪个好', 'build a box: 3090 or 4090?'), or a machine is to be built or bought
    ('想自己搭一台机器', 'build a machine'), buy, unless renting is named at all."""
    from gpu_advisor.assistant.reading.hardware import (
        read_preference,  # hardware reads weighed(): import here
    )

    said = read_preference(m)
    if said is not None or word_pattern("preference.rent").search(m.masked):
        return said
    if word_pattern("buy_box.box").search(m.masked):
        return "buy"  # '想组装一台机器…配什么卡', 'build a machine for …': the machine is bought
    return "buy" if buying_choice(m) and word_pattern("buy_weighed_own").search(m.text) else None


def bought_as_server(m: Message, gpu_id: str) -> bool:
    """Whether the card to buy is named as a whole machine ('买H20服务器' read as 'buy h20 server', 'buy an H20
    server or rent A800s', 'H20整机'): the purchase is the server, however few of its cards the job takes."""
    return any(g == gpu_id and word_pattern("buy_weighed_server_after").match(m.masked[e:e + 16])
               for _s, e, g, _n in m.gpus)
