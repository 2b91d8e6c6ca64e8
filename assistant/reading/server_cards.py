"""A count of servers asked about a server of counted cards: '需要几台atlas 800T A2（8卡910B 64G）？', '8卡910B的服务器需要
几台', 'how many servers with 8 910B each do we need', 'how many 8x 910B servers'. The count said is the cards in each
server (profile server_gpus), the card the only one planned on, and the question the number of servers: the plan
takes as many servers as the job needs, never only the one server's cards (that was '只用 8 × 910B', so '没有方案' for
a model two servers hold). Servers already held ('we have two 8x910B servers, how many more') are the owned
readers'. The words: words/server_cards.yaml."""

from __future__ import annotations

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern

MAX_SERVER_CARDS = 16


def read_server_cards(m: Message, u: Understanding) -> None:
    """u.updates only/server_gpus and the servers_count question, for a counted card said as a server's cards."""
    if not word_pattern("server_cards.asked").search(m.masked) or word_pattern("server_cards.held").search(m.masked):
        return
    counted = [(g, n) for s, _e, g, n in m.gpus if s in m.counted]
    cards = {g for _s, _e, g, _n in m.gpus}
    if not counted or len(cards) != 1 or len({n for _g, n in counted}) != 1:
        return
    card, n = counted[0]
    if not 1 < n <= MAX_SERVER_CARDS:
        return
    owned = u.updates.get("owned")
    if owned and owned != [f"{n}x {card}"]:
        return
    u.updates.pop("owned", None)
    u.updates["only"] = [card]
    u.updates["server_gpus"] = n
    u.whatif_gpus, u.compare_gpus = None, []
    u.intents.add("servers_count")
    u.intents.discard("whatif")
    u.ask = {k: v for k, v in u.ask.items() if k not in ("hypothetical", "figure")}


def read_replace_asked(m: Message, u: Understanding) -> None:
    """u.ask['replace'] = [old card, its count, new card] for a count of one card asked to take over a count of the
    other ('需要多买多少张卡才能顶上原来 8 张 A800 的吞吐', 'how many 910B to replace our 8 A800s')."""
    if not word_pattern("replace_asked.over").search(m.masked) or not word_pattern("replace_asked.count").search(m.masked):
        return
    cards = list(dict.fromkeys(g for _s, _e, g, _n in m.gpus))
    counted = {g: n for s, _e, g, n in m.gpus if s in m.counted and n > 1}
    if len(cards) != 2 or len(counted) != 1:
        return
    (old, n), = counted.items()
    new = next(g for g in cards if g != old)
    u.ask = {**u.ask, "replace": [old, n, new]}
    if u.updates.get("owned") == [f"{n}x {old}"]:
        u.updates.pop("owned")  # 'our 8 A800s' are the cards being replaced: the plan is on the new card
    u.updates.setdefault("only", [new])  # the card moved to is the one planned on
    u.cards = u.cards or [new, old]
    u.compare_gpus = u.compare_gpus or [new, old]
    u.also = u.also or "compare_cards"  # the two cards set side by side, the count asked first
