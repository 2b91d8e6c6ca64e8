"""Two weight formats of one width weighed ('is AWQ or GPTQ better quality for a 70b model? does it matter if im
serving w/ vllm', 'awq vs q4 gguf', 'AWQ跟GPTQ有啥区别', 'AWQ和GPTQ哪个精度好'): a concept question about formats,
never a sizing request. The formats named (catalog precision ids of one width, two or more), a comparison cue, and
nothing to size besides the model they are for, its job and engine, or a purchase still ahead ('before we buy').
Sets intent precision_compare with u.ask["pair"] (the ids) and u.ask["model"] (the model named, else the bare
size); the reply is assistant/format_pair.py's. Words: words/format_pair.yaml."""

from __future__ import annotations

import re

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import vocab, word_pattern

# Slots the question's own words may fill: the format ('awq' -> precision), the model it is for, its job and engine,
# a purchase still ahead ('asking before we buy'), and the widths' own words ('4位' -> a count of users).
OWN_SLOTS = {"precision", "kv_cache", "qlora_base", "model", "phase", "engine", "engine_app", "preference", "users",
             "only"}
# Intents the weighed pair replaces (the format question, the concept of quantization, a what-if to one format).
REPLACED = {"concept", "explain", "whatif", "formats", "math", "why", "quality", "engine_choice", "not_sure"}


def pair_named(m: Message, bits: int) -> list[str]:
    """The catalog precisions of width `bits` the message names, each once in the order said ('gguf' read as that
    width's GGUF file); empty when a format named is of another width or not on record."""
    from gpu_advisor.assistant.reading.asks import formats_named
    from gpu_advisor.knowledge import find_precision

    family = vocab()["format_pair"]["family"]
    out: list[str] = []
    for name in formats_named(m):
        pid = family[name].get(bits) if name in family else name
        try:
            fmt = find_precision(str(pid))
        except (LookupError, ValueError):
            return []
        if int(fmt.bits_per_weight) != bits or fmt.compute != "bf16":
            return []  # another width, or a format computed in its own width (FP8 W8A8): weighed by width
        if fmt.id not in out:
            out.append(fmt.id)
    return out


def quality_said(m: Message, typed: str) -> bool:
    """Quality named beside the formats ('better quality', 'vs fp8 quality on 8b', '哪个精度好', '精度损失')."""
    said = vocab()["format_pair"]["quality"]
    return bool(word_pattern("quality.en").search(m.masked) or word_pattern("quality.zh").search(typed)
                or re.search(said["en"], m.text) or re.search(said["zh"], typed))


def _one_engine(pair: list[str]) -> bool:
    """Whether one engine loads every format (AWQ and GPTQ in vLLM): weighed as formats, not picked by engine."""
    from gpu_advisor.knowledge import find_precision

    return bool(set.intersection(*(set(find_precision(x).engines) for x in pair)))


def read_format_pair(m: Message, u: Understanding, widths: list[tuple[int, str | None]]) -> bool:
    """Whether the message weighs two formats of one width; when it does, u is set for the reply."""
    if len(widths) != 1 or set(u.updates) - OWN_SLOTS or u.unknown_model:
        return False
    typed = m.raw.lower()
    cue = vocab()["format_pair"]["cue"]
    quality = quality_said(m, typed)  # 'better quality', '哪个精度好': weighed, not picked by engine
    if not (quality or re.search(cue["en"], m.text) or re.search(cue["zh"], typed)):
        return False
    pair = pair_named(m, int(widths[0][0]))
    if len(pair) < 2 or not (quality or (_one_engine(pair) and "formats" not in u.intents)):
        return False  # 'awq vs gptq, which one should i use': the format question (the plan's, or this pair's)
    model = u.updates.get("model")
    if not isinstance(model, str):
        from gpu_advisor.assistant.reading.model import read_model

        model = read_model(m) or None  # 'for a 70b model': the bare size, sized as its own model
    u.intents = (u.intents - REPLACED) | {"precision_compare"}
    u.topic, u.aside, u.also = None, None, None
    u.ask = {"pair": pair, **({"model": model} if model else {})}
    u.updates, u.scale, u.notes, u.problems = {}, {}, [], []
    u.compare_gpus, u.whatif_gpus = [], None
    return True
