"""A second job or a second model in one message: kept as a job of its own, never folded into the first.

"a chatbot on qwen2.5 32b for 30 staff, plus a weekly batch job summarising 50k documents" is two jobs on
the same cards; "also want qwen2.5-72b in the same window" after a plan is a second model served beside
the first. The message is cut where a joiner (or a word for another time window) starts the second
clause, each side is read on its own by the same readers, and when the two sides name different
inference jobs (serving and a batch job) or different models, the profile keeps the first as the job the
cards are sized for and the second in the `also` slot:
{"phase", "model", "users", "batch_items", "together", "together_said"}. A served job is the first one
(it holds the cards all day); a swap ("instead", "换成") stays a swap. The words live in words/multi.yaml.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Callable
from typing import Any

from gpu_advisor.assistant.reading.message import Understanding
from gpu_advisor.assistant.reading.text import readable, word_pattern

INFERENCE = {"serve": "serve", "production": "serve", "batch": "batch"}
# A training run beside an inference job ("serve qwen2.5-7b ... and also fine-tune llama 3 8b"): kept as the second
# job and said back (the plan is sized for the inference job; tools.pair sizes inference jobs only).
TRAINING = {"fine-tune": "fine-tune", "pretrain": "fine-tune", "continued-pretrain": "fine-tune"}
# Which of two jobs the cards are sized for: a service holds them all day, then a batch job, then a training run.
RANK = {"serve": 0, "batch": 1, "fine-tune": 2}
# What a clause says about its own job: the side that says it keeps it.
JOB_KEYS = ("users", "population", "users_range", "batch_items", "batch_input_tokens", "batch_output_tokens",
            "deadline_hours", "requests_per_s")
# What a training clause says of its own run, kept with the second job (assistant/owned_split.py sizes it).
RUN_KEYS = ("method", "train_tokens", "epochs", "seq_len")
# What a message says of the cards and the money, whichever clause says it ('我们有4台8卡H100，…一是全参微调…二是部署…'):
# both jobs share them, so the training clause that says them does not take them away.
SHARED_KEYS = frozenset({"owned", "server_gpus", "only", "region", "budget_usd", "budget_usd_per_month",
                         "preference", "interconnect"})


# Clause boundaries tried, first ones first: each costs two readings of the message's parts, and a message
# that states two jobs states them near its start.
MAX_CUTS = 4


def _flat(text: str) -> str:
    return unicodedata.normalize("NFKC", readable(text)).lower()


def _job(u: Understanding) -> tuple[str | None, str | None]:
    """The kind of inference job a clause states (serve or batch) and its model."""
    said = str(u.updates.get("phase") or "")
    if "phase" in u.weak and not u.updates.get("model"):
        said = ""  # "周末之前要跑完，手上4张A100够不够" after a batch job's clause: a fit question, no second job
    phase = INFERENCE.get(said) or TRAINING.get(said)
    if phase is None and not said and {"users", "population", "users_range"} & set(u.updates):
        phase = "serve"  # "白天给20个人聊天用": people using it are served
    model = u.updates.get("model")
    return phase, model if isinstance(model, str) else None


def _together(flat: str, kinds: tuple[str | None, str | None], alone: bool = False) -> tuple[bool, bool]:
    """(at the same time, said so): said words first; else two services run together and a batch job
    is assumed to run in its own window; `alone`: each model's figures asked on one's own machine, so in turns."""
    if word_pattern("multi_apart").search(flat):  # "白天10个人同时用，晚上跑批量": the window decides, not the people
        return False, True
    if word_pattern("multi_together").search(flat):
        return True, True
    return not alone and all(kind in (None, "serve") for kind in kinds), False


ONE_PERSON = 2  # users said up to which it is one person's own use ('just me', 'me and my wife'), as reading.personal


def _each_alone(flat: str, u: Understanding, sides: tuple[Understanding, Understanding]) -> bool:
    """"what tok/s would i get on each", "各自能跑多少": two models on the user's own machine, each one's figures
    asked: each model alone (one at a time), not both loaded at once. A load of people said ("30 users each")
    is two services, together."""
    owned = u.updates.get("owned")
    if not owned or any(k in side.updates for side in sides for k in ("population", "users_range")) \
            or any((side.updates.get("users") or 0) > ONE_PERSON for side in sides):  # 'just me' is 1 user
        return False
    if word_pattern("multi_each_alone").search(flat):
        return True
    # "got a macbook m3 max 64gb, can i run qwen2.5 32b and llama 3.1 70b", "我的4090能跑X和Y吗": one person
    # (no people counted, no 'we'/'our team') with one machine of their own runs one model at a time unless
    # 'at the same time' / '同时' is said (_together reads that first)
    one_person = u.updates.get("personal") or not word_pattern("owned_many_said").search(flat)
    return bool(one_person and isinstance(owned, list) and len(owned) == 1)


def _splits(flat: str, side_by_side: bool = False) -> list[int]:
    """Where a second clause may start: joiners first; with two catalog models named side by side and no joiner that
    splits them, the plain ones too ('and', '和', a comma)."""
    cuts = {x.start() for key in ("multi_joiners", "multi_apart") for x in word_pattern(key).finditer(flat)}
    plain = {x.start() for x in word_pattern("multi_pair_joiners").finditer(flat)} if side_by_side else set()
    return sorted(c for c in cuts if c > 0)[:MAX_CUTS] + sorted(c for c in plain - cuts if c > 0)[:MAX_CUTS]


def _bare_size(model: object) -> bool:
    """A model read as a size alone ('32B'), not a catalog name."""
    return isinstance(model, str) and bool(re.fullmatch(r"\d+(?:\.\d+)?b", model.lower()))


def _each(flat: str, first: Understanding, second: Understanding) -> None:
    """'30 users each', '各30个人用': the load said once, on one side, is each model's."""
    if not word_pattern("multi_each").search(flat):
        return
    for a, b in ((first, second), (second, first)):
        for key in ("users", "population", "users_range"):
            if key in a.updates and key not in b.updates:
                b.updates[key] = a.updates[key]


def _formats(u: Understanding, first: Understanding, second: Understanding) -> None:
    """'llama 3.3 70b at q8 and mistral large 2 at q4': each model its own format; one said once ('both q8',
    'llama 3.3 70b and mistral large 2 at q8') is both models' (pairing.second_workload)."""
    if first.updates.get("precision"):
        u.updates["precision"] = first.updates["precision"]
    own = second.updates.get("precision")
    if own and own != u.updates.get("precision") and u.second is not None:
        u.second["precision"] = own


def read_second(raw: str, pending: str | None, u: Understanding,
                understand: Callable[[str, str | None], Understanding]) -> None:
    """Find a second job or model in the message and move it out of the first job's slots into `u.second`."""
    flat = _flat(raw)
    if u.topic or "reset" in u.intents or word_pattern("multi_swap").search(flat) or u.ask.get("replaces_model") \
            or u.ask.get("models") or (u.second or {}).get("running") \
            or u.ask.get("model_switched"):  # weighed for one job; one runs already; one given up for the other
        return
    _joiner_is_no_range(flat, pending, u, understand)
    if _unknown_second(flat, pending, u, understand):
        return
    side_by_side = any(key == "note.model_other" for key, _values in u.notes)
    for cut in _splits(flat, side_by_side):
        left, right = understand(flat[:cut], pending), understand(flat[cut:], None)
        (lp, lm), (rp, rm) = _job(left), _job(right)
        # a training run and an inference job are two jobs when they name two models ("fine-tune X and serve it"
        # is one model trained then served)
        two_jobs = bool(lp and rp and lp != rp and ({lp, rp} <= set(RANK) - {"fine-tune"} or (lm and rm and lm != rm)))
        two_models = bool(lm and rm and lm != rm and "fine-tune" not in (lp, rp)
                          and (lp or rp or u.updates.get("phase") in INFERENCE or u.updates.get("phase") is None))
        plain = side_by_side and cut not in _splits(flat)
        alone = _each_alone(flat, u, (left, right))
        if not (two_jobs or two_models) or (plain and (_bare_size(rm) or (u.updates.get("personal") and not alone))):
            continue  # 'qwen2.5 14b, 32b': one model's sizes; one person's two models: used one at a time
            # (unless each one's figures are asked: '分别能跑多快', both sized, in turns)
        first, second = (right, left) if two_jobs and RANK[str(lp)] > RANK[str(rp)] else (left, right)
        _each(flat, first, second)
        fp, fm = _job(first)
        sp, sm = _job(second)
        phase = fp or INFERENCE.get(str(u.updates.get("phase") or "")) or "serve"
        model = fm or u.updates.get("model")
        for key in JOB_KEYS:
            if key in first.updates:
                u.updates[key] = first.updates[key]
            elif key in second.updates:
                u.updates.pop(key, None)
        if sp == "fine-tune":  # the training run's own settings (method, data) are not the served job's
            for key in set(second.updates) - set(first.updates) - SHARED_KEYS:
                u.updates.pop(key, None)
        for key, value in first.updates.items():  # what the first job's clause says of it, read without the second
            u.updates.setdefault(key, value)
        u.updates["phase"] = "production" if u.updates.get("phase") == "production" and phase == "serve" else phase
        if model:
            u.updates["model"] = model
        together, said = _together(flat, (phase, sp or phase), alone)
        u.second = {"phase": sp or phase, "model": sm or model, "users": second.updates.get("users"),
                    "batch_items": second.updates.get("batch_items"), "together": together, "together_said": said}
        _formats(u, first, second)
        run = {k: second.updates[k] for k in RUN_KEYS if second.updates.get(k)} if sp == "fine-tune" else {}
        if run:  # the training run's own settings ('全参微调…数据2亿token'), for a split of the cards owned
            u.second["run"] = run
        u.notes = [(key, values) for key, values in u.notes if key != "note.model_other"]  # both are sized now
        return
    model = u.updates.get("model")
    if isinstance(model, str) and word_pattern("multi_copies").search(flat) and "fine-tune" not in TRAINING.get(
            str(u.updates.get("phase") or ""), ""):
        # "two instances of llama 3.1 8b, one per card": the same model twice, each copy on its own card
        u.second = {"phase": "serve", "model": model, "users": u.updates.get("users"), "batch_items": None,
                    "together": True, "together_said": True}
        return
    if isinstance(model, str) and _added_after(flat, model, pending, understand):
        # "also want qwen2.5-72b in the same window": a model added to the one being sized, if there is one
        together, said = _together(flat, (INFERENCE.get(str(u.updates.get("phase") or "")), None))
        u.second = {"phase": INFERENCE.get(str(u.updates.get("phase") or "")), "model": model,
                    "users": u.updates.get("users"), "batch_items": u.updates.get("batch_items"),
                    "together": together, "together_said": said, "added": True}


def _joiner_is_no_range(flat: str, pending: str | None, u: Understanding,
                        understand: Callable[[str, str | None], Understanding]) -> None:
    """"for 20 users plus falcon-h9 alongside": 'plus' that starts another clause joins it; it does not make the
    20 an open range ('20+')."""
    said = u.updates.get("users_range")
    if not said or said[1] is not None:
        return
    for x in itertools.islice(word_pattern("multi_joiners").finditer(flat), MAX_CUTS):
        if not flat[x.end():].strip(" ,.;，。；"):
            continue  # "20 users plus" at the end: the open range it says
        if understand(flat[:x.start()], pending).updates.get("users") == said[0] and x.start() > 0:
            u.updates.pop("users_range")
            u.updates["users"] = said[0]
            return


def _display(model: str) -> str:
    from gpu_advisor.knowledge import find_model

    try:
        return find_model(model).name
    except (LookupError, ValueError):
        return model


def _unknown_second(flat: str, pending: str | None, u: Understanding,
                    understand: Callable[[str, str | None], Understanding]) -> bool:
    """"serve qwen2.5 32b ... plus falcon-h9 alongside": a second model with no figures on record is said to be
    unknown and left out of the plan, which stays the first model's; never sized in its place."""
    name, model = u.unknown_model, u.updates.get("model")
    at = flat.find(name) if name else -1
    if at < 0 or not isinstance(model, str):
        return False
    for x in itertools.islice(word_pattern("multi_joiners").finditer(flat), MAX_CUTS):
        if 0 < x.start() < at and understand(flat[:x.start()], pending).updates.get("model") == model:
            u.unknown_model = None
            u.notes.append(("pair.unknown_second", {"name": str(name), "first": _display(model)}))
            return True
    return False


def _added_after(flat: str, model: str, pending: str | None,
                 understand: Callable[[str, str | None], Understanding]) -> bool:
    """Whether the model is named after a word that adds it ("also want X", "同时还要跑一个X", "plus X"), with no
    model before that word: the same words after the model ("serve X to 20 users, also ...") add nothing."""
    for x in itertools.islice(word_pattern("multi_added").finditer(flat), MAX_CUTS):
        before = understand(flat[:x.start()], pending).updates.get("model") if x.start() else None
        if before is None and understand(flat[x.start():], None).updates.get("model") == model:
            return True
    return False


def added_model(u: Understanding, current: dict[str, Any], updates: dict[str, Any]) -> dict[str, Any] | None:
    """The second job for the profile: one read in this message, or a model added to the one already sized
    (then the first model, its phase and its users stay). None: nothing to add."""
    second = getattr(u, "second", None)
    if not second:
        return None
    if not second.get("added"):
        return dict(second)
    if not current.get("model") or current["model"] == second["model"] \
            or INFERENCE.get(str(current.get("phase") or "")) is None:
        return None
    if not second.get("phase") and TRAINING.get(str(updates.get("phase") or "")):
        from gpu_advisor.assistant.reading.parts2 import side_fine_tune
        return side_fine_tune(second, updates)  # '我还想偶尔微调一下 8B 的模型': a training run, not a second service
    for key in ("model", "phase", "users", "batch_items"):
        updates.pop(key, None)
    return {k: v for k, v in second.items() if k != "added"} | {"phase": second["phase"] or
                                                                 INFERENCE[str(current["phase"])]}


def turns_said(raw: str, also: dict[str, Any] | None) -> dict[str, Any] | None:
    """"no not at the same time lol, one or the other", "不是同时，轮流跑" after a plan that loaded two models at
    once, or that assumed them in turns: the second job again, in turns with the first, said so now. None: no such
    words, or in turns as said already."""
    if not also or (not also.get("together") and also.get("together_said")) or also.get("running") \
            or also.get("phase") not in (None, "serve", "batch") or not word_pattern("multi_turns_said").search(_flat(raw)):
        return None
    return {**also, "together": False, "together_said": True}
