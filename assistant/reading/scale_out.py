"""More of the same cards asked beside a job on one's own: 'and if we got a second node of 8 would it halve it?', 'how
long on 16 h100 instead of 8?', '加一台能快一倍吗', '再加8张卡能快多少' (assistant/scale_out.py answers it with the
tools' time on that many). The words: words/scale_out.yaml.

u.ask["scale_out"]: {"to": n} (the count asked, 'instead of 8') or {"added": n} (cards added, 'another 8') or
{"times": 2} ('double the gpus') or {"node": True} (one more node or machine, its size the user's own).
u.ask["budget_rate"]: what a monthly budget sustains, 'how many req/s can 40k a month get me', '每月5万能撑多少QPS'
(assistant/budget_rate.py)."""

from __future__ import annotations

import unicodedata
from typing import Any

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern


def _asked(typed: str) -> dict[str, Any] | None:
    instead = word_pattern("scale_out.instead").search(typed)
    if instead and int(instead.group(1)) > int(instead.group(2)) > 0:
        return {"to": int(instead.group(1))}
    if word_pattern("scale_out.double").search(typed):
        return {"times": 2}
    for add, effect in (("scale_out.add", "scale_out.effect"), ("scale_out.add_zh", "scale_out.effect_zh")):
        found = word_pattern(add).search(typed)
        if found is None or not word_pattern(effect).search(typed):
            continue
        count = next((g for g in found.groups() if g), None)
        return {"added": int(count)} if count and int(count) > 0 else {"node": True}
    return None


def read_scale_out(m: Message, u: Understanding) -> None:
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    asked = _asked(typed)
    if asked is not None:
        u.ask["scale_out"] = asked
    if (word_pattern("budget_rate.en").search(typed) or word_pattern("budget_rate.zh").search(typed)) \
            and word_pattern("budget_rate.money").search(typed):  # '8k context, how many concurrent users': no budget
        u.ask["budget_rate"] = True
        if "model" in u.updates:  # a request rate asked of a model named: it is served
            u.updates.setdefault("phase", "serve")
