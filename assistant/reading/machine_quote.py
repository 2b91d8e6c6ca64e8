"""A machine's price said with the cards it holds ("~280k usd per 8-GPU server" for 16 H100s: two servers, $35,000
a card) and a hosting bill that holds the power ("colo+power 3k/month per server": no electricity on top). The
words are in words/machine_quote.yaml; assistant.inform prices that many machines."""

from __future__ import annotations

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern


def read_machine_quote(m: Message, u: Understanding) -> None:
    """u.prices['machine_gpus']: the cards in the machine priced, when said and fewer than the cards counted;
    u.prices['hosting_with_power'] (1.0): the hosting said includes the power. The quote of the machine's card
    is its price over that many cards."""
    if "hosting_usd_per_month_machine" in u.prices and word_pattern("hosting_with_power").search(m.masked):
        u.prices["hosting_with_power"] = 1.0
    if "buy_usd_machine" not in u.prices or len(u.cards) != 1:
        return
    said = word_pattern("machine_size").search(m.masked)
    if said is None:
        return
    size = int(said.group("a") or said.group("b"))
    if not 2 <= size <= 16 or u.counts.get(u.cards[0], size) % size:
        return
    u.prices["machine_gpus"] = float(size)
    for quote in u.quotes:
        if quote.get("gpu") == u.cards[0] and "buy_usd_per_gpu" in quote:
            quote["buy_usd_per_gpu"] = round(u.prices["buy_usd_machine"] / size, 2)
            quote["machine_gpus"] = size
