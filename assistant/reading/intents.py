"""What a message asks beside slot values: intents, concept topics, choices, relative changes."""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from gpu_advisor import knowledge
from gpu_advisor.assistant.reading.asks import ASKS, formats_named
from gpu_advisor.assistant.reading.clauses import negated, rejected
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.prices import cards_named, counts_said, said_one
from gpu_advisor.assistant.reading.text import vocab, word_pattern
from gpu_advisor.knowledge.pattern_cache import compiled


def read_intents(m: Message) -> set[str]:
    """What the message asks beside slot values: reset, help, greet, thanks, not sure, math,
    rent or buy, injection, a change asked as a question (whatif)."""
    found = set()
    for name in vocab()["intents"]:  # every intent the vocabulary names, one pattern each
        if word_pattern(f"intents.{name}").search(m.text):
            found.add(name)
    if "rent_buy" not in found and word_pattern("preference.rent").search(m.text) \
            and word_pattern("preference.buy").search(m.text) and word_pattern("rent_buy_cue").search(m.text):
        found.add("rent_buy")  # "renting is 2800 a month, buying 60k: which is cheaper?"
    if "reset" in found and re.search(r"\bfrom scratch\b", m.text) and not re.search(
            r"\b(start (over|again)|reset|new (conversation|chat|session))\b", m.text):
        found.discard("reset")
    return found


def read_total_span(m: Message) -> tuple[int | None, bool]:
    """A total asked over a time ('the total for three months', '三个月总共多少钱': 3) and with the spare copy
    ('including the spare', '含备用'): (months or None, spare said)."""
    span = word_pattern("total_span").search(m.text)
    months = None
    if span:
        n, unit = int(span.group("n") or span.group("n2")), span.group("unit") or span.group("unit2")
        months = n * (12 if unit.startswith(("year", "yr", "年")) else 1)
    return (months if months and 0 < months <= 120 else None), bool(word_pattern("total_spare").search(m.text))


def read_topic(m: Message) -> str | None:
    """The glossary topic of a concept question ('what is a KV cache?', 'explain int8',
    '什么是KV缓存'), or None when the message is no such question."""
    finder = getattr(knowledge, "find_topic", None)
    if finder is None:
        return None
    try:
        both = knowledge.find_topics(m.raw) if word_pattern("compare_concepts").search(m.text) else []
        pair = "+".join(both[:3]) if len(both) >= 2 else None  # "lora vs qlora?": both entries, side by side
        asks = concept_asked(m, pair) or word_pattern("explain_bare").search(polite_free(m.text))
        if not (asks or word_pattern("best_gpu").search(m.text) or re.search(r"\b(best|which|what)\b", m.text)):
            return None
        return pair or finder(m.raw)
    except Exception:  # noqa: BLE001 - a glossary that cannot be read answers no concept question
        return None


def polite_free(text: str) -> str:
    """The message without the greeting or polite opening before the question ('hi, ', 'quick
    question: ', 'ok so '), so that the question patterns anchored at its start find it."""
    return word_pattern("polite_opening").sub("", text, count=1)


def concept_asked(m: Message, topic: str | None) -> bool:
    """Whether the message asks what a concept is, what it is for, or how two differ ('tensor
    parallelism vs pipeline parallelism?': two topics and a comparison word)."""
    text = polite_free(m.text)
    if any(re.search(p, text) for p in vocab()["explain_patterns"]):
        return True
    if word_pattern("concept_how").search(text) and not word_pattern("concept_change").search(text):
        return True  # also how it works or what it buys ("how does paged attention save memory", "是怎么省显存的")
    if word_pattern("concept_why").search(text):
        return True  # why one side of it is slower or bound by something ("why is decode slower than prefill?")
    return bool(topic and "+" in topic and word_pattern("concept_pair_asked").search(m.text)
                and not word_pattern("concept_pair_not").search(m.text))


# Intent codes of questions that get their own reply (never a sizing), in the order they are tried.
QUESTIONS = ("out_of_scope", "forecast", "availability", "compare_cards", "engine_choice", "quality")


def _typed(m: Message) -> str:
    """The message as typed, lower case and NFKC (the Chinese patterns' text: chinese.yaml rewrites
    some of their words in m.text)."""
    return unicodedata.normalize("NFKC", m.raw).lower()


def asked(m: Message, key: str) -> bool:
    """Whether a question's `en` pattern matches the cleaned message or its `zh` one the typed one."""
    words = vocab()[key]
    return bool(word_pattern(f"{key}.en").search(m.masked) or ("zh" in words and word_pattern(f"{key}.zh").search(_typed(m))))


def _out_of_scope(m: Message) -> str | None:
    """The kind of job the tools do not size that the message names ('image_generation', 'speech',
    'vision', 'video_generation', 'other_ml', 'not_ml'), or None."""
    for lang, text in (("en", m.masked), ("zh", _typed(m))):
        for pattern, kind in _scope_rows(lang):
            hit = pattern.search(text)
            if hit and "reinforcement" in hit.group() and (m.names or m.live("objective.rl_named")):
                continue  # "GRPO reinforcement learning on qwen3 8b": a language model's RL fine-tune (tools.rl)
            if hit:
                return kind
    return None


def _names_the_job(m: Message, name: str) -> bool:
    """Whether a name the catalog does not know is part of the job outside the tools ('hunyuan video')."""
    for lang, text in (("en", m.text), ("zh", _typed(m))):
        for pattern, _kind in _scope_rows(lang):
            hit = pattern.search(text)
            if hit and any(word in hit.group() for word in name.lower().split()):
                return True
    return False


@cache
def _scope_rows(lang: str) -> list[tuple[re.Pattern[str], str]]:
    return [(compiled(p), str(kind)) for p, kind in vocab()["out_of_scope"][lang]]


def _engines(m: Message) -> list[str]:
    return list(dict.fromkeys(engine_id for s, _e, engine_id in m.engines if not negated(m.text, s)))


def _question(m: Message, u: Understanding) -> str | None:
    """Which question the message asks (an intent code of QUESTIONS), or None."""
    from gpu_advisor.assistant.reading.card_swap import card_swap
    from gpu_advisor.assistant.reading.compare_job import buying_choice

    if _out_of_scope(m):
        return "out_of_scope"
    cards = cards_named(m)
    if "rent_buy" not in u.intents and not u.ask.get("drops") and asked(m, "forecast"):  # '不微调了会不会便宜点': the plan's
        return "forecast"
    if _restricted(m) or m.live("china_buyable") or card_swap(m):
        pass  # "采购只能买到L40S或者RTX 6000 Ada", "只能用国内能买到的卡": what can be bought limits the plan; no stock asked
        # ('A800买不到，改成910B': a card swapped, reading.card_swap)
    elif (word_pattern("availability.en").search(m.masked) or word_pattern("availability.zh").search(_typed(m))) \
            and (cards or not any(q.role == "money" for q in m.qty)):
        return "availability"  # '4万可以买到什么' with no card named: what the amount buys (a budget), not stock
    elif len(cards) >= 2 and (not u.updates.get("owned") or buying_choice(m) or "no_sizing" in u.intents) and (
            word_pattern("compare_cards").search(m.masked) or word_pattern("compare").search(m.masked)):
        return "compare_cards"  # "h100 vs a100 … worth ~2x the hourly price?": the price weighed, not where to rent
    elif cards and (word_pattern("availability.weak").search(m.masked)
                    or word_pattern("availability.zh_weak").search(_typed(m))):
        return "availability"
    named = _engines(m)
    framework = u.updates.get("framework")
    rollouts = u.updates.get("objective") == "rl"  # 'GRPO…rollouts via vllm…feasible?': the rollout engine, said
    if not framework and ((named and not rollouts and word_pattern("engine_choice.cue").search(m.masked))
                          or word_pattern("engine_choice.ask").search(m.masked)
                          or word_pattern("engine_choice.zh").search(_typed(m))):
        return "engine_choice"
    if not cards and asked(m, "quality"):
        return "quality"
    return None


def _restricted(m: Message) -> bool:
    """Whether every card named is one of a purchase restriction's alternatives ('procurement can only get L40S or
    RTX 6000 Ada'): a limit on the choice, not a question comparing them."""
    from gpu_advisor.assistant.reading.owned import limited_alternatives

    limited = limited_alternatives(m)
    return bool(limited) and all(s in limited or negated(m.masked, s) for s, _e, _g, _n in m.gpus)


def _turned_down(m: Message, u: Understanding, code: str) -> None:
    """'3090s feel sketchy for prod. what about h100 or l40s?': the card judged is ruled out, the others compared."""
    turned_down = sorted({g for s, e, g, _n in m.gpus if rejected(m, s, e)})
    if code == "compare_cards" and turned_down:
        u.updates["exclude"] = sorted({*(u.updates.get("exclude") or []), *turned_down})


def _curious_not_renting(m: Message, u: Understanding) -> None:
    """'不买卡，就是好奇', 'not trying to buy anything, just curious': no purchase, and no wish to rent either."""
    if "no_sizing" in u.intents and u.updates.get("preference") == "rent" and not m.names:
        u.updates.pop("preference")


def read_question(m: Message, u: Understanding) -> None:
    """A question with its own reply (QUESTIONS): its intent code, and what it is about (cards,
    engines, the model, the kind of job). The values its own words filled are dropped ("in stock
    anywhere" names no region to size for), so that no workload is made up from a question; other
    values said are kept. A message that names the model to size is a sizing request, and the sizing
    answers it (a job outside the tools aside: that is said, unless a language model is named too)."""
    if u.topic:
        u.intents.add("concept")
        return
    _curious_not_renting(m, u)
    if u.intents & {"reset", "help", "empty"} or u.choice is not None or u.intents & set(ASKS):
        return
    scope = _out_of_scope(m)
    if "best_gpu" in u.intents and not scope:
        return
    if len(cards_named(m)) == 1 and (u.compare_gpus or u.whatif_gpus) and _hit_why_not(m) \
            and not m.live("only_sourced"):  # 'can only buy h20s … or just pay for the api instead': the only card
        u.intents.add("why_not")  # "why not use H100s instead?": put beside the plan, not made the only choice
        card = (u.whatif_gpus or (0, u.compare_gpus[0]))[1]
        if all(card in choice for choice in u.updates.get("only") or []):
            u.updates.pop("only", None)
        for slot in m.weak if "model" not in u.updates else ():  # a request naming its model keeps what it implies
            u.updates.pop(slot, None)
    code = _question(m, u)
    if code is None:
        return
    from gpu_advisor.assistant.reading.compare_job import curious_why

    own = set(vocab()["question_slots"][code])
    if code == "out_of_scope":
        unknown = u.unknown_model and not _names_the_job(m, u.unknown_model)  # "hunyuan video" is the job itself
        llm = m.names or unknown or word_pattern("language_model_words").search(m.text) \
            or word_pattern("language_model_words").search(_typed(m))
        if llm:  # "serve llama 70b and a stable diffusion model": sized, with a note on the rest
            u.notes.append((f"note.out_of_scope.{scope}", {}))
            return
        own = set(u.updates)
        u.intents.discard("best_gpu")
    elif code == "quality" and _quality_is_a_concept(m, u):
        return  # "is 4-bit good enough for chat?": the glossary's quantization entry answers it
    elif code == "quality" and word_pattern("quality_not").search(m.masked):
        return  # "is 24 GB good enough?": a hardware question
    elif not (code == "compare_cards" and curious_why(m, u)) and (  # 'why is the l40s slower than an h100 at serving
            # a 70b … just curious': the cards compared, no plan
            ("model" in u.updates and "model" not in own) or u.unknown_model or u.scale
            or (code in ALSO and code != "engine_choice" and set(u.updates) - own - m.weak)):
        # "20 users, is the B200 in stock anywhere?" at a question: the value taken, the question kept too
        _also(m, u, code)  # a sizing request that also asks something: sized, and the question answered after
        return
    elif code in ("forecast", "availability", "quality") and set(u.updates) - own - m.weak:
        return  # "will the cost go up with 32k context?": a change to size, not a question about the market
    u.intents.add(code)
    cards = cards_named(m)
    u.scope = scope if code == "out_of_scope" else None
    u.cards = [gpu_id for gpu_id, _n in cards]
    u.counts = counts_said(m) if code == "compare_cards" else {gpu_id: n for gpu_id, n in cards if n > 1}
    _ones(m, u)
    u.engines = _engines(m)
    u.subject = _subject(m, u) if code == "quality" else None
    u.where = u.updates.get("region") if u.updates.get("region") != "global" else None  # "anywhere" names none
    if code != "compare_cards":
        u.compare_gpus, u.whatif_gpus = [], None
    u.intents -= {"math", "not_sure"}
    u.updates = {k: v for k, v in u.updates.items() if k not in own and k not in m.weak}
    _turned_down(m, u, code)
    u.notes = [n for n in u.notes if n[0] == "note.instances"]  # 'p5 vs p4d': which cards those are, said
    u.region_hint = None


# Questions answered after the sizing when a message asks them beside one ("serve qwen 14b to 30 users:
# vllm or tgi?"); the others are answered by the sizing itself.
ALSO = ("engine_choice", "availability", "quality")


def _ones(m: Message, u: Understanding) -> None:
    """The cards said as one ('or one 5090', '还是一张 5090'): with the counts, the options the user named."""
    ones = said_one(m)
    if ones:
        u.ask["said_one"] = ones
    else:
        u.ask.pop("said_one", None)


def _subject(m: Message, u: Understanding) -> str | None:
    """The model a quality question is about, or the two it weighs ('is qwen3 235b better than llama 3.3
    70b?': both ids joined by '|')."""
    named = list(dict.fromkeys(model_id for start, _end, model_id in m.names if not negated(m.text, start)))
    return "|".join(named[:2]) if len(named) >= 2 else u.updates.get("model")


def _also(m: Message, u: Understanding, code: str) -> None:
    """A question beside a sizing: its code and what it is about, kept for the reply after the answer.
    An engine picked between ('vllm or sglang?') is not the engine sized: the sizing takes its default."""
    from gpu_advisor.assistant.reading.compare_job import difference_asked

    if code not in ALSO and not (code == "compare_cards" and (difference_asked(m) or u.ask.get("one_user"))):
        return  # ('H20 和 L20 差多少？… Qwen2.5-72B 选哪个': the plan, then the two cards compared for it)
    if code == "availability" and not (word_pattern("availability.en").search(m.masked)
                                       or word_pattern("availability.zh").search(_typed(m))):
        return  # beside a sizing, only stock asked in so many words ('in stock?', '有货吗') adds the stock reply; a
        # price said of a card ('worth 2x the hourly price?') is answered by the plan's prices (review T3 #9, #16)
    u.also = code
    if code == "availability" and u.updates.get("region") == "global":
        u.updates.pop("region")  # "in stock anywhere" names no region to size for
    u.engines = _engines(m)
    u.cards = [gpu_id for gpu_id, _n in cards_named(m)]
    u.counts = counts_said(m)  # '2x used 3090 or one 5090': each option's count
    _ones(m, u)
    u.subject = _subject(m, u) if code == "quality" else None
    if code == "engine_choice" and len(u.engines) != 1:
        u.updates.pop("engine", None)
        if u.updates.get("precision") == "q4_k_m" and not re.search(r"\bq\d|\bgguf\b", m.masked):
            u.updates.pop("precision")  # the GGUF file "ollama" implies, not a format the user chose


def _quality_is_a_concept(m: Message, u: Understanding) -> bool:
    """A quality question about a concept ('is 4-bit good enough?', 'does QLoRA hurt quality?'): the
    concept's entry is the answer, so the message is read as that concept question."""
    try:
        topic = knowledge.find_topic(m.raw)
    except Exception:  # noqa: BLE001 - a glossary that cannot be read answers no concept question
        return False
    named = [f for f in formats_named(m) if f not in ("gguf", "exl2", "mlx", "bnb")]
    if len(named) >= 2 and not u.updates.get("model"):
        u.ask = {"precisions": named[:2]}  # "will eval scores differ between fp8 and bf16?": both, and the plan kept
        return False
    if not topic or topic == "best-gpu" or (u.updates.get("model") and topic != "quantization"):
        return False  # ("is fp8 noticeably worse than bf16 for gemma 3 27b?" is the quantization entry's question)
    own = {slot for t in topic.split("+") for slot in vocab()["topic_slots"].get(t, [])}
    if set(u.updates) - own - set(vocab()["question_slots"]["quality"]) - m.weak:
        return False  # "does int4 hurt quality at 32k context?": a change to size
    u.topic = topic
    u.intents |= {"concept", "explain"}
    u.intents -= {"math"}
    u.updates, u.problems, u.notes = {}, [], []
    return True


def _hit_why_not(m: Message) -> bool:
    return bool(word_pattern("why_not").search(m.masked) or word_pattern("why_not").search(_typed(m)))


# A load said with a fit question ("could a 4090 work for 32B with 10 users"): the card named, as many as the load needs.
LOAD_SLOTS = {"users", "users_range", "request_rate", "population", "batch_items"}


def read_fit_check(m: Message, u: Understanding) -> None:
    """'Does X fit on Y?', 'how fast is X on Y?', 'X能在Y上跑吗': a card named and a fit or speed
    question, answered at once (intent fit_check)."""
    if u.intents & {"reset", "help", "method_compare", "capacity"} or set(u.intents) & {*QUESTIONS, *ASKS}:
        return
    if not m.gpus and "model" in u.updates and word_pattern("memory_question").search(m.text):
        u.intents.add("fit_check")  # "llama3 8b开128k上下文大概要多少显存": answered at once, as a plan for it
        u.updates.setdefault("phase", "serve")
        return
    if not m.gpus:
        return
    if word_pattern("min_count_asked").search(m.masked) or word_pattern("min_count_asked").search(_typed(m)):
        u.intents |= {"fit_check", "min_count"}  # "h100 vs h200 vs b200 for deepseek v3 - minimum number of each?"
        u.updates["only"] = [g for g, _n in cards_named(m)]
        u.compare_gpus, u.whatif_gpus = [], None
        return
    if any(word_pattern("count_asked").search(m.masked[max(0, s - 12):s]) or word_pattern("count_asked_after").match(m.masked[e:e + 24])
           for s, e, _g, _n in m.gpus):
        return  # "需要几台910B服务器？", "H20要几台": how many is the question, not whether one fits
    yes_no = "model" in u.updates and len(cards_named(m)) == 1 and asked(m, "fit_yes_no") \
        and u.updates.get("phase") in ("serve", "experiment", None) \
        and not {"budget_usd", "budget_usd_per_month"} & set(u.updates)  # '预算5万够不够买…': the money, not the fit
    if (yes_no or asked(m, "fit_check")) and not m.counted and len(cards_named(m)) == 1 \
            and "requests_per_s" in u.updates and word_pattern("fit_count_asked").search(m.masked):
        # "910B 能跑 32B 吗？每秒 10 个请求，要几张卡": a rate and how many cards asked; that card at the count the
        # rate needs, never one card forced first (review X Z2)
        if not u.updates.get("owned"):
            u.updates["only"] = [g for g, _n in cards_named(m)]
        u.compare_gpus, u.whatif_gpus = [], None
        return
    if yes_no and not m.counted and word_pattern("fit_count_asked").search(m.masked):
        # "用 4090 行不行？要几张？": that card at the count the job needs, no one card forced first
        if not u.updates.get("owned"):
            u.updates["only"] = [g for g, _n in cards_named(m)]
        u.intents.discard("why_not")
        u.compare_gpus, u.whatif_gpus = [], None
        return
    if asked(m, "fit_check") or yes_no:  # "部署 70B，想用两张 4090，行不行": the model on that card, yes or no
        u.intents.add("fit_check")
        u.intents.discard("why_not")
        if not u.updates.get("only") and not u.updates.get("owned"):  # "X能在4090上跑吗": on that card
            one = set() if u.updates.keys() & LOAD_SLOTS else {  # "is a 4090 enough for 32B": that one card
                g for s, _e, g, _c in m.gpus if word_pattern("fit_one_card").search(m.text[max(0, s - 14):s])}
            u.updates["only"] = [f"{n}x {g}" if n > 1 or g in one else g for g, n in cards_named(m)]  # "a 4090": one
        u.compare_gpus, u.whatif_gpus = [], None
