"""'LoRA和QLoRA到底差在哪，显存能省多少？拿llama3.1 8b举个例子', 'lora vs full: how much memory for llama 8b?': two
fine-tuning methods compared (intent method_compare, the methods in u.ask["methods"]); a model named is the example
and stays the conversation's. The words: words/method_compare.yaml; the reply: assistant/method_compare.py."""

from __future__ import annotations

import itertools
import re
import unicodedata
from functools import cache

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import vocab

# Slots the question's own words fill ('LoRA' -> method): dropped; the model named is kept, and the phase when the
# user named it ('can we do lora … or even full finetune of gemma 2 9b': the job is fine-tuning, never asked again).
OWN_SLOTS = {"method", "phase", "qlora_base", "precision"}
PHASE_KEPT = ("fine-tune",)
KEPT = {"model", "only", "owned", "seq_len", "batch"}  # the cards asked on ("8 张 3090 … 全参还是 lora"): the
# comparison is on them; the sequence length said ("序列长度4k") is the example's, both methods measured at it


@cache
def _rows() -> list[tuple[re.Pattern[str], str]]:
    return [(re.compile(p), str(mid)) for p, mid in vocab()["method_compare"]["methods"]]


def methods_named(typed: str) -> list[str]:
    """The methods named, in the order said, without those refused ('full fine-tuning (not lora)': full only)."""
    refused = re.compile(vocab()["method_compare"]["refused_before"])
    found = sorted((hit.start(), mid) for pattern, mid in _rows() for hit in pattern.finditer(typed)
                   if not refused.search(typed[max(0, hit.start() - 14):hit.start()]))
    return list(dict.fromkeys(mid for _s, mid in found))


def method_options(m: Message) -> list[list[str]]:
    """The options of a message that pairs each method with its own model, in the order said: the message cut at
    its joiners (words/method_compare.yaml), each part with one method and one model. [] unless at least two
    parts do so and they name different models (one model: the methods compared on it)."""
    cuts = [0, *(x.end() for x in re.finditer(vocab()["method_compare"]["joiner"], m.masked)), len(m.masked)]
    options: list[list[str]] = []
    for start, end in itertools.pairwise(cuts):
        part = m.masked[start:end]
        methods = methods_named(part)
        models = list(dict.fromkeys(mid for s, _e, mid in m.names if start <= s < end))
        if len(methods) == 1 and len(models) == 1 and [methods[0], models[0]] not in options:
            options.append([methods[0], models[0]])
    return options[:3] if len({model for _m, model in options}) >= 2 else []


def fallback_pair(m: Message) -> tuple[str, str] | None:
    """'can we do full-param SFT? if not, LoRA?', '全参能跑吗？不行的话 LoRA': the method asked first and the one
    named as its fallback (the fallback words between them); None when none is. No comparison: a plan on the first
    when it fits (reading/method_why.py)."""
    found = sorted((hit.start(), hit.end(), mid) for pattern, mid in _rows() for hit in pattern.finditer(m.masked))
    words = vocab()["method_compare"]["fallback"]
    fallback, right_after = re.compile(words), re.compile(rf"[\s,，]*(?:{words})")
    for (start, _e, first), (end, then_end, then) in itertools.pairwise(found):
        # the fallback words between the two ('full? if not, LoRA') or right after the second ('full, or LoRA if
        # that doesn't fit?')
        if first != then and (fallback.search(m.masked[start:end]) or right_after.match(m.masked, then_end)):
            return first, then
    return None


def read_method_compare(m: Message, u: Understanding) -> None:
    if u.intents & {"reset", "help", "empty"} or u.choice is not None or fallback_pair(m):
        return
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    methods = methods_named(typed)
    cue = vocab()["method_compare"]["cue"]
    if len(methods) < 2 or not (re.search(cue["en"], m.text) or re.search(cue["zh"], typed)):
        return
    if set(u.updates) - OWN_SLOTS - KEPT - m.weak:
        _choice_in_plan(u, methods)
        return
    measure = vocab()["method_compare"]["measure"]
    if not m.names and not (re.search(measure["en"], m.text) or re.search(measure["zh"], typed)):
        return  # no model and no amount asked ("lora vs qlora?"): the glossary's concept answer
    u.intents = (u.intents - {"concept", "explain", "whatif", "math", "why", "not_sure"}) | {"method_compare"}
    u.ask = {**u.ask, "methods": methods[:3]}
    options = method_options(m)
    if options:  # "LoRA on gemma 3 27b or full finetune gemma 2 9b": each method on its own model, both sized
        u.ask["options"] = options
        u.updates["model"] = options[0][1]
    u.updates = {k: v for k, v in u.updates.items() if k in KEPT or (k == "phase" and v in PHASE_KEPT)}
    _example(m, u)
    u.topic, u.aside = None, None


def _choice_in_plan(u: Understanding, methods: list[str]) -> None:
    """'… DPO gemma-3-12b on ~40k pairs, seq len 4096. full or lora? will it fit' (review CV #4): a sizing request
    that weighs methods on cards of the user's own. The plan is on the first of them a pick prefers (LoRA, QLoRA, then full: the one that fits
    when any does), and the reply weighs them all on the plan's cards (assistant/method_choice.py)."""
    from gpu_advisor.tools.method_choice import PREFERENCE

    weighed = [x for x in PREFERENCE if x in methods]
    if len(weighed) < 2 or u.updates.get("phase") == "pretrain" or "owned" not in u.updates:
        return  # (no cards of their own: the plan's card weighs the other method, reading/method_why.py _weighed)
    u.ask = {**u.ask, "method_choice": weighed}
    u.updates["method"] = weighed[0]


def _example(m: Message, u: Understanding) -> None:
    """The example the glossary reading dropped: the model ('拿llama3.1 8b举个例子', 'for a 70b model') and the
    sequence length ('序列长度4k'), read again from the message: both methods are measured on them."""
    from gpu_advisor.assistant.reading.job import read_seq_len
    from gpu_advisor.assistant.reading.model import read_model

    if "model" not in u.updates:
        model = m.names[0][2] if m.names else None if m.unknown else read_model(m)  # an unknown name is no size
        if model:
            u.updates["model"] = model
    if "seq_len" not in u.updates:
        seq = read_seq_len(m)
        if seq:
            u.updates["seq_len"] = seq
