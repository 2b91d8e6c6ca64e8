"""Why a card cannot be bought in China ('为啥国内买不到H100', 'is the h100 banned in china?'): the cards named go to
u.ask["export"] and the reply gives the US export rules behind them (assistant/card_diff.py). Asked beside a
difference question ('H20和H800到底有啥区别？为啥国内买不到H100'), the cards of the difference clause are compared
(compare_cards) and the rules follow the table; asked alone, the rules are the answer (intent availability with
ask["export"], never a price list). A difference question ("what's the difference between X and Y") also sets
ask["difference"]: the table shows each card's export status and leaves prices out unless they are asked.
The words: words/export_asked.yaml."""

from __future__ import annotations

import re
import unicodedata

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import vocab

PRICE_ASKED = re.compile(r"\b(?:price|prices|priced|cost|costs|cheap\w*|expensive|pricier|\$)")


def read_export_asked(m: Message, u: Understanding) -> None:
    if u.intents & {"reset", "help", "empty"}:
        return
    cards = list(dict.fromkeys(g for _s, _e, g, _n in m.gpus))
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    if "compare_cards" in u.intents and len(cards) >= 2 and _difference(m, typed) and not _price_asked(m, typed):
        u.ask["difference"] = True  # 'X和Y有啥区别': the spec table with export status, no prices
    words = vocab()["export_asked"]
    if not cards or not (re.search(words["en"], m.text) or re.search(words["zh"], typed)):
        return
    u.ask["export"] = cards
    compared = _difference_cards(m, words["clause_end"])
    if len(compared) >= 2 and _difference(m, typed):
        u.intents = (u.intents - {"availability"}) | {"compare_cards"}
        u.cards, u.compare_gpus = compared, compared
        if not _price_asked(m, typed):
            u.ask["difference"] = True
        return
    u.intents = (u.intents - {"compare_cards", "whatif"}) | {"availability"}
    u.cards, u.compare_gpus, u.updates = cards, [], {}


def _difference(m: Message, typed: str) -> bool:
    words = vocab()["export_asked"]["difference"]
    return bool(re.search(words["en"], m.masked) or re.search(words["zh"], typed))


def _price_asked(m: Message, typed: str) -> bool:
    return bool(PRICE_ASKED.search(m.masked) or re.search(r"价|钱|贵|便宜|租金|多少钱", typed))


def _difference_cards(m: Message, clause_end: str) -> list[str]:
    """The cards named in the clause that asks the difference ('H20和H800到底有啥区别'), else every card named."""
    start = 0
    for end in [x.end() for x in re.finditer(clause_end, m.text)] + [len(m.text)]:
        if re.search(vocab()["export_asked"]["difference"]["en"], m.text[start:end]):
            inside = list(dict.fromkeys(g for s, _e, g, _n in m.gpus if start <= s < end))
            if len(inside) >= 2:
                return inside
        start = end
    return list(dict.fromkeys(g for _s, _e, g, _n in m.gpus))
