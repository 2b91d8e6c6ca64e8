"""Questions asked beside a sizing that the plan alone does not answer, as u.ask codes (assistant/asked_more.py
answers them under the plan with its tools' figures). The words: words/asked_more.yaml.

- u.ask["biggest_model"]: 'if not, what's the biggest model we can serve for that money at the same load',
  '如果不行，这笔钱同样负载下最大能跑多大的模型' (tools.biggest).
- u.ask["moe_dense"]: why a MoE model runs faster than a dense one yet saves little memory, the dense model asked
  beside it ('为啥 Qwen3-30B-A3B 比 32B 稠密模型快那么多，显存却省不了多少'): {"moe": id, "dense": id}.
- u.ask["first_month"]: 'what does the first month cost total (training + one month of serving)?', '第一个月总共要花多少':
  the fine-tuning run and a month of serving, summed."""

from __future__ import annotations

import unicodedata

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.scale_out import read_scale_out
from gpu_advisor.assistant.reading.text import word_pattern
from gpu_advisor.knowledge import find_model, models


def read_asked_more(m: Message, u: Understanding) -> None:
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    if word_pattern("asked_more.biggest").search(typed) or word_pattern("asked_more.biggest_zh").search(typed) \
            or (_budget_read(u) and any(word_pattern(f"largest_question.{lang}").search(typed) for lang in ("en", "zh"))):
        u.ask["biggest_model"] = True  # the biggest model asked beside a budget said: the biggest for that money
    _moe_dense(m, u, typed)
    read_scale_out(m, u)  # 'and if we got a second node of 8 would it halve it?'
    if (word_pattern("asked_more.first_month").search(typed) and word_pattern("asked_more.first_month_cost").search(typed)) \
            or word_pattern("asked_more.first_month_zh").search(typed):
        u.ask["first_month"] = True


def _budget_read(u: Understanding) -> bool:
    return bool(u.updates.get("budget_usd") or u.updates.get("budget_usd_per_month"))


def _dense_of(moe_id: str, size: float) -> str | None:
    """The catalog's dense model of the MoE model's family nearest the size said ('32B' beside Qwen3-30B-A3B: Qwen3
    32B)."""
    family = find_model(moe_id).family
    found = [x for x in models() if x.family == family and not x.num_experts and not x.encoder
             and abs(x.total_params_b - size) <= max(1.5, size * 0.06)]
    line = moe_id.split("-")[0]  # its own line first ('qwen3'), then the family's others
    return min(found, key=lambda x: (x.id.split("-")[0] != line, abs(x.total_params_b - size), x.id)).id if found else None


def _moe_dense(m: Message, u: Understanding, typed: str) -> None:
    if not (word_pattern("asked_more.moe_why").search(typed) or word_pattern("asked_more.dense").search(typed)):
        return
    if not (word_pattern("asked_more.dense").search(typed) and word_pattern("asked_more.why").search(typed)):
        return
    named = [model_id for _s, _e, model_id in m.names]
    moe = next((x for x in named if find_model(x).num_experts), None)
    if moe is None:
        return
    dense = next((x for x in named if not find_model(x).num_experts), None)
    size = word_pattern("asked_more.dense_size").search(typed)
    if dense is None and size:
        dense = _dense_of(moe, float(next(g for g in size.groups() if g)))
    if dense is not None:
        u.ask["moe_dense"] = {"moe": moe, "dense": dense}
