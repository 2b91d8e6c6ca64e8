"""A job's output said as its total ('~50M output tokens', '一共要生成5000万token'): no single answer is a million
tokens long, so the amount is the whole job's. With a count of items said, each item writes its share; without,
the items are that total over the usual output per item (or the one said), and the reply says so."""

from __future__ import annotations

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.quote_units import PER_TOKEN_UNITS
from gpu_advisor.assistant.slots import SLOTS

TOTAL_FROM = 1_000_000  # output tokens no one answer reaches: a total


def read_output_total(m: Message, u: Understanding) -> None:
    if m.phase in ("serve", "production", "experiment") or u.updates.get("phase") not in (None, "batch"):
        return
    totals = [q for q in m.role("output_tokens") if q.value >= TOTAL_FROM]
    if not totals:
        return
    total = totals[-1].value
    if u.ask.get("per_token") and total in PER_TOKEN_UNITS:  # '每百万输出token成本': the price's unit, not a batch
        return
    each = [q.value for q in m.role("output_tokens") if q.value < TOTAL_FROM]
    items = u.updates.get("batch_items")
    if items:
        u.updates["batch_output_tokens"] = max(1, round(total / items))
    else:
        per_item = int(each[-1]) if each else int(SLOTS["batch_output_tokens"].default)
        u.updates["batch_output_tokens"] = per_item
        u.updates["batch_items"] = max(1, round(total / per_item))
        u.notes.append(("note.output_total", {"total": f"{total:,.0f}", "items": f"{u.updates['batch_items']:,}",
                                              "each": f"{per_item:,}"}))
    u.updates["phase"] = "batch"
    if "prompt_tokens" in u.updates and "batch_input_tokens" not in u.updates:
        u.updates["batch_input_tokens"] = u.updates.pop("prompt_tokens")  # '~300 tok prompts': each item's


def read_input_total(m: Message, u: Understanding) -> None:
    """A batch job's tokens said as its total with no count of items ('离线翻译 5000 万 token', 'batch translation of
    50M tokens'): no single item is a million tokens long, so the amount is the whole job's. The items are that total
    over the usual input per item, said; never the items asked for when the total already sizes the job."""
    if (u.updates.get("phase") or m.phase) != "batch" or u.updates.get("batch_items"):
        return
    said = [u.updates.get("batch_input_tokens") or 0, u.updates.get("train_tokens") or 0]
    total = max(said)
    if total < TOTAL_FROM:
        return
    u.updates.pop("train_tokens", None)
    u.updates.pop("batch_input_tokens", None)
    per_item = int(SLOTS["batch_input_tokens"].default)
    u.updates["batch_input_tokens"] = per_item
    u.updates["batch_items"] = max(1, round(total / per_item))
    u.notes.append(("note.input_total", {"total": f"{total:,.0f}", "items": f"{u.updates['batch_items']:,}",
                                         "each": f"{per_item:,}"}))
