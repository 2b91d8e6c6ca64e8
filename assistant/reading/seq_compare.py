"""'does context length matter much for finetuning memory? going from 4k to 32k seq len for llama 3.1 8b lora',
'序列长度从4k加到32k，llama 3.1 8b 做lora显存会涨多少？': two training sequence lengths weighed on memory (intent
method_compare with u.ask["seq_lens"]: the lengths in the order said; u.ask["seq_method"]: the method said, else
LoRA). The model and the cards said stay the conversation's; the job sized at neither length, and no run of
invented tokens. The words: words/seq_compare.yaml; the reply: assistant/seq_compare.py."""

from __future__ import annotations

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern

# Sequence lengths a training run uses: below or above these a number is something else.
LOWEST, HIGHEST = 256, 1_048_576
# Roles a number said as a length can carry (the readers may give a bare '32k' no role, or 'previous' for 'from 4k').
LENGTH_ROLES = ("", "previous", "context", "per_item_tokens", "seq_len")
# Slots the message keeps beside the comparison: the example model, the cards asked on, the job and method words.
KEPT = {"model", "only", "owned", "phase", "method"}


def lengths_said(m: Message) -> list[int]:
    """The sequence lengths said, in order, once each."""
    found = []
    for q in m.qty:
        if q.negated or q.role not in LENGTH_ROLES or q.extra or q.scale not in ("k", ""):
            continue
        if LOWEST <= q.value <= HIGHEST:
            found.append(round(q.value))
    return list(dict.fromkeys(found))


def read_seq_compare(m: Message, u: Understanding) -> None:
    if u.intents & {"reset", "help", "empty", "method_compare"} or u.choice is not None:
        return
    lengths = lengths_said(m)
    if len(lengths) != 2 or not word_pattern("seq_compare.length").search(m.text):
        return
    if not word_pattern("seq_compare.memory").search(m.text):
        return
    if u.updates.get("phase") not in (None, "fine-tune") or not (
            u.updates.get("phase") == "fine-tune" or word_pattern("seq_compare.training").search(m.text)):
        return
    method = u.updates.get("method") if u.updates.get("method") in ("lora", "qlora", "full") else "lora"
    u.intents = (u.intents - {"concept", "explain", "whatif", "math", "why", "not_sure"}) | {"method_compare"}
    u.ask = {**u.ask, "seq_lens": lengths, "seq_method": method, "seq_method_said": "method" in u.updates}
    u.updates = {k: v for k, v in u.updates.items() if k in KEPT}
    if not (u.updates.get("only") or u.updates.get("owned")):  # "…显存差多少单卡A100 80GB": the card asked on
        said = u.whatif_gpus or ((1, u.compare_gpus[0]) if len(u.compare_gpus) == 1 else None)
        if said:
            u.updates["only"] = [f"{said[0]}x {said[1]}"]
    u.updates["phase"] = "fine-tune"
    if "model" not in u.updates:  # the example a concept reading dropped ('for llama 3.1 8b', 'a 70b model')
        from gpu_advisor.assistant.reading.model import read_model

        model = m.names[0][2] if m.names else read_model(m)
        if model:
            u.updates["model"] = model
    u.topic, u.aside, u.whatif_gpus, u.compare_gpus = None, None, None, []
