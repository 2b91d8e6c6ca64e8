"""What a message asks beside slot values: intents, concept topics, choices, relative changes."""

from __future__ import annotations

import re
import unicodedata
from functools import cache

import knowledge
from assistant.reading.asks import ASKS, formats_named
from assistant.reading.message import Message, Quantity, Understanding
from assistant.reading.names import family_words
from assistant.reading.quantities import clause_bounds, negated
from assistant.reading.text import CHOICE_SLOTS_WITH_NUMBERS, vocab, word_pattern
from knowledge.resolve import BadValue, check_size


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
    return bool(topic and "+" in topic and word_pattern("concept_pair_asked").search(m.text)
                and not word_pattern("concept_pair_not").search(m.text))


def read_choice(m: Message) -> int | None:
    """A choice number typed at a question ('2', 'option 2'): 1-based, for the engine to map."""
    if not m.pending or m.pending in CHOICE_SLOTS_WITH_NUMBERS:
        return None
    x = word_pattern("choice").match(m.text)
    if not x:
        return None
    n = int(x.group(1))
    count = _choice_count(m.pending)
    if 1 <= n <= count or m.pending not in ("model", "utilisation", "batch_items"):
        return n if n >= 1 else None
    return None


def _choice_count(slot: str) -> int:
    """How many quick replies the question for a slot offers (the catalog's, else 9)."""
    try:
        from assistant.catalog import text

        return len(text("en", f"slot.{slot}.choices"))
    except Exception:  # noqa: BLE001 - no catalog entry: the fallback count
        return 9


def pending_value(m: Message, u: Understanding) -> None:
    """A bare answer to the question just asked: a quick reply's words ('both', 'cheapest'), a bare
    size at the model question ('70' -> 70B), a bare number at the items question, or a name the
    catalog does not know."""
    pending = m.pending
    if not pending or pending in u.updates or u.choice is not None or "not_sure" in u.intents:
        return
    key = m.text.strip(" .!?")
    table = vocab()["choice_words"].get(pending, {})
    if key in table:
        u.updates[pending] = table[key]
        return
    if pending == "model":
        bare = re.fullmatch(r"(?:about |around |~)?(\d+(?:\.\d+)?)", key)
        if bare and float(bare.group(1)) > 0:
            spec = f"{float(bare.group(1)):g}B"
            try:
                check_size(float(bare.group(1)), float(bare.group(1)))
                u.updates["model"] = spec
            except BadValue as e:
                u.problems.append((e.code or "bad_value", e.params))
            return
        looks_like_a_name = re.search(r"[\d\-/]", key) or re.search(r"[A-Z]", m.raw)
        if not u.updates and not u.unknown_model and re.search(r"[a-z]", key) and len(key.split()) <= 4 \
                and not u.intents and not u.topic and looks_like_a_name and key not in family_words():
            u.unknown_model = m.raw.strip()


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
    return [(re.compile(p), str(kind)) for p, kind in vocab()["out_of_scope"][lang]]


def _cards(m: Message) -> list[tuple[str, int]]:
    """Cards named and not ruled out, each once, with the count said (1 when none)."""
    seen: dict[str, int] = {}
    for s, e, gpu_id, count in m.gpus:
        if not negated(m.masked, s):  # the largest count said with the card ("per H100 ... an 8x H100 box": 8)
            said = count if re.match(r"\s*\d", m.text[s:e]) or re.search(r"x\s*\d+\s*$", m.text[s:e]) else 1
            seen[gpu_id] = max(seen.get(gpu_id, 1), said)
    return list(seen.items())


def _engines(m: Message) -> list[str]:
    return list(dict.fromkeys(engine_id for s, _e, engine_id in m.engines if not negated(m.text, s)))


def _question(m: Message, u: Understanding) -> str | None:
    """Which question the message asks (an intent code of QUESTIONS), or None."""
    if _out_of_scope(m):
        return "out_of_scope"
    cards = _cards(m)
    if "rent_buy" not in u.intents and asked(m, "forecast"):
        return "forecast"
    if word_pattern("availability.en").search(m.masked) or word_pattern("availability.zh").search(_typed(m)) or (
            cards and (word_pattern("availability.weak").search(m.masked)
                       or word_pattern("availability.zh_weak").search(_typed(m)))):
        return "availability"
    if len(cards) >= 2 and not u.updates.get("owned") and (
            word_pattern("compare_cards").search(m.masked) or word_pattern("compare").search(m.masked)):
        return "compare_cards"
    named = _engines(m)
    framework = u.updates.get("framework")
    if not framework and ((named and word_pattern("engine_choice.cue").search(m.masked))
                          or word_pattern("engine_choice.ask").search(m.masked)
                          or word_pattern("engine_choice.zh").search(_typed(m))):
        return "engine_choice"
    if not cards and asked(m, "quality"):
        return "quality"
    return None


def read_question(m: Message, u: Understanding) -> None:
    """A question with its own reply (QUESTIONS): its intent code, and what it is about (cards,
    engines, the model, the kind of job). The values its own words filled are dropped ("in stock
    anywhere" names no region to size for), so that no workload is made up from a question; other
    values said are kept. A message that names the model to size is a sizing request, and the sizing
    answers it (a job outside the tools aside: that is said, unless a language model is named too)."""
    if u.topic:
        u.intents.add("concept")
        return
    if u.intents & {"reset", "help", "empty"} or u.choice is not None or u.intents & set(ASKS):
        return
    scope = _out_of_scope(m)
    if "best_gpu" in u.intents and not scope:
        return
    if len(_cards(m)) == 1 and (u.compare_gpus or u.whatif_gpus) and _hit_why_not(m):
        u.intents.add("why_not")  # "why not use H100s instead?": put beside the plan, not made the only choice
        card = (u.whatif_gpus or (0, u.compare_gpus[0]))[1]
        if all(card in choice for choice in u.updates.get("only") or []):
            u.updates.pop("only", None)
        for slot in m.weak:
            u.updates.pop(slot, None)
    code = _question(m, u)
    if code is None:
        return
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
    elif ("model" in u.updates and "model" not in own) or u.unknown_model or u.scale \
            or (code in ALSO and code != "engine_choice" and set(u.updates) - own - m.weak):
        # "20 users, is the B200 in stock anywhere?" at a question: the value taken, the question kept too
        _also(m, u, code)  # a sizing request that also asks something: sized, and the question answered after
        return
    elif code in ("forecast", "availability", "quality") and set(u.updates) - own - m.weak:
        return  # "will the cost go up with 32k context?": a change to size, not a question about the market
    u.intents.add(code)
    cards = _cards(m)
    u.scope = scope if code == "out_of_scope" else None
    u.cards = [gpu_id for gpu_id, _n in cards]
    u.counts = {gpu_id: n for gpu_id, n in cards if n > 1}
    u.engines = _engines(m)
    u.subject = _subject(m, u) if code == "quality" else None
    u.where = u.updates.get("region") if u.updates.get("region") != "global" else None  # "anywhere" names none
    if code != "compare_cards":
        u.compare_gpus, u.whatif_gpus = [], None
    u.intents -= {"math", "not_sure"}
    u.updates = {k: v for k, v in u.updates.items() if k not in own and k not in m.weak}
    u.notes = [n for n in u.notes if n[0] == "note.instances"]  # 'p5 vs p4d': which cards those are, said
    u.region_hint = None


# Questions answered after the sizing when a message asks them beside one ("serve qwen 14b to 30 users:
# vllm or tgi?"); the others are answered by the sizing itself.
ALSO = ("engine_choice", "availability", "quality")


def _subject(m: Message, u: Understanding) -> str | None:
    """The model a quality question is about, or the two it weighs ('is qwen3 235b better than llama 3.3
    70b?': both ids joined by '|')."""
    named = list(dict.fromkeys(model_id for start, _end, model_id in m.names if not negated(m.text, start)))
    return "|".join(named[:2]) if len(named) >= 2 else u.updates.get("model")


def _also(m: Message, u: Understanding, code: str) -> None:
    """A question beside a sizing: its code and what it is about, kept for the reply after the answer.
    An engine picked between ('vllm or sglang?') is not the engine sized: the sizing takes its default."""
    if code not in ALSO:
        return
    u.also = code
    if code == "availability" and u.updates.get("region") == "global":
        u.updates.pop("region")  # "in stock anywhere" names no region to size for
    u.engines = _engines(m)
    u.cards = [gpu_id for gpu_id, _n in _cards(m)]
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


def read_fit_check(m: Message, u: Understanding) -> None:
    """'Does X fit on Y?', 'how fast is X on Y?', 'X能在Y上跑吗': a card named and a fit or speed
    question, answered at once (intent fit_check)."""
    if u.intents & {"reset", "help"} or set(u.intents) & {*QUESTIONS, *ASKS}:
        return
    if not m.gpus and "model" in u.updates and word_pattern("memory_question").search(m.text):
        u.intents.add("fit_check")  # "llama3 8b开128k上下文大概要多少显存": answered at once, as a plan for it
        u.updates.setdefault("phase", "serve")
        return
    if not m.gpus:
        return
    if asked(m, "fit_check"):
        u.intents.add("fit_check")
        if not u.updates.get("only") and not u.updates.get("owned"):  # "X能在4090上跑吗": on that card
            u.updates["only"] = [f"{n}x {g}" if n > 1 else g for g, n in _cards(m)]
        u.compare_gpus, u.whatif_gpus = [], None


def read_prices(m: Message, u: Understanding) -> None:
    """Prices given with a rent-or-buy question ('an H100 is $30k to buy or $2.50 an hour to rent',
    '租的话一个月2800一张4090，买整机6万，用两年'): rent per card-hour or per card-month, the price of a
    card or of a whole machine, and the months the cards are kept; none of them is a budget. Amounts
    without a currency in such a clause are the conversation's (yuan in Chinese)."""
    _buying_asked_about(u)
    if "rent_buy" not in u.intents and _both_priced(m):
        u.intents.add("rent_buy")  # "$2.49/hr per H100, or buy the 8x box for 280k": a rent-or-buy question
    if "rent_buy" not in u.intents and _reserved_pair(m):
        u.intents.add("reserve")  # "2.49/hr on demand or 1.85/hr reserved for a year": which rental
    if "rent_buy" not in u.intents and "reserve" not in u.intents:
        _horizon_alone(m, u)
        return
    from knowledge import rules

    u.cards = [gpu_id for gpu_id, _n in _cards(m)]
    u.counts = {gpu_id: n for gpu_id, n in _cards(m) if n > 1}
    if u.cards and not set(u.updates) - {"only", "preference", "budget_usd", "budget_usd_per_month"}:
        u.updates.pop("only", None)  # "rent or buy 8 H100s?": the cards asked about, no plan limited to them
    yuan = m.lang == "zh" or any(q.extra == "CNY" for q in m.role("money"))
    for q in _amounts(m):
        priced = _price(m, u, q, yuan)
        if priced is not None:
            u.prices[priced[0]] = round(priced[1], 4)
    bare = word_pattern("zh_bare_price").search(m.masked) if m.lang == "zh" and not _buy_said(u) else None
    if bare:
        u.prices["buy_usd"] = round(float(bare.group(1)) * rules().usd_per_cny, 4)
    if u.prices:
        _horizon(m, u)
    if u.prices:
        for slot in ("budget_usd", "budget_usd_per_month", "preference"):
            u.updates.pop(slot, None)
        if "reserve" in u.intents:
            u.updates["preference"] = "rent"  # on demand or reserved: renting either way
        u.notes = [n for n in u.notes if n[0] != "note.budget_once"]
        if "model" in u.updates or u.unknown_model:  # a workload too: sized (on the card priced), then compared
            u.also = "reserve" if "reserve" in u.intents else "rent_buy"
            if u.cards and not u.updates.get("owned"):  # the card priced, as many as the job needs
                u.updates["only"] = list(u.cards[:1])


def _buying_asked_about(u: Understanding) -> None:
    """'does the buy number include power?', 'if we bought the cards, when does that pay off?': questions about
    buying, no wish to buy; the payback one is a rent-or-buy question."""
    if "running_costs" in u.intents or "payback" in u.intents:
        u.updates.pop("preference", None)
    if "payback" in u.intents:
        u.intents.add("rent_buy")


def _price(m: Message, u: Understanding, q: Quantity, yuan: bool) -> tuple[str, float] | None:
    """One amount said with a rent-or-buy (or reservation) question, as (price key, USD), or None when it is
    no price: rent per card-hour or card-month, a purchase, hosting; '_machine' when it is a whole machine's."""
    from knowledge import rules

    cny = q.extra == "CNY" or (q.role != "money" and yuan)
    usd = q.value * (rules().usd_per_cny if cny else 1.0)
    if q.extra == "EUR" or usd <= 0:
        return None
    left, _right = clause_bounds(m.masked, q.start, q.end)
    before = m.masked[max(left, q.start - 40):q.start].split(",")[-1]
    after = _after(m, q)
    if word_pattern("price_not").search(before):
        return None  # "budget $30k": what may be spent, not what a card costs
    hourly = word_pattern("money_hourly").match(after) or word_pattern("money_hourly_before").search(before)
    monthly = word_pattern("money_monthly_after").match(m.masked[q.end:q.end + 24]) \
        or word_pattern("price_monthly_before").search(before)
    sentence = word_pattern("sentence_start").split(m.masked[max(0, q.start - 80):q.start])[-1]
    per_card = word_pattern("price_per_card").search(before + after)
    counted = any(n > 1 and e <= q.start and q.start - e <= 24 for _s, e, _g, n in m.gpus)  # "8卡H20每月十二万"
    machine = word_pattern("price_machine").search(before) or word_pattern("price_machine").search(after) \
        or (not hourly and not monthly and word_pattern("price_machine").search(sentence) and not per_card) \
        or (counted and not per_card) \
        or word_pattern("quote_machine").search(before)  # "an 8x box, quote is 280k", "H20八卡一台每月6万"
    said = hourly or monthly or word_pattern("price_before").search(before.rstrip(" $¥~")) \
        or word_pattern("price_after").match(after) or (q.role != "money" and _priced(before + after))
    if not said:
        return None
    hosting = word_pattern("price_hosting").search(after) or word_pattern("price_hosting").search(before)
    kind = "hosting_usd_per_month" if hosting and monthly else \
        "rent_usd_per_hour" if hourly else "rent_usd_per_month" if monthly else "buy_usd"
    if kind == "rent_usd_per_hour" and "reserve" in u.intents:  # both kept per hour
        kind = "reserved_usd_per_hour" if _reserved(_before_reserved(m, q), after) else kind
    elif kind == "rent_usd_per_hour" and _reserved(before, after):
        from tools.cost import HOURS_PER_MONTH

        kind, usd = "rent_usd_per_month", usd * HOURS_PER_MONTH  # reserved: billed every hour, busy or not
        u.notes.append(("note.reserved", {"usd": f"${q.value:,.2f}" if not cny else f"¥{q.value:,.2f}"}))
    return kind + ("_machine" if machine or kind == "hosting_usd_per_month" else ""), usd


def _horizon_alone(m: Message, u: Understanding) -> None:
    """'and if we go with a 3 year horizon?', '三年折旧呢': rent or buy again, over that time (the prices said
    before are the engine's to bring back)."""
    if (word_pattern("horizon_said").search(m.masked) and word_pattern("horizon").search(m.masked)) \
            or word_pattern("horizon_alone").match(m.masked) or _only_a_horizon(m, u):
        _horizon(m, u)
        if u.prices:
            u.intents.add("rent_buy")


def _only_a_horizon(m: Message, u: Understanding) -> bool:
    """'what if we only keep it two years', '如果只用两年呢': how long the cards are kept, and nothing else said."""
    return bool(word_pattern("horizon").search(m.masked)) and not u.updates and not (u.intents - {"whatif", "rent_buy"})


def _horizon(m: Message, u: Understanding) -> None:
    """The months the cards are kept: '用两年', 'over 3 years'."""
    horizon = word_pattern("horizon").search(m.masked) or word_pattern("horizon_bare").search(m.masked)
    if horizon:
        n, unit = int(horizon.group("n") or horizon.group("n2")), horizon.group("unit") or horizon.group("unit2")
        months = n * (1 if unit.startswith(("month", "个月")) else 12)
        if 0 < months <= 120:
            u.prices["horizon_months"] = months


def _reserved(before: str, after: str) -> bool:
    """'$2.10/gpu-hr reserved', 'on a 3-year commitment', '包年': billed every hour of the term."""
    return bool(word_pattern("price_reserved").search(after) or word_pattern("price_reserved").search(before))


def _after(m: Message, q: Quantity, width: int = 24) -> str:
    """The words right after an amount, up to the clause's comma or the next number ('$2.49 an hour vs
    reserved at $1.85': 'reserved' is the second price's)."""
    end = min([q.end + width] + [x.start for x in _amounts(m) if x.start >= q.end])
    return word_pattern("price_between").split(m.masked[q.end:end], maxsplit=1)[0]


def _before_reserved(m: Message, q: Quantity) -> str:
    """The words before an amount back to the last 'vs', 'or', comma: what is said of this price alone."""
    return word_pattern("price_between").split(m.masked[max(0, q.start - 40):q.start])[-1]


def _reserved_pair(m: Message) -> bool:
    """Two hourly rental prices, one of them reserved (or committed) and one not: on demand against a
    reservation."""
    hourly = [q for q in _amounts(m) if word_pattern("money_hourly").match(m.masked[q.end:q.end + 16])
              or word_pattern("money_hourly_before").search(m.masked[max(0, q.start - 24):q.start])]
    reserved = [_reserved(_before_reserved(m, q), _after(m, q)) for q in hourly]
    return len(hourly) >= 2 and any(reserved) and not all(reserved)


def _both_priced(m: Message) -> bool:
    """Rent and buy both named, each beside an amount: a rental price per hour or month and a purchase."""
    amounts = _amounts(m)
    per_time = [q for q in amounts if word_pattern("money_hourly").match(m.masked[q.end:q.end + 16])
                or word_pattern("money_hourly_before").search(m.masked[max(0, q.start - 24):q.start])
                or word_pattern("money_monthly_after").match(m.masked[q.end:q.end + 24])
                or word_pattern("price_monthly_before").search(m.masked[max(0, q.start - 24):q.start])]
    bought = [q for q in amounts if q not in per_time and q.value >= 1000 and _priced(m.masked[max(0, q.start - 40):q.end + 16])]
    return bool(per_time) and bool(bought)


def _amounts(m: Message) -> list[Quantity]:
    """Money said, and bare amounts (no unit, 50 or more) that may be prices in a rent-or-buy question."""
    return [q for q in m.qty if not q.negated and (q.role == "money" or (not q.role and (
        q.value >= 50 or word_pattern("money_hourly").match(m.masked[q.end:q.end + 16]))))]  # '1.88一小时' too


def _priced(words: str) -> bool:
    """A bare amount beside rent or buy words is a price ('买整机 60000', 'renting 2800 a month', '整机报价')."""
    return bool(word_pattern("preference.rent").search(words) or word_pattern("preference.buy").search(words)
                or word_pattern("price_machine").search(words) or word_pattern("price_before").search(words))


def _buy_said(u: Understanding) -> bool:
    return "buy_usd" in u.prices or "buy_usd_machine" in u.prices
