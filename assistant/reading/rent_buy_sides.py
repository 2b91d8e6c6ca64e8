"""The two sides of a rent-or-buy question between two cards ('rent an A100 or buy 2 RTX 4090s?', '租云上H800划算还是
自己买四张4090 48G魔改卡？', '自己买两张5090还是上云租H100？'): which card would be bought (with its count when said) and
which rented, so the reply weighs that setup bought against that card rented and ends with one verdict
(assistant/setup_buy_rent.py, assistant/rb_tradeoff.py). u.ask["rent_buy_sides"]: {"buy", "buy_n", "rent"}. The
words: words/rent_buy_sides.yaml; the verb said nearest before each card decides its side."""
from __future__ import annotations

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern

WINDOW = 32  # characters before a card in which its verb is looked for


def _side(m: Message, s: int, e: int) -> str | None:
    """'buy' or 'rent': the verb nearest before the card at masked[s:e], else a cloud said right after it."""
    before = m.masked[max(0, s - WINDOW):s]
    last = {side: max((x.end() for x in word_pattern(f"rent_buy_sides.{side}").finditer(before)), default=-1)
            for side in ("buy", "rent")}
    if max(last.values()) >= 0:
        return max(last, key=lambda k: last[k])
    return "rent" if word_pattern("rent_buy_sides.rent_after").match(m.masked[e:e + 24]) else None


def read_rent_buy_sides(m: Message, u: Understanding) -> None:
    if "rent_buy" not in u.intents or u.updates.get("owned"):
        return
    cards = {g: (s, e, n) for s, e, g, n in reversed(m.gpus)}  # each card once, where first said
    if len(cards) != 2:
        return
    sides = {g: _side(m, s, e) for g, (s, e, _n) in cards.items()}
    buy = [g for g, side in sides.items() if side == "buy"]
    rent = [g for g, side in sides.items() if side == "rent"]
    if len(buy) != 1 or len(rent) != 1:
        return
    s, _e, n = cards[buy[0]]
    u.ask["rent_buy_sides"] = {"buy": buy[0], "buy_n": n if s in m.counted else None, "rent": rent[0]}
    if u.updates.get("only"):  # the cards of the choice are both sides, never the one said first alone
        u.updates["only"] = [f"{n}x {buy[0]}" if s in m.counted else buy[0], rent[0]]
