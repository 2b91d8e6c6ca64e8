"""Whether a card may be bought in China ('can my team in shanghai legally buy h100s? if not whats the best option we
actually can get', '上海能合法买H100吗'): the cards named go to u.ask["export"] and the reply gives the US export rules
behind them with their dates, and what is sold there (assistant/card_diff.py), never a plan limited to the card asked
about ('only H100'). The region stays said, so the next plan is sized on what can be had there. With the job said in
the same message ('… legally buy h100s to serve qwen2.5 72b for 30 people?'), the plan is sized in China on the cards
that can be had there (those made for it or licensed, and domestic ones: the export-restricted ones excluded), never
limited to the card asked about, and the rules are answered under its headline (u.ask["legal_beside"]).
The words: words/legal_buy.yaml."""

from __future__ import annotations

import unicodedata

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern
from gpu_advisor.knowledge import gpus
from gpu_advisor.knowledge.china_channel import china_channel


def read_legal_buy(m: Message, u: Understanding) -> None:
    _read_procure(m, u)
    if u.ask.get("export") or not m.gpus or u.intents & {"reset", "help", "empty"} or m.live("china_buyable") \
            or m.live("only_sourced"):
        return  # 'only gpus we can legally buy in china, H20 or L20', 'we can only legally buy h20s', '合法能买的只有H20':
        # a rule on the plan's cards, no question asked
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    if not (word_pattern("legal_buy.en").search(typed) or word_pattern("legal_buy.zh").search(typed)):
        return
    if u.updates.get("region") != "china" and not word_pattern("legal_buy.china").search(typed):
        return
    cards = list(dict.fromkeys(g for _s, _e, g, _n in m.gpus))
    if "model" in u.updates:  # the job said with it: sized on what can be had there, the rules answered beside
        u.ask["legal_beside"] = cards
        barred = [g.id for g in gpus() if china_channel(g) == "grey"]  # the A800/H800 too (barred since 2023-10)
        u.updates = {k: v for k, v in u.updates.items() if k not in ("only", "owned")} | {"region": "china"} \
            | {"exclude": sorted({*(u.updates.get("exclude") or []), *barred})}
        u.intents.discard("fit_check")  # ('can we buy …' asks whether it is allowed, not whether it fits)
        u.compare_gpus, u.whatif_gpus = [], None
        return
    u.ask["export"], u.ask["legal_buy"] = cards, True
    u.intents = (u.intents - {"compare_cards", "whatif"}) | {"availability"}
    u.cards, u.compare_gpus, u.updates = cards, [], {"region": "china"}


def _read_procure(m: Message, u: Understanding) -> None:
    """A stock question about buying the cards named ('H20和4090在国内哪个更好买', 'is the H20 easy to get'):
    u.ask["procure"], answered per channel in China (assistant/china_market.py); renting only is left to the offers."""
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    if "availability" in u.intents and m.gpus and (word_pattern("zhmarket.buy_en").search(typed)
                                                   or word_pattern("zhmarket.buy_zh").search(typed)):
        u.ask["procure"] = True
