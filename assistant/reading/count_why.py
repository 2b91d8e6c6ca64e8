"""The plan's count of servers or cards asked why ('为什么要3台服务器？', 'why do I need 3 servers?', '3台服务器是不是太多了'):
a question about the plan on screen, answered with what makes that many necessary (the memory the weights and the
users' cache take against a card's) — never read as a limit of that many servers, nor as the servers' cards left
unsaid. A smaller count said with it ('两台不够吗', "wouldn't 2 be enough?", '16张就够了吧') is that many tried: the
engine sizes the plan's card on it (assistant/count_why.py). Sets u.ask['count_why'] = {'unit': 'servers' or
'gpus', 'asked': N, 'tried': M or None}. The words: words/count_why.yaml."""

from __future__ import annotations

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern

MAX_COUNT = 4096


def read_count_why(m: Message, u: Understanding) -> None:
    """u.ask['count_why'] for the plan's count asked why, with a smaller count tried (see the module's text)."""
    text = m.masked
    x = word_pattern("count_why.asked").search(text) or word_pattern("count_why.too_many").search(text)
    if not x or not 0 < int(x["n"]) <= MAX_COUNT:
        return
    if m.gpus and "why_not" in u.intents:
        return  # 'why not a couple of h100s, 16 cards sounds like a lot': another card weighed (assistant.direct)
    asked = int(x["n"])
    rest = text[x.end():]
    y = word_pattern("count_why.tried").search(rest) or word_pattern("count_why.tried_with").search(rest)
    tried = int(y["m"]) if y and 0 < int(y["m"]) < asked else None
    unit = "servers" if word_pattern("count_why.servers").match(x["unit"]) else "gpus"
    u.ask = {k: v for k, v in u.ask.items() if k not in ("count_fixed", "hypothetical", "figure")}
    u.ask["count_why"] = {"unit": unit, "asked": asked, "tried": tried}
    u.notes = [(k, v) for k, v in u.notes if k != "note.servers_without_cards"]  # the plan's servers, not theirs
    u.intents -= {"whatif", "servers_limit", "servers_count", "fewer"}
    u.intents.add("why")
    u.whatif_gpus, u.card_count = None, None
