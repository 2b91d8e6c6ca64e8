"""A machine bought for the job ('we want to buy one server to fine-tune and serve', '想买服务器…买什么配置'): a purchase,
not a rent-or-buy question, so the plan is one box bought for the whole job (tools.recommend keeps fine-tuning and
serving on it rather than renting a second set of cards for the fine-tune). Renting named in the same message leaves
the question open. The words: words/buy_box.yaml."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gpu_advisor.assistant.reading.clauses import negated
from gpu_advisor.assistant.reading.text import word_pattern

if TYPE_CHECKING:
    from gpu_advisor.assistant.reading.message import Message


def box_bought(m: Message) -> str | None:
    """'buy' when the message buys a machine or asks what to buy, or keeps the hardware on its own premises (and asks no
    rent-or-buy question), and names no renting; else None."""
    if m.live("preference.rent") or m.live("preference.rent_only"):
        return None
    said = word_pattern("buy_box.box").search(m.masked) or word_pattern("buy_box.what").search(m.masked)
    if not said and not word_pattern("intents.rent_buy").search(m.masked):  # '私有化部署…买卡的话买什么 几台': their building
        said = next((x for x in word_pattern("on_prem_said").finditer(m.masked) if not negated(m.masked, x.start())), None)
    return "buy" if said else None


def peak_time(masked: str, start: int, end: int) -> bool:
    """Whether the time-of-day words at masked[start:end] say when the peak comes ('白天高峰', 'peak during business
    hours'): a default busy share then, assumed, not said."""
    return bool(word_pattern("buy_box.peak_after").match(masked[end:end + 12])
                or word_pattern("buy_box.peak_before").search(masked[max(0, start - 30):start]))
