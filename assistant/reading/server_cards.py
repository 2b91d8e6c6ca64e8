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
