"""Renting against buying asked of one card named with its count ('should we rent or buy two 4090s to LoRA qwen3
32b?', '租卡还是买两张4090划算', '买4张L20还是租'): those cards, that many, are what buying would get, so the plan is
that count (u.updates["only_bought"]; tools/count_bought.py falls back to the method that fits it). A card of the
user's own, or two cards weighed ('租A800还是买两张4090'), is another question (reading.owned, reading.comparisons)."""
from __future__ import annotations

from gpu_advisor.assistant.reading.message import Message, Understanding


def read_count_bought(m: Message, u: Understanding) -> None:
    only = u.updates.get("only") or []
    named = {g for _s, _e, g, _n in m.gpus}
    if "rent_buy" in u.intents and len(only) == 1 and str(only[0])[:1].isdigit() and len(named) == 1 \
            and not u.updates.get("owned") and not u.compare_gpus:
        u.updates["only_bought"] = True
