"""Candidates weighed on one card: the grammar of "q4 vs fp8 on my M3 Ultra?", "H20上跑qwen3-32b，用fp8好还是awq
int4好？", "qwen2.5-coder 14b和32b哪个合适" and "4090 用什么模型好".

A message weighs candidates when it names a card (or owns one) and either two weight formats, two sizes of
one model, two models, or asks which model to run, with a choice or comparison cue. The candidates go in
`u.ask["weigh"]` ({"models": [...], "precisions": [...], "which_model": bool}); the writer
(assistant/weigh.py) sizes each on the card with the tools. The words live in words/weigh.yaml.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from gpu_advisor.assistant.reading.clauses import negated
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.prices import cards_named
from gpu_advisor.assistant.reading.text import vocab
from gpu_advisor.assistant.reading.throughput_first import read_throughput_first
from gpu_advisor.knowledge import find_model, models

MAX_CANDIDATES = 4
SERVING = (None, "serve", "experiment", "production")  # phases whose candidates are weighed as served


def _typed(m: Message) -> str:
    return unicodedata.normalize("NFKC", m.raw).lower()


@cache
def _format_rows() -> list[tuple[re.Pattern[str], str]]:
    return [(re.compile(p), str(fmt)) for p, fmt in vocab()["weigh"]["formats"]]


def formats_weighed(text: str) -> list[str]:
    """The weight formats a message names, each once, in the order written ('fp8好还是awq int4好' ->
    ['fp8', 'awq']): a span taken by one format is not read again by a shorter one."""
    hits: list[tuple[int, int, str]] = []
    for pattern, fmt in _format_rows():
        for x in pattern.finditer(text):
            if not any(s < x.end() and x.start() < e for s, e, _f in hits):
                hits.append((x.start(), x.end(), fmt))
    return list(dict.fromkeys(fmt for _s, _e, fmt in sorted(hits)))


def _cue(m: Message) -> bool:
    cue, same = vocab()["weigh"]["cue"], vocab()["answers"]["same_asked"]  # same: '显存需求一样吗'
    return any(re.search(c["en"], m.text) or re.search(c["zh"], _typed(m)) for c in (cue, same))


def which_model_asked(m: Message) -> bool:
    """'which model should I use', '用什么模型好': a model asked for, none named."""
    words = vocab()["weigh"]["which_model"]
    return bool(re.search(words["en"], m.text) or re.search(words["zh"], _typed(m)))


def sibling(model_id: str, size: float) -> str | None:
    """The catalog model of the same family line at another size ('qwen2.5-coder-7b', 32 ->
    'qwen2.5-coder-32b'); the base line's when the variant has no such size ('qwen2.5-coder', 14 ->
    'qwen2.5-14b', the same architecture); None when neither is in the catalog."""
    stem = re.sub(r"-\d+(?:\.\d+)?b(?:-.*)?$", "", model_id)
    size_tag = f"{size:g}b"
    lines = [stem]
    while "-" in lines[-1]:
        lines.append(lines[-1].rsplit("-", 1)[0])
    ids = {m.id for m in models()}
    for line in lines:
        if f"{line}-{size_tag}" in ids:
            return f"{line}-{size_tag}"
    return None


def _variant_line(m: Message, model_id: str) -> str:
    """A catalog model of the line the user typed when the size named was sized as its base (reading.variants:
    'qwen2.5-coder 14b' is Qwen2.5 14B, the coder line holds 7B and 32B): its siblings are that line's."""
    typed = next((v["typed"] for k, v in m.notes if k == "note.model_variant"), None)
    if not typed:
        return model_id
    line = re.sub(r"[\s-]*\d+(?:\.\d+)?\s*b\b.*$", "", typed.lower()).strip().replace(" ", "-")
    return next((mid for mid in sorted(mo.id for mo in models()) if mid.startswith(line + "-")), model_id)


def _models(m: Message, stand_in: dict[str, str]) -> list[str]:
    """Models weighed: those named, then the other sizes said of the first one's line; a size the line
    lacks is its base line's model, noted in `stand_in` (id -> the name asked for)."""
    named = list(dict.fromkeys(mid for s, _e, mid in m.names if not negated(m.text, s)))
    if len(named) != 1:
        return named[:MAX_CANDIDATES]
    size = vocab()["weigh"]["size"]
    start, end = next((s, e) for s, e, mid in m.names if mid == named[0])
    said = [float(x.group(1)) for x in re.finditer(size, m.text[start:end])]  # "qwen3-32b": its own size first
    sizes = said[:1] + [float(x.group(1)) for x in re.finditer(size, m.masked)]  # others outside names and cards
    first = find_model(named[0])
    ref = _variant_line(m, named[0])  # "qwen2.5-coder 14b和32b": the coder line, though its 14B is sized as the base
    found: list[str] = []
    for size in dict.fromkeys(sizes):
        if abs(size - first.total_params_b) / first.total_params_b < 0.15 and named[0] not in found:
            found.append(named[0])
            if ref != named[0]:
                stand_in[named[0]] = re.sub(r"\d+(?:\.\d+)?B", f"{size:g}B", find_model(ref).name, count=1)
            continue
        other = sibling(ref, size)
        if other and not other.startswith(re.sub(r"-\d+(?:\.\d+)?b(?:-.*)?$", "", named[0]) + "-"):
            stand_in[other] = re.sub(r"\d+(?:\.\d+)?B", f"{size:g}B", first.name, count=1)
        found.append(other or f"{size:g}B")
    if len(found) < 2:
        return named
    return list(dict.fromkeys(found))[:MAX_CANDIDATES]


def _size_of(model: str) -> float:
    """A candidate's total parameters in billions: the catalog's, else the bare size said ('30B')."""
    try:
        return find_model(model).total_params_b
    except LookupError:
        x = re.match(r"(\d+(?:\.\d+)?)", model)
        return float(x.group(1)) if x else 0.0


def _cards_choice(u: Understanding) -> bool:
    """Two or more cards set against each other as the choice ('X or Y', 'X vs Y', '买X还是Y好', 'X和Y哪个好')."""
    compared = "compare_cards" in u.intents or u.also == "compare_cards"
    return compared and len(set(u.cards or u.compare_gpus)) >= 2


def read_weigh(m: Message, u: Understanding) -> None:
    """Candidates weighed on a card (see the module's note): the question, its candidates, and the values
    its own words filled dropped (the format asked about is no format chosen; the first size stands for
    the model)."""
    owned = u.updates.get("owned") or []
    if not (m.gpus or owned or u.card_spec) or u.topic or u.updates.get("phase") not in SERVING \
            or (u.second or {}).get("running"):  # a model running on part of the cards, another added: no choice
        return  # a fine-tuning job's formats and sizes are its sizing's (the candidates are weighed as served)
    text = _typed(m)
    formats = formats_weighed(text)
    stand_in: dict[str, str] = {}
    chosen = _models(m, stand_in)
    which = which_model_asked(m) and not m.names and "model" not in u.updates \
        and not ("compare_cards" in u.intents and len(u.cards) >= 2)  # '本地跑模型用3090还是4070': the cards compared
    if not (len(formats) >= 2 or len(chosen) >= 2 or which) or not (which or _cue(m)):
        return
    if len(formats) < 2 and chosen and _cards_choice(u):
        # 'used 3090 or new 4070 ti super? llama 3.1 8b and maybe some 30b': the cards are the choice, each
        # weighed on every model named (assistant/verdict.py job_models), never the models on the first card
        u.ask["job_models"] = chosen
        u.ask.pop("models", None)  # the models are the job's, not the choice (reading/model_choice.py)
        buying = u.updates.get("preference") == "buy"
        if u.ask.get("one_user") and (u.ask.get("job") == "local" or (buying and not u.ask.get("job"))):
            u.ask["job"] = "local"  # '买3090还是4070tis好？跑qwen2.5-32b': bought for one person's own machine
            u.updates.setdefault("preference", "buy")  # cards for one's own machine are bought
            u.updates.setdefault("phase", "serve")  # the models named are run
            u.updates.setdefault("precision", "q4_k_m")  # the usual 4-bit GGUF at home (said as an assumption)
        if len(chosen) >= 2:  # the plan is sized on the largest: the one that decides which card will do
            u.updates["model"] = max(chosen, key=_size_of)
            u.notes = [(key, values) for key, values in u.notes if key != "note.model_other"]  # each is sized
        return
    u.ask["weigh"] = {"models": chosen if len(chosen) >= 2 else chosen[:1] or
                      ([u.updates["model"]] if u.updates.get("model") else []),
                      "precisions": formats if len(formats) >= 2 else [], "which_model": which,
                      "stand_in": stand_in, "speech": bool(re.search(vocab()["weigh"]["speech"], text))}
    u.intents.add("weigh")
    if not owned and not u.cards:
        u.cards = [gpu_id for gpu_id, _n in cards_named(m)]
        u.counts = {gpu_id: n for gpu_id, n in cards_named(m) if n > 1}
    if not owned and not u.counts and any(re.search(vocab()["weigh"]["one_card"], m.text[max(0, s - 14):s])
                                          or re.match(r"\s*1\s*(?:x\s*)?\D", m.text[s:e]) for s, e, _g, _c in m.gpus):
        u.ask["weigh"]["count"] = 1  # 'FP8 or INT4 on one H100?': weighed on that one card
    u.intents -= {"whatif", "math", "quality", "engine_choice", "compare_cards", "availability", "fit_check"}
    if u.also in ("engine_choice", "quality") and len(u.engines) <= 1:
        u.also = None  # "框架sglang" states the engine; the question is the formats
    if len(formats) >= 2:
        u.updates.pop("precision", None)
    if len(chosen) >= 2:
        u.updates["model"] = chosen[0]
    u.updates.setdefault("phase", "serve")  # candidates run on a card: served, unless a job was said
    read_throughput_first(m, u)  # 'we care about throughput more than single user speed': sized at a load
