"""Follow-ups that carry their own question, read before anything in them is taken as a value to size:
what a speed figure is ('are those ttft numbers p99 or averages?'), the plan's GPU hours ('how many gpu hours
is that in total'), the KV cache ('qwen3 8b开32k上下文 kv cache大概占多少'), why not another engine ('why not
just llama.cpp'), whether a number of examples is enough ('数据只有五百条 够吗'), why a card has no NVLink
('4090为啥不能nvlink'), the plan's monthly cost ('whats the monthly cost of that setup'), how much slower the plan runs when its weights
spill into system RAM ('显存不够放内存会慢多少').

Each is an intent code (FOLLOWUPS, or one of reading.asks' and intents' codes) with what it is about in
`u.ask`; the words are assistant/reading/words/followups.yaml's, the replies assistant/followups.py's. A message
that gives something else to size (a user count, a card to plan on) stays a sizing request."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from gpu_advisor.assistant.reading.fleet import capacity_on_cards
from gpu_advisor.assistant.reading.launch import read_launch
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.stated_lengths import kv_batch
from gpu_advisor.assistant.reading.text import vocab, word_pattern

# Intent codes answered by assistant/followups.py, in the order they are tried.
FOLLOWUPS = ("metric", "gpu_hours", "kv_cache", "data_enough", "offload")
# What a KV-cache question may name about itself ('qwen3 8b at 32k'): the model and context it is asked for.
KV_SLOTS = {"model", "context", "precision", "users", "kv_cache", "phase", "batch_items"}  # phase: "10并发" reads as
# serving; batch_items: "32k 一个请求" reads as a count of requests
# What a data question's own number fills ('五百条'): examples, whichever slot the reader gave them.
DATA_SLOTS = {"batch_items", "train_tokens", "train_examples", "batch_input_tokens", "seq_len", "phase", "method"}
# Follow-ups that name a concept the glossary explains, asked of a figure (how big, p99 or average): theirs.
TOPIC_CODES = {"metric", "kv_cache"}
KV_TOPICS = ("kv-cache", "attention-kinds")  # glossary topics a model's KV figures answer when one is named
# A bare number this large in a KV-cache question is its context ('at 32k'), not a count of users.
MIN_CONTEXT = 512
# What a monthly-cost question may change of the plan as it asks ('2 instances for redundancy … if we rent').
PLAN_CHANGES = {"redundancy", "preference"}
# Intents a follow-up's own question replaces (its words read as a what-if or a request for the math).
DROPPED = {"whatif", "math", "why", "why_not", "explain", "concept", "not_sure"}


def _typed(m: Message) -> str:
    return unicodedata.normalize("NFKC", m.raw).lower()


def _words(key: str) -> Any:
    return vocab()["followups"][key]


def _hit(m: Message, words: dict[str, str]) -> bool:
    return bool(re.search(words["en"], m.text) or re.search(words["zh"], _typed(m)))


def _both(m: Message, key: str) -> bool:
    return _hit(m, _words(key)["subject"]) and _hit(m, _words(key)["cue"])


def _code(m: Message, u: Understanding) -> str | None:
    """The follow-up this message asks, or None."""
    rest = set(u.updates) - m.weak
    asked = _hit(m, _words("question"))  # "实测首token大概2秒": a figure told, not asked about
    # 'how much kv cache does one user take': 'one user' reads as one person's own job (and a card bought for it,
    # inferred): the users the figure is for, nothing else to size
    kv_rest = rest - {"personal"} - ({"preference"} if u.ask.get("home_buy") else set())
    if len({g for _s, _e, g, _n in m.gpus}) == 1 and _hit(m, _words("kv_cache")["subject"]):
        kv_rest -= {"only", "owned"}  # 'kv cache多大？两张h100放得下吗': the figure, then yes or no on those cards
    if ((asked and _both(m, "kv_cache")) or _kv_concept(m, kv_rest)) and kv_rest <= KV_SLOTS | {m.pending}:  # "…at 32k?" at the utilisation question: a context
        return "kv_cache"
    if _both(m, "data_enough") and rest <= DATA_SLOTS and (rest & {"batch_items", "train_tokens"} or _items(m)):
        return "data_enough"
    if rest:
        return None
    if asked and _both(m, "offload") and not m.gpus:  # "how much slower if it spills into system RAM?"
        return "offload"
    if asked and _both(m, "metric"):
        return "metric"
    if _hit(m, _words("gpu_hours")) and not m.qty:  # "total gpu hours", not "$2 per gpu-hour" or "500 gpu hours"
        return "gpu_hours"
    return None


def _kv_concept(m: Message, rest: set[str]) -> bool:
    """'what is the kv cache for qwen3 32b at 128k': what the cache is, asked of a model named: its figure too."""
    return "model" in rest and _hit(m, _words("kv_cache")["subject"]) and bool(word_pattern("concept_asked").search(m.masked))


def kv_of_model(m: Message, u: Understanding, topic: str) -> bool:
    """Whether a KV-cache concept question names a model of its own (and nothing else to size): then it is the
    KV-cache follow-up for that model, never the glossary alone with the model dropped."""
    rest = set(u.updates)
    named = _kv_concept(m, rest) or ("model" in rest and _hit(m, _words("kv_cache")["subject"])
                                     and (_hit(m, _words("kv_cache")["cue"]) or _hit(m, _words("kv_cache")["model_cue"])))
    return topic in KV_TOPICS and named and rest <= KV_SLOTS and not u.compare_gpus and not u.whatif_gpus


def _items(m: Message) -> int | None:
    """The number of examples said ('五百条', '500 examples'): the first count read, whatever role it got."""
    return next((int(q.value) for q in m.qty if q.value >= 1 and not q.negated), None)


def read_followup(m: Message, u: Understanding) -> None:
    """One of FOLLOWUPS (or interconnect, engine_choice, total_cost for the follow-ups those already answer),
    with what it is about in u.ask; the values its own words filled are dropped."""
    if u.intents & {"reset", "help", "empty"} or u.choice is not None or read_launch(m, u):
        return  # (the plan's command asked for: 'how do I start it?', assistant/reading/launch.py)
    if not u.topic and (_link_why(m, u) or _card_support(m, u) or _engine_why(m, u) or _monthly_cost(m, u)):
        return
    if u.topic and _card_support(m, u):  # "does the 4090 have nvlink?": the card's answer, not the glossary's
        return
    code = _code(m, u)
    if code is None or (u.topic and code not in TOPIC_CODES) or (code == "kv_cache" and capacity_on_cards(u)):
        return
    u.topic, u.aside = None, None  # "are the ttft figures averages?": a question about this plan's figure
    ask: dict[str, object] = {}
    if code == "kv_cache":
        ask = {k: u.updates[k] for k in ("model", "context", "users", "precision") if k in u.updates}
        tokens = next((int(q.context_tokens) for q in m.qty if q.value >= MIN_CONTEXT and not q.negated), None)
        if "context" not in ask and tokens:
            ask["context"] = tokens  # "how big is the kv cache at 32k": the context it is asked at
        if int(u.updates.get("users") or 0) >= MIN_CONTEXT and tokens:  # "10 个并发 32k": 32k is the context, 10 the users
            ask.pop("users")
            users = next((int(q.value) for q in m.qty if 1 <= q.value < MIN_CONTEXT and not q.negated), None)
            if users:
                ask["users"] = users
        if "users" not in ask and tokens:  # "10 concurrent at 32k": the bare count said at once is the users
            users = next((int(q.value) for q in m.qty if 1 <= q.value < MIN_CONTEXT and not q.negated and q.role in
                          ("", "users") and word_pattern("concurrency_after").match(m.masked[q.end:q.end + 40])), None)
            if users:
                ask["users"] = users
        ask |= kv_batch(m)  # "32k 上下文，batch size 8", "bs=8": the cache of that many sequences at once
        if "kv_cache" in u.updates:  # "KV cache 用 fp8 的话呢": the KV format it is asked in (bits)
            ask["kv_bits"] = u.updates["kv_cache"]
        if word_pattern("concept_asked").search(m.masked):  # "KV cache 到底是啥…": what it is, then the figures
            ask["explain"] = True
        ask |= _hold_on(m)
        u.ask = {k: v for k, v in u.ask.items() if k != "home_buy"}  # no purchase inferred
    if code == "metric":
        ask = {"choice": _hit(m, _words("metric")["choice"])}  # 'p99 or averages?': the reply opens with 'neither'
    if code == "data_enough":
        items = u.updates.get("batch_items") or _items(m)
        ask = {"items": int(items)} if items else {}
    u.intents = (u.intents - DROPPED - {"total_cost"}) | {code}
    u.ask = {**u.ask, **ask}
    u.updates, u.scale, u.compare_gpus, u.whatif_gpus, u.notes, u.problems = {}, {}, [], None, [], []


def _hold_on(m: Message) -> dict[str, object]:
    """'and would 2x h100 hold it all': the one card named with a KV-cache question, and how many (assistant/kv_hold.py)."""
    if len({g for _s, _e, g, _n in m.gpus}) != 1:
        return {}
    return {"hold_on": [max(1, int(m.gpus[0][3] or 1)), m.gpus[0][2]]}


def _link_why(m: Message, u: Understanding) -> bool:
    """'4090为啥不能nvlink', "why can't the 4090 use nvlink": the link question, about the card named."""
    cards = list(u.compare_gpus) or ([u.whatif_gpus[1]] if u.whatif_gpus else []) \
        or [c.partition("x ")[2].strip() or c for c in u.updates.get("only") or u.updates.get("exclude") or []]
    subject = vocab()["asks"]["interconnect"]["subject"]
    if not cards or set(u.updates) - {"only", "exclude", "phase"} or not _hit(m, subject) \
            or not _hit(m, _words("link_why")):
        return False
    u.intents = (u.intents - DROPPED) | {"interconnect"}
    u.ask = {**u.ask, "card": cards[0]}
    u.cards = [cards[0]]
    u.updates, u.compare_gpus, u.whatif_gpus, u.notes = {}, [], None, []
    return True


def _engine_why(m: Message, u: Understanding) -> bool:
    """'why not just llama.cpp', '为什么不用ollama': whether that engine suits this job (engine_choice), not a switch."""
    engines = list(dict.fromkeys(e for _s, _e, e in m.engines))
    if not engines or set(u.updates) - {"engine", "engine_app", "precision", "phase"} or not _hit(m, _words("engine_why")):
        return False
    u.intents = (u.intents - DROPPED) | {"engine_choice"}
    u.engines = engines
    u.updates, u.compare_gpus, u.whatif_gpus = {}, [], None
    return True


def _monthly_cost(m: Message, u: Understanding) -> bool:
    """'whats the monthly cost of that setup': the plan's cost per month (total_cost). 'we want 2 instances for
    redundancy. whats the monthly cost if we rent': the plan made again with its spare copy, rented, and its month
    with the spare (the redundancy and the renting kept as said)."""
    if set(u.updates) - {"phase", *PLAN_CHANGES} or u.compare_gpus or u.whatif_gpus or "total_cost" in u.intents \
            or not _hit(m, _words("monthly_cost")):
        return False
    u.intents = (u.intents - DROPPED) | {"total_cost"}
    u.with_spare = u.with_spare or u.updates.get("redundancy") == "n+1"
    u.updates = {k: v for k, v in u.updates.items() if k in PLAN_CHANGES}
    return True


def _card_support(m: Message, u: Understanding) -> bool:
    """'does the H200 support FP4?', 'H20支持fp8吗': whether those cards compute in that format (card_support),
    not a plan held to them."""
    cards = list(u.compare_gpus) or ([u.whatif_gpus[1]] if u.whatif_gpus else []) \
        or [c.partition("x ")[2].strip() or c for c in u.updates.get("only") or []] or list(u.cards) \
        or [gpu_id for _s, _e, gpu_id, _n in m.gpus]  # "does the 4090 have nvlink?": the link question took the card
    words = _words("card_support")
    why = _hit(m, words["why"])  # "why does the 4090 have no nvlink?": the interconnect question's
    feature = bool(re.search(words["feature"], m.text)) and not why
    if u.topic and not feature:
        return False
    bare = not m.names and not m.unknown and not m.role("model") and _run_on_card(m)  # "A100能跑FP8吗"
    if not cards or set(u.updates) - {"only", "precision", "phase"} or not (_hit(m, words) or feature) \
            or ("fit_check" in u.intents and not (feature or bare)):  # "does flash attention work on v100?"
        return False
    said = [re.sub(r"\s", "", f) for f in re.findall(words["format"], _typed(m))]
    if not said or (why and any(re.match(words["feature_said"], f) for f in said)):
        return False
    u.topic, u.aside = None, None
    u.intents = (u.intents - DROPPED - {"interconnect", "fit_check"}) | {"card_support"}
    u.ask = {**u.ask, "formats": list(dict.fromkeys(said))}
    u.cards = list(dict.fromkeys(cards))
    u.updates, u.compare_gpus, u.whatif_gpus, u.notes = {}, [], None, []
    return True


def _run_on_card(m: Message) -> bool:
    """Whether every run question names a card before its run word ('A100能跑FP8吗', 'can the a100 run fp8'): a
    run question without one ('fp8能跑吗 h20支持吗' after a plan) asks whether the plan runs in that format."""
    words = vocab()["followups"]["support_beside"]
    for x in re.finditer(words["run_cue"], m.text):
        ends = [e.end() for e in re.finditer(words["question_end"], m.text[:x.start()])]
        start = ends[-1] if ends else 0
        if not any(start <= s < x.end() for s, _e, _g, _n in m.gpus):
            return False
    return True
