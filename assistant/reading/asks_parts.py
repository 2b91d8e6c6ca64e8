"""Two-part questions where each part must get its answer (words/asks_parts.yaml).

'how many L40S for …, and would a single H100 be cheaper per month?', '需要几张L40S？换成一张H100每月会不会更便宜':
the count of one card is asked and another card with a count is put beside it. The first card is the plan
(as many as the job needs: the count asked), the second is compared with it at the fewest that hold the load
(the compare_cards reply weighs the month of each); the card with a count is no what-if that replaces the plan."""

from __future__ import annotations

import itertools
import unicodedata

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern


def _count_asked(m: Message, start: int, end: int) -> bool:
    """Whether the card named at text[start:end] is the one whose count is asked."""
    before, after = m.text[max(0, start - 30):start], m.text[end:end + 30]
    return any(word_pattern(f"asks_parts.{key}.{lang}").search(text)
               for key, text in (("count_before", before), ("count_after", after)) for lang in ("en", "zh"))


def read_count_and_other(m: Message, u: Understanding) -> None:
    """'how many A …, or would N × B be cheaper': plan A at the count the job needs, compare B beside it."""
    if u.intents & {"reset", "help", "empty", "explain"} or u.choice is not None or u.updates.get("owned"):
        return
    asked = {g for s, e, g, _n in m.gpus if s not in m.counted and _count_asked(m, s, e)}
    counted = {g for s, _e, g, _n in m.gpus if s in m.counted} - asked
    other = u.whatif_gpus[1] if u.whatif_gpus else next(iter(counted), None) if len(counted) == 1 else None
    if len(asked) != 1 or other is None or other in asked:
        return
    card = next(iter(asked))
    u.updates["only"] = [card]
    u.compare_gpus, u.cards, u.whatif_gpus = [card, other], [card, other], None
    u.intents -= {"whatif"}
    u.updates.pop("fewest_owned", None)  # "how many would I need": no cards of theirs to count down
    u.also = u.also or "compare_cards"
    u.ask = {**u.ask, "count_asked": card}


def _typed(m: Message) -> str:
    return unicodedata.normalize("NFKC", m.raw).lower()


def _switch_target(m: Message) -> tuple[int, str] | None:
    """The model or bare size said right after the last switch word ('换成72B', 'switch to llama 3.3 70b'), as the
    model reader writes it (a catalog id, or '72B')."""
    said = [(s, model_id) for s, _e, model_id in m.names]
    said += [(q.start, f"{q.value / 1e9:g}B") for q in m.qty if q.role == "model" and not q.negated]
    switched = [(start, spec) for start, spec in sorted(said)
                if any(word_pattern(f"asks_parts.switch_to.{lang}").search(m.text[max(0, start - 24):start])
                       for lang in ("en", "zh"))]
    return switched[-1] if switched else None  # the latest said wins ('本来想用 A …，后来还是换成 B': B)


def _said_besides(m: Message, start: int) -> bool:
    """Whether a model other than the one at text[start] is said: with none, nothing is switched from."""
    return any(s != start for s, _e, _id in m.names) or any(
        q.start != start for q in m.qty if q.role == "model" and not q.negated)


def read_model_switched(m: Message, u: Understanding) -> None:
    """'算了还是换成72B吧，效果差太多了，其他不变', 'switch to 72b, the 14b quality is too poor, keep the rest': a switch
    of model with the old one's quality as the reason. The model switched to is the model (the rest of the plan
    kept), not the one called poor; no question about quality is asked."""
    if u.intents & {"reset", "help", "empty", "explain"} or u.choice is not None:
        return
    # One rule: a switch word right before a model ('换成72B', 'switch to llama 3.3 70b'), a complaint about the
    # quality of what they have ('效果差太多了', 'too poor') or a plan said as given up ('本来想用 …'), and a reading to correct: the model reader took another
    # model said in the message, or read the complaint as a question about quality (with no model read, or another
    # model said besides). Without a complaint, 'would it
    # be cheaper to go with qwen2.5 coder 32b?' or '… or should i go with the 7b' stay the model reader's.
    said = {key: any(word_pattern(f"asks_parts.{key}.{lang}").search(text) for lang in ("en", "zh")
                     for text in (m.text, _typed(m))) for key in ("complaint", "earlier_plan")}
    target = _switch_target(m) if any(said.values()) else None
    if target is None:
        return
    read, besides = u.updates.get("model"), _said_besides(m, target[0])
    if not besides and read:  # the one model said was read as said ('用mistral small 24b给工单分类')
        return
    if not (said["earlier_plan"] or "quality" in u.intents or read not in (None, target[1])):
        return
    u.intents -= {"quality", "weigh", "why_not"}  # a decision said, no question of quality or choice left
    u.ask = {k: v for k, v in u.ask.items() if k != "weigh"}
    u.subject = None
    u.updates["model"] = target[1]
    u.ask = {**u.ask, "model_switched": target[1]}


def _bits(fmt: str) -> int | None:
    from gpu_advisor.knowledge import find_precision

    try:
        return round(find_precision(fmt).bits_per_weight)
    except (LookupError, ValueError):
        return None


# Slots that make a load to size now: with none, a format question is answered at once.
LOAD = {"users", "requests_per_s", "batch_items", "train_tokens", "train_examples", "population"}


def read_format_loss(m: Message, u: Understanding) -> None:
    """'FP8和INT4量化到底差多少？我们线上跑的是Qwen2.5-72B，在H20上', '换成INT4能不能降到4张，效果会掉多少': two weight
    formats named and the quality lost between them asked beside the job. The job is kept (sized when it can be)
    and the quality of each format is answered after it (u.also 'quality', inform.quality), instead of the
    question being dropped or weighed as a choice of model."""
    from gpu_advisor.assistant.reading.asks import formats_named

    if u.intents & {"reset", "help", "empty", "explain", "precision_compare"} or u.choice is not None:
        return
    if not any(word_pattern(f"asks_parts.format_loss.{lang}").search(text)
               for lang in ("en", "zh") for text in (m.text, _typed(m))):
        return
    named = [f for f in formats_named(m) if f not in ("gguf", "exl2", "mlx", "bnb")]
    if len(named) < 2 or not (u.updates.get("model") or u.updates.get("phase") or "weigh" in u.intents):
        return
    if "weigh" in u.intents and not u.updates.get("model"):  # '我有一张4090，int4跟fp8…差多少': no job, the formats
        return  # weighed on their card are the answer (format_concept, its precision verdict), kept
    if u.also and u.also != "quality":
        return
    if "weigh" in u.intents and not set(u.updates) & LOAD and not u.ask.get("owned_uncounted"):
        # 'on my rtx 4090, running qwen3 32b — awq int4 vs fp8?': the two formats weighed on their card stay the
        # answer (tests/test_weigh.py); the quality of each is said after it
        u.also = "quality"
        return
    u.intents -= {"weigh", "quality"}
    u.ask = {k: v for k, v in u.ask.items() if k not in ("weigh", "figure")}
    u.ask["precisions"] = named[:2]
    widths = [_bits(f) for f in named[:2]]
    if None not in widths:  # the published gap of each width (assistant/precision_verdict.verdict_block)
        u.ask["widths"], u.ask["named"] = widths, named[:2]
    if set(u.updates) & LOAD:
        u.also = "quality"  # a load to size: sized, the quality answered after the plan
        return
    u.intents.add("quality")  # no load said yet: the quality asked is the answer now, the model and card kept
    owned = [g for g in u.ask.get("owned_uncounted") or []]
    if owned:  # '在H20上跑': the card they run on, its count not said; no count asked before the answer
        u.updates.pop("owned", None)
        u.updates["only"] = owned
        u.ask = {k: v for k, v in u.ask.items() if k != "owned_uncounted"}
    u.subject = u.updates.get("model")
    u.also = None


def read_asks_parts(m: Message, u: Understanding) -> None:
    """Each reader of this module in turn: a switch of model, a format's quality asked, a count beside a price."""
    read_model_switched(m, u)  # '换成72B吧，效果差太多了': a switch, its reason no quality question
    read_main_model(m, u)  # "70B mostly, maybe 405b later": the model used now is the plan
    read_format_loss(m, u)  # 'FP8和INT4到底差多少 … 效果会掉多少': the job kept, the formats' quality answered
    read_count_and_other(m, u)  # 'how many L40S …, would one H100 be cheaper': both parts
    read_engine_asked(m, u)  # "…要跑几个小时？另外推理用MindIE还是vllm-ascend好": the engine answered after the plan
    read_parts2(m, u)  # '8卡一台够不够': that many of the card; the engine asked second answered second
    read_kv_part(m, u)  # '1) kv cache at 128k? 2) how many users at 32k': the KV part answered first (reading.kv_part)
    read_format_each(m, u)  # 'fp8 vs int4 … how many L40S for each?': the count in each format (reading.format_each)


def read_kv_part(m: Message, u: Understanding) -> None:
    from gpu_advisor.assistant.reading.kv_part import read_kv_part as read

    read(m, u)


def read_format_each(m: Message, u: Understanding) -> None:
    from gpu_advisor.assistant.reading.format_each import read_format_each as read

    read(m, u)


def read_parts2(m: Message, u: Understanding) -> None:
    from gpu_advisor.assistant.reading.parts2 import read_box_count, read_engine_after

    read_box_count(m, u)
    read_engine_after(m, u)


def read_engine_asked(m: Message, u: Understanding) -> None:
    """'…8卡一台够不够，要跑几个小时？另外推理的时候用MindIE还是vllm-ascend好': two engines weighed beside a sizing. The
    sizing is answered first, then the engine question (u.also 'engine_choice', inform.engine_choice); neither engine
    is recorded as one the user chose."""
    from gpu_advisor.assistant.reading.clauses import negated

    named = [(s, e, x) for s, e, x in m.engines if not negated(m.text, s)]
    ids = list(dict.fromkeys(x for _s, _e, x in named))
    if len(ids) < 2 or u.also or u.intents & {"engine_choice", "reset", "help", "empty", "explain"}:
        return
    if not (set(u.updates) - {"engine", "engine_app"}) or u.choice is not None:
        return
    pairs = itertools.pairwise(named)
    if not any(a[2] != b[2] and any(word_pattern(f"asks_parts.engine_between.{lang}").search(m.text[a[1]:b[0]])
                                    for lang in ("en", "zh")) for a, b in pairs):
        return
    u.also, u.engines = "engine_choice", ids
    u.updates.pop("engine", None)
    u.updates.pop("engine_app", None)


def _later(m: Message, start: int, end: int) -> bool:
    before, after = m.text[max(0, start - 30):start], m.text[end:end + 30]
    keys: tuple[tuple[str, str], ...] = (("later_before", before), ("later_after", after))
    if any(word_pattern(f"asks_parts.mainly.{lang}").search(m.text) for lang in ("en", "zh")):
        keys += (("maybe_before", before),)  # '70B mostly, but maybe 405b': the main model is the plan
    return any(word_pattern(f"asks_parts.{key}.{lang}").search(text) for lang in ("en", "zh") for key, text in keys)


def _name(spec: str) -> str:
    from gpu_advisor.knowledge import find_model

    try:
        return find_model(spec).name
    except (LookupError, ValueError):
        return spec


def read_main_model(m: Message, u: Understanding) -> None:
    """'70B mostly, but maybe llama 405b later', '主要是70B，以后可能上llama 405b': the model used now is the plan; the one
    said to come later is named in a note (say it to size it), never the plan in its place."""
    if u.intents & {"reset", "help", "empty", "explain"} or u.choice is not None or "model" not in u.updates \
            or u.ask.get("model_switched"):
        return
    said = [(s, e, model_id) for s, e, model_id in m.names]
    said += [(q.start, q.end, f"{q.value / 1e9:g}B") for q in m.qty if q.role == "model" and not q.negated]
    said.sort()
    later = {spec for s, e, spec in said if _later(m, s, e)}
    now = [spec for _s, _e, spec in said if spec not in later]
    if not later or len(set(now)) != 1:
        return
    u.ask = {**u.ask, "later_models": sorted(later)}  # a second job read from it goes (reading.parts2)
    if u.updates["model"] == now[0] and not u.second:
        return
    u.updates["model"] = now[0]
    others = [_name(x) for x in dict.fromkeys(sorted(later))]
    u.notes.append(("note.model_other", {"chosen": _name(now[0]), "others": ", ".join(others), "first": others[0],
                                         "covered": ""}))
