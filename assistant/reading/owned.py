"""Hardware the user owns, may only procure, or asks the count of: the grammar around a card name.

'procurement can only get L40S or RTX 6000 Ada' limits the choice to both cards and owns neither; '需要几台910B服务器'
asks a count, it says none; 'add my old 3060 12gb as a second card' adds a card to those owned; '我们一台都还没买' owns
nothing. The words are in words/owned.yaml.
"""

from __future__ import annotations

import re

from gpu_advisor.assistant.reading.clauses import negated
from gpu_advisor.assistant.reading.fleet import read_fleet
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern


def limited_alternatives(m: Message) -> set[int]:
    """Starts of the cards a purchase restriction names as a list of alternatives ('procurement can only get L40S
    or RTX 6000 Ada', '只能买到L20或者H20'): the choice is limited to all of them, none is owned."""
    found: set[int] = set()
    cards = [g for g in m.gpus if not negated(m.masked, g[0])]
    for i, (s, _e, _g, _n) in enumerate(cards):
        before = m.masked[max(0, s - 64):s]
        restricted = word_pattern("restricted_before").search(before)
        only = word_pattern("only_before").search(before)
        if not (restricted or only):
            continue
        if not restricted and only and not re.search(r"only|exclusively|nothing but|只", only.group(0)):
            continue  # 'should we go with p5 or p4d?': a choice asked between them, not a limit
        chain = [cards[i]]
        for nxt in cards[i + 1:]:
            if not word_pattern("restricted_joint").fullmatch(m.masked[chain[-1][1]:nxt[0]]):
                break
            chain.append(nxt)
        if len(chain) > 1 or restricted:  # one card alone after 'only' keeps its count (read_only)
            found |= {c[0] for c in chain}
    return found


def count_asked(m: Message, s: int, e: int) -> bool:
    """Whether the count of the card at s:e is what is asked ('需要几台910B服务器', 'how many h100s'): no count said."""
    return bool(word_pattern("count_asked").search(m.masked[max(0, s - 12):s])
                or (word_pattern("chosen_after").match(m.masked[e:e + 24])
                    and word_pattern("count_asked").search(m.masked[e:e + 24])))


def n_asked(m: Message, s: int) -> bool:
    """A count asked right before the card ('how many H100s', '要几张H100'): the plan's card, never the speaker's."""
    return bool(word_pattern("owned_count_asked_near").search(m.masked[max(0, s - 20):s]))


def owns_nothing(m: Message) -> bool:
    """'我们一台都还没买', 'we don't have any hardware yet', 'we haven't bought anything': no card owned."""
    return any(not negated(m.masked, x.start()) for x in word_pattern("owned_none").finditer(m.masked))


def owns_them(m: Message) -> str | None:
    """'卡是现成的', "it's my own card", 'we already have them', '用现有的': the cards named (in this message or before
    it) are the user's own ('said'); 'my gpus', '我自己的卡啊' say it more weakly ('mine'). None: not said."""
    for key, strength in (("owned_these", "said"), ("owned_these_mine", "mine")):
        if any(not negated(m.masked, x.start()) for x in word_pattern(key).finditer(m.masked)):
            return strength
    return None


def adds(m: Message, s: int, e: int) -> bool:
    """Whether the card at s:e is added to those owned ('add my old 3060 12gb as a second card', 'I also have a
    3090', '另外还有一张3060'): more hardware beside what was said, not in its place."""
    return bool(word_pattern("owned_add_before").search(m.masked[max(0, s - 40):s])
                or word_pattern("owned_add_after").match(m.masked[e:e + 48]))


def subset_count(x: re.Match[str]) -> int:
    """The count an owned_subset match says ('拿 8 出来' 8, 'one of them are free' 1)."""
    said = next((g for g in x.groups() if g), "0")
    return int(said) if said.isdigit() else ("one", "two", "three", "four").index(said) + 1


def read_owned_subset(m: Message, u: Understanding) -> None:
    """'我们有64张A100，拿8张出来跑', '8 of them are free for this': the cards owned for this job are that part of them."""
    owned = u.updates.get("owned") or []
    count, _, card = owned[0].partition("x ") if len(owned) == 1 else ("", "", "")
    x = word_pattern("owned_subset").search(m.masked) if count.isdigit() else None
    n = subset_count(x) if x else 0
    said_per = u.updates.get("server_gpus")
    per = said_per if isinstance(said_per, int) else 0
    servers = int(count or 0) // per if per else 0
    if x and servers and (word_pattern("owned_subset_servers").search(m.raw.lower()) or (
            re.search(r"\bof (?:them|those|these|the (?:servers|nodes|boxes|machines))\b", x.group(0))
            and n < servers)):
        n = n * per if n < servers else 0  # '两台8卡A800，拿一台出来', 'two 8x H100 nodes, one of them is free'
    if 0 < n < int(count or 0):
        u.updates["owned"] = [f"{n}x {card}"]


def read_owns_them(m: Message, u: Understanding) -> None:
    """'单卡 4090 够不够，卡是现成的', "4x L40S, they're ours": the card this message holds the plan to is owned; with
    no card named ('卡是现成的', 'we already have them'), the cards named before are (u.owns_named, assistant.engine)."""
    read_owned_subset(m, u)
    read_fleet(m, u)  # 'how many of our 16 does it eat', '有一半在训练': the fewest of the owned cards (reading.fleet)
    said = owns_them(m)
    if not m.gpus and not u.updates.get("owned") and word_pattern("owned_just_one").search(m.masked):
        u.owns_named = "one"  # "i only have the one card tho, not buying another": one of the card named before
        u.updates.pop("preference", None)
        return
    if said is None or u.updates.get("owned"):
        return
    if not m.gpus:
        u.owns_named = said
        return
    only = u.updates.get("only") or []
    if only:
        u.updates["owned"] = [c if c[:1].isdigit() else f"1x {c}" for c in only]
        u.updates.pop("only")
    elif u.whatif_gpus:
        u.updates["owned"] = [f"{u.whatif_gpus[0]}x {u.whatif_gpus[1]}"]
    elif len(set(u.compare_gpus)) == 1:
        u.updates["owned"] = [f"1x {u.compare_gpus[0]}"]
        u.compare_gpus = []
    else:
        return
    u.whatif_gpus = None
    mine = {c.partition("x ")[2] for c in u.updates["owned"]}
    u.compare_gpus = [g for g in u.compare_gpus if g not in mine]
