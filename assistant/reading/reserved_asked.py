"""On demand against a reservation asked beside a sizing, with no reserved price said ('what would that cost per
month on demand vs a 1 yr reserved?', '按量付费和包年哪个划算'): renting is what is asked about, and the reply weighs
the two on the plan's own on-demand price (assistant.reserved_asked). A reserved price said is the forecast and
prices readers' (reading/forecast.py, reading/prices.py)."""

from __future__ import annotations

import re
import unicodedata

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import vocab


def read_reserved_asked(m: Message, u: Understanding) -> None:
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    words = vocab()
    if u.prices or u.quotes or not (re.search(words["reserve_words"], typed) and re.search(words["on_demand_words"], typed)):
        return
    if not ({"phase", "model", "users", "population"} & set(u.updates)):
        return  # nothing sized here: the forecast and price readers answer it
    u.ask = {**u.ask, "reserved_asked": True}
    if u.updates.get("preference") in (None, "either"):
        u.updates["preference"] = "rent"  # on demand or reserved: both are renting
