"""'h100 vs a100 for finetuning, is the h100 actually worth ~2x the hourly price?', 'H100 每小时贵一倍值得吗':
with two cards compared, the price ratio the user says between them (u.ask["price_ratio"]: the dearer card's
hourly price over the cheaper's). The comparison then weighs the cost per run at that ratio beside the market's
(assistant/price_ratio.py). Words: words/price_ratio.yaml."""

from __future__ import annotations

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern

# Ratios a price comparison can mean; outside them the number is something else.
LOWEST, HIGHEST = 1.05, 20.0


def said_ratio(m: Message) -> float | None:
    """The price ratio said ('~2x the hourly price' -> 2.0, '贵 1 倍' -> 2.0, '价格是 a100 的 2 倍' -> 2.0)."""
    x = word_pattern("price_ratio.times").search(m.text)
    if x:
        value = 2.0 if x.group("twice") else float(x.group("n") or x.group("n2"))
    elif (x := word_pattern("price_ratio.more_zh").search(m.text)) is not None:
        value = float(x.group("n")) + 1  # "贵一倍": one times more, twice the price
    elif (x := word_pattern("price_ratio.times_zh").search(m.text)) is not None:
        value = float(x.group("n"))
    else:
        return None
    return value if LOWEST <= value <= HIGHEST else None


def read_price_ratio(m: Message, u: Understanding) -> None:
    if len(u.compare_gpus) < 2 and len(u.cards) < 2:
        return
    ratio = said_ratio(m)
    if ratio is not None:
        u.ask = {**u.ask, "price_ratio": ratio}
