"""One card to buy set against renting ('worth buying a 5090 or keep renting? finetune mistral 7b twice a month, ~3 hrs
on a rented a100', '买一张5090还是继续租？每月微调两次mistral 7b，每次在租的a100上跑3小时'): u.ask["buy_or_rent"] holds
the card to buy, the card rented now (said 'rented', else None: the plan's) and a run's hours on it when said;
assistant/buy_or_rent.py weighs a month of that rent against the purchase. The words: words/choice.yaml."""

from __future__ import annotations

import re
import unicodedata

from gpu_advisor.assistant.reading.asked_more import read_asked_more
from gpu_advisor.assistant.reading.buy_weighed import bought_as_server
from gpu_advisor.assistant.reading.cost_asked import read_cost_asked
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern
from gpu_advisor.assistant.reading.vague_buy import vague_buy_count

# Characters before a card where 'rented' is looked for.
RENTED_WINDOW = 16


def read_buy_or_rent(m: Message, u: Understanding) -> None:
    """Buying one card set against renting; else a monthly or hourly cost asked with no purchase said: a rental
    (reading/cost_asked.py)."""
    _buy_or_rent(m, u)
    read_cost_asked(m, u)
    read_asked_more(m, u)  # questions beside the sizing: the biggest model for the budget


def _buy_or_rent(m: Message, u: Understanding) -> None:
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    if not (word_pattern("buy_or_rent.keep").search(m.text) or word_pattern("buy_or_rent.keep_zh").search(typed)):
        _buy_asked(m, u, typed)
        return
    rented_word = word_pattern("buy_or_rent.rented")
    buy, rented = None, None
    counts: dict[str, int] = {}
    for start, _end, gpu_id, n in m.gpus:
        if rented_word.search(m.text[max(0, start - RENTED_WINDOW):start]):
            rented = rented or gpu_id
        else:
            buy = buy or gpu_id
            counts[gpu_id] = max(counts.get(gpu_id, 1), n or 1)
    if buy is None or counts.get(buy, 1) > 1:
        return  # several cards to buy ('一台8卡H200', 'a box w/ 8x H200'): the setup weighed (assistant.setup_buy_rent)
    unit = word_pattern("buy_or_rent.hours_unit")
    hours = next((q.number for q in m.qty if unit.match((q.extra or "").strip()) and not q.negated), None)
    u.ask["buy_or_rent"] = {"buy": buy, "rented": rented, "hours": hours, "server": bought_as_server(m, buy),
                            **vague_buy_count(m, buy)}  # 'a couple of 4090s': priced at 2 (reading/vague_buy.py)
    if u.updates.get("utilisation"):
        u.ask["buy_or_rent"]["busy"] = u.updates["utilisation"]  # '10 hrs a week': the rented card's share of hours
    if "horizon_months" not in u.updates and (word_pattern("buy_or_rent.year").search(m.text)
                                              or word_pattern("buy_or_rent.year").search(typed)):
        u.updates["horizon_months"] = 12  # 'which is cheaper over a year?': the year is the horizon
    u.ask.pop("job", None)
    if u.also == "compare_cards":
        u.also = None  # the choice is buying against renting, not the two cards' figures
    u.updates.pop("only", None)
    u.updates.pop("preference", None)  # '还是继续租' asks which, it prefers neither  # the card to buy and the one rented are the two sides, not the only cards allowed


def _buy_asked(m: Message, u: Understanding, typed: str) -> None:
    """Buying the one card named asked on its own ('would buying it pay off?', '买5090划算吗'): u.ask["buy_asked"],
    the buy-or-rent again when the turn before weighed one (assistant/buy_again.py)."""
    cards = {gpu_id for _s, _e, gpu_id, _n in m.gpus}
    if len(cards) == 1 and (word_pattern("buy_or_rent.again").search(m.text)
                            or word_pattern("buy_or_rent.again_zh").search(typed)):
        u.ask["buy_asked"] = next(iter(cards))


def cloud_only(m: Message, cloud: str) -> bool:
    """Whether the cloud named is said to be the only place ('aws only', 'only on azure', '只用阿里云'): renting,
    even when rent or buy is asked."""
    from gpu_advisor.knowledge.clouds import clouds

    record = clouds().get(cloud) if cloud else None
    if record is None:
        return False
    for name in {record.name.lower(), cloud.lower()}:
        for x in re.finditer(re.escape(name), m.masked):
            if word_pattern("cloud_only_after").match(m.masked[x.end():x.end() + 12]) \
                    or word_pattern("cloud_only_before").search(m.masked[max(0, x.start() - 14):x.start()]):
                return True
    return False
