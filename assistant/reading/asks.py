"""Questions about the plan on screen that are not sizing requests: which link between the cards the job
needs ('do i need nvlink for this or is pcie fine', '没插nvlink桥 影响大吗'), which weight format ('q4_k_m
gguf or awq with vllm?'), which parallelism ('tensor or expert parallel here?', '是不是直接tp=8就行').

Each is an intent code (ASKS) with what it is about in `u.ask`; the words are assistant/reading/words/
asks.yaml's. A message that also gives something to size is a sizing request, not one of these."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from gpu_advisor.assistant.reading.card_forms import forms_alone
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import vocab, word_pattern

# Intent codes of these questions, in the order they are tried (assistant/asks.py answers each).
ASKS = ("interconnect", "parallelism", "formats")
# Slots a question's own words may fill ("awq with vllm": a format and an engine named, nothing to size).
OWN_SLOTS = {"engine", "engine_app", "precision", "kv_cache", "phase", "preference", "region", "method", "only"}
# Names of weight formats as people write them, beside the catalog's precision ids (a family, not one file).
FAMILY_WORDS = {"gguf": "gguf", "awq": "awq", "gptq": "gptq", "exl2": "exl2", "exllama": "exl2", "exllamav2": "exl2",
                "mlx": "mlx", "bitsandbytes": "bnb", "bnb": "bnb", "nf4": "bnb", "safetensors": "bf16"}


def _typed(m: Message) -> str:
    return unicodedata.normalize("NFKC", m.raw).lower()


def _hit(m: Message, code: str, part: str) -> bool:
    words = vocab()["asks"][code][part]
    return bool(re.search(words["en"], m.text) or re.search(words["zh"], _typed(m)))


def formats_named(m: Message) -> list[str]:
    """The weight formats a message names, each once in the order said, as format families or catalog
    precision ids ('q4_k_m gguf and awq' -> ['q4_k_m', 'awq'])."""
    from gpu_advisor.knowledge import find_precision

    found: list[str] = []
    for hit in re.finditer(vocab()["asks"]["formats"]["subject"]["zh"], _typed(m)):
        word = hit.group().strip()
        try:
            name = find_precision(word).id
        except (LookupError, ValueError):
            name = FAMILY_WORDS.get(word, word)
        if name not in found:
            found.append(name)
    if any(re.fullmatch(r"q\d_\w+", f) for f in found) and "gguf" in found:
        found.remove("gguf")  # "q4_k_m gguf": the file named is the format
    if "int4" in found and {"awq", "gptq-int4"} & set(found):
        found.remove("int4")  # "int4 awq": the width qualifies the format named
    return found


def _link_said(m: Message) -> bool:
    """Whether a link is said outside the card names: 'h100 pcie vs h100 sxm' names two cards, no interconnect."""
    words = vocab()["asks"]["interconnect"]["subject"]
    return bool(re.search(words["en"], m.masked) or re.search(words["zh"], m.masked))


def _said(m: Message, key: str) -> bool:
    return bool(word_pattern(key).search(m.text) or word_pattern(key).search(_typed(m)))


def _details(m: Message, code: str | None, degree: re.Match[str] | None) -> dict[str, Any]:
    """What the question is about: a bridge the user says is not fitted, a tensor-parallel degree proposed."""
    if code == "interconnect":
        return {"no_bridge": _said(m, "asks.interconnect.no_bridge.en") or _said(m, "asks.interconnect.no_bridge.zh")}
    if code == "parallelism" and degree:
        return {"tp": int(degree.group(1))}
    return {}


def _example_model(m: Message, u: Understanding) -> str | None:
    """The catalog model a format question is about ('AWQ、GPTQ、GGUF、FP8啥区别，我用vLLM部署Qwen3-32B该选哪个'):
    with two formats or more named and nothing else to size, each format's memory is shown for it."""
    if len(formats_named(m)) < 2 or not _hit(m, "formats", "cue") or not m.names:
        return None
    model = u.updates.get("model")
    return model if isinstance(model, str) and any(model == x for _s, _e, x in m.names) else None


def _link_beside(m: Message, u: Understanding) -> None:
    """A link question said with a job to size ('does nvlink matter for a 70b on 4 cards'): answered after the plan."""
    if not u.also and not forms_alone(m) and _hit(m, "interconnect", "subject") and _hit(m, "interconnect", "cue") \
            and _link_said(m):  # ('pcie 和 sxm 的区别': a card's two forms compared, no link asked)
        u.also, u.ask = "interconnect", {**u.ask, **_details(m, "interconnect", None)}


def _parallelism_beside(m: Message, u: Understanding) -> None:
    """A parallelism question said with a job to size ('difference between tensor parallel and expert parallel for
    serving qwen3-235b, which one on 8x h100'): answered after the plan, with the pick between TP and EP when both
    are named (review BS #7: the definitions and a purchase, no pick)."""
    if u.also or not (_hit(m, "parallelism", "subject") and _hit(m, "parallelism", "cue")):
        return
    words = vocab()["parallel_choice"]
    if re.search(words["tp"], m.text) and re.search(words["ep"], m.text):
        u.also, u.ask = "parallelism", {**u.ask, "tp_ep": True}


def read_ask(m: Message, u: Understanding) -> None:
    """One of ASKS, with what it is about in u.ask; the values its own words filled are dropped."""
    if u.intents & {"reset", "help", "empty"} or u.choice is not None:
        return
    degree = word_pattern("asks.parallelism.degree").search(_typed(m))
    if degree:  # "tp=8" at the utilisation question: a parallel degree, not 8% or 8 users
        n = int(degree.group(1))
        for slot in ("utilisation", "users", "context", "batch_items", "server_gpus"):
            if u.updates.get(slot) in (n, n / 100):
                u.updates.pop(slot)
    example = _example_model(m, u)
    if set(u.updates) - OWN_SLOTS - m.weak - ({"model"} if example else set()) or u.unknown_model or u.scale:
        _link_beside(m, u)
        _parallelism_beside(m, u)
        return  # something to size: a sizing request ('does nvlink matter for a 70b on 4 cards': the link after it)
    if word_pattern("quality.en").search(m.masked) or word_pattern("quality.zh").search(_typed(m)):
        return  # "will eval scores differ between fp8 and bf16?": a quality question
    code = next((c for c in ASKS if _hit(m, c, "subject") and _hit(m, c, "cue")
                 and (c != "interconnect" or _link_said(m))), None)
    if code in ("interconnect", "parallelism") and u.topic and not _said(m, "asks.plan_cue"):
        if _said(m, "asks.job_cue"):  # "when should I turn on tensor parallelism?": this plan's, if one is on screen
            u.ask = {"plan_code": code, **_details(m, code, degree)}
        return  # "what is nvlink?": the glossary's question
    ask = _details(m, code, degree)
    if code is None or code == "formats":
        named = formats_named(m)
        engines = [e for s, _e, e in m.engines]
        cue = _hit(m, "formats", "cue")
        if cue and (len(named) >= 2 or (named and (engines or word_pattern("asks.formats.words").search(_typed(m))))):
            code, ask = "formats", {"formats": named[:4], **({"model": example} if example else {})}
        elif code == "formats":
            code = None
    if code is None and example and set(u.updates) - OWN_SLOTS - m.weak:
        return  # a model named with no format question: a sizing request
    if code is None:
        if asked_again(m) and not set(u.updates) - OWN_SLOTS:
            u.ask = {"again": True}
        return
    u.intents.add(code)
    u.intents -= {"concept", "explain", "whatif", "math", "why", "engine_choice", "not_sure"}
    u.ask = ask
    u.topic, u.aside = None, None
    u.engines = list(dict.fromkeys(e for _s, _e, e in m.engines))
    u.updates = {k: v for k, v in u.updates.items() if k not in OWN_SLOTS and k != "model"}
    u.compare_gpus, u.whatif_gpus = [], None
    u.notes = []


def asked_again(m: Message) -> bool:
    """A short follow-up that names no subject but asks the last question again ('昇腾上一般用哪个', 'and
    which one do people use on ascend?'): the engine asks it again when the last reply was one of ASKS."""
    return bool(word_pattern("asks.parallelism.again").search(m.text)
                or word_pattern("asks.parallelism.again").search(_typed(m)))


def read_market(m: Message, u: Understanding) -> None:
    """A price or stock question that wants each provider's offers ('the hourly price per provider', 'cheapest
    place to rent an h100'), or names a provider ('天翼云上有昇腾卡可以租吗'): u.ask['per_provider'],
    u.ask['provider'] (as typed)."""
    if "availability" not in u.intents:
        return
    if word_pattern("asks.per_provider").search(m.text) or word_pattern("asks.per_provider").search(_typed(m)):
        u.ask["per_provider"] = True
    if not u.cards and word_pattern("asks.ascend").search(_typed(m)):
        u.ask["vendor"] = "huawei"  # "昇腾卡": the Ascend cards, whichever
    said = word_pattern("asks.provider.en").search(_typed(m)) or word_pattern("asks.provider.zh").search(_typed(m))
    if said:
        u.ask["provider"] = said.group().strip()
        u.ask["per_provider"] = True
