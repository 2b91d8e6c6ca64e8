"""The price of the server bought, said first ('考虑买一台8卡A800整机大概多少钱' -> '整机大概 ¥X'): the whole
machine, cards plus the chassis they go into (knowledge.purchase.purchase_usd, the price the plan and every
rent-or-buy comparison use), so the turn that asks and the plan after it price the same box. Nothing for a desktop
card (it goes into the PC you have) or a card with no price on record. Words: catalog server_price.*."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gpu_advisor.assistant.catalog import say


def line(gpu: Any, n: int, lang: str, money: Callable[[float], str]) -> str:
    """'8 × NVIDIA A800 整机大概 ¥X：卡 ¥Y + 服务器机箱 ¥Z (record)', or '' when there is no such price."""
    from gpu_advisor.knowledge.purchase import host_usd, purchase_usd, whole_boards

    if gpu.host_kind == "consumer" or gpu.buy_price_usd is None:
        return ""
    whole = purchase_usd(gpu, n)
    if whole is None:
        return ""
    host = host_usd(gpu, n)
    billed = whole_boards(n, gpu.sold_in)
    if billed != n:  # 4 of a card sold only on 8-GPU boards: the server bought holds 8, priced per card as every turn
        return say(lang, "zhmarket.server_whole", gpu=gpu.name, n=n, per=gpu.sold_in, billed=billed, total=money(whole),
                   cards=money(whole - host), each=money((whole - host) / billed), host=money(host))
    return say(lang, "server_price.line", setup=f"{n} × {gpu.name}", total=money(whole), cards=money(whole - host),
               host=money(host))


def in_currency(sentence: str, lang: str, money: Callable[[float], str]) -> str:
    """A tool's assumption with its dollar amounts in the conversation's money ('租金 0.80 美元/卡·小时' -> '租金 ¥5.71
    ($0.80)/卡·小时'): where the reply is in Chinese or priced in yuan; the unit word is the catalog's."""
    import re

    if lang != "zh" and money(1.0).startswith("$"):
        return sentence
    unit = re.escape(say(lang, "server_price.usd_unit"))
    return re.sub(rf"(\d[\d,]*(?:\.\d+)?) ?{unit}\b" if lang != "zh" else rf"(\d[\d,]*(?:\.\d+)?) ?{unit}",
                  lambda m: money(float(m.group(1).replace(",", ""))), sentence)
