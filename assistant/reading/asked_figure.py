"""A follow-up that asks for a figure, answered head-on (assistant/asked_figure.py; words/asked_figure.yaml):

- `u.ask["figure"]`: the measure asked of a change ('那换成LoRA呢，快多少' -> speed, 'how much is it at 4k' -> any,
  '换成16k要多少显存' -> memory, '省多少钱' -> cost): the figure at the new value beside the figure before;
- `u.ask["longest"]`: the limit asked of the plan's cards ('那int4的话上下文最多能开到多长' -> context);
- `u.ask["count_each"]`: the cards named with no count whose count is asked ('h200 vs h100 vs mi300x, how many
  servers each?', 'can we use fp8 on h100 to cut the count?'): the fewest of each that meet the job.

A precision asked as a saving ('能省多少') is reading/saving.py's, never a figure here."""

from __future__ import annotations

import unicodedata

from gpu_advisor.assistant.reading.asks_parts import read_asks_parts
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import vocab, word_pattern

MEASURES = ("speed", "cost", "memory", "any")
# The values a bare what-if tries ('at 8k?', '那4k呢', 'what about 64 users?'): its figures are what it asks.
VALUES = {"context", "seq_len", "users", "prompt_tokens", "output_tokens"}


def _said(m: Message, typed: str, key: str) -> bool:
    return bool(word_pattern(f"asked_figure.{key}.en").search(m.text)
                or word_pattern(f"asked_figure.{key}.zh").search(typed))


def read_asked_figure(m: Message, u: Understanding) -> None:
    read_asks_parts(m, u)  # each part of a two-part question kept for its answer (reading.asks_parts)
    if u.intents & {"reset", "help", "empty", "explain", "concept"} or u.choice is not None:
        return
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    longest = _said(m, typed, "longest_context") and "context" not in u.updates  # 'max context 32k': a value stated
    if set(u.updates) - m.weak and not u.ask.get("saving") and not longest:
        measure = next((k for k in MEASURES if k in vocab()["asked_figure"]["measures"]
                        and _said(m, typed, f"measures.{k}")), None)
        if measure is None and "whatif" in u.intents and set(u.updates) <= VALUES:
            measure = "any"  # 'at 8k?', '那4k呢', 'what about 64 users': the figures at that value, asked by the value
        if measure:
            u.ask = {**u.ask, "figure": measure}
    if longest:
        u.ask = {**u.ask, "longest": "context"}
    if _said(m, typed, "add_card"):  # '需要再加一张卡吗': yes or no to one card more (assistant/add_card.py)
        u.ask = {**u.ask, "add_card": True}
    if _said(m, typed, "count_each") and m.gpus:
        counted = set(u.counts) | ({u.whatif_gpus[1]} if u.whatif_gpus else set())
        named = [g for _s, _e, g, _n in m.gpus if g not in counted]
        if named:
            u.ask = {**u.ask, "count_each": list(dict.fromkeys(named))}
        formats = u.ask.get("formats") or []
        if "card_support" in u.intents and len(formats) == 1:
            # '用H100跑fp8能少几张吗': no question whether the card supports FP8, the count in it asked
            u.intents = (u.intents - {"card_support"}) | {"whatif"}
            u.updates["precision"] = formats[0]
            u.compare_gpus, u.cards = list(dict.fromkeys(named)), []
            u.ask = {k: v for k, v in u.ask.items() if k != "formats"}
