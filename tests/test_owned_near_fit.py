"""A few desktop cards owned that almost hold a service are answered on those cards first (review s28: 'i already have
2x rtx 3090 (24gb each) can i serve llama 3.1 70b at like 4bit for 10 concurrent users?? or do i need more cards'
opened '**Yes**: your 2×3090 are not enough' and a rented A100).

The verdict is one of yes / yes_if / no (assistant.owned_near), its limit is the largest that holds (tools.owned_limit:
the context per user, with an 8-bit KV cache, fewer at once), the heading and the lines under it never disagree, in
English and Chinese, and the owned cards come before any rental."""

from __future__ import annotations

import functools
import re

import pytest

from gpu_advisor.assistant.owned_near import SPEED_NEAR, near_code, near_lines
from gpu_advisor.tools.recommend import (
    CONTEXT_STEP,
    Recommendation,
    Workload,
    evaluate,
    parse_owned,
    recommend,
)
from tests.conversation import run_conversation

# (owned, model, precision, users, context, the verdict)
CASES = [
    ("2x rtx-3090", "llama-3.1-70b", "int4", 10, 8192, "yes_if"),
    ("2x rtx-3090", "llama-3.1-70b", "int4", 6, 16384, "yes_if"),
    ("2x rtx-4090", "qwen2.5-72b", "int4", 8, 8192, "yes_if"),
    ("4x rtx-4090", "llama-3.3-70b", "fp8", 20, 16384, "yes_if"),
    ("1x rx-7900-xtx", "qwen2.5-32b", "int4", 5, 8192, "yes_if"),
    ("2x rtx-a6000", "llama-3.1-405b", "int4", 5, 8192, "no"),
    ("1x rtx-4090", "llama-3.1-70b", "int4", 5, 8192, "no"),
    ("1x rtx-4090", "llama-3.1-70b", "int4", 12, 4096, "no"),
    ("1x rtx-3090", "qwen2.5-14b", "int4", 6, 8192, "yes"),
]


def _cases(*codes: str) -> list:
    return [pytest.param(*c, id=f"{c[0]}-{c[1]}-{c[2]}-{c[3]}u-{c[4]}") for c in CASES if c[5] in codes]


# What a headline or the lines under it must not say beside a 'Yes' (and the same in Chinese beside '可以').
CONTRADICTIONS = {"en": ("not enough", "cannot", "fall short", "do not hold"), "zh": ("不够", "不能", "放不下", "做不了")}
YES = {"en": "Yes", "zh": "可以"}
NO = {"en": "No", "zh": "不能"}


@functools.cache
def _rec(owned: str, model: str, precision: str, users: int, context: int) -> Recommendation:
    return recommend(Workload(phase="serve", model=model, serve_precision=precision, users=users, context=context,
                              owned=[owned], flexible=["preference", "region", "utilisation"]))


@pytest.mark.parametrize(("owned", "model", "precision", "users", "context", "code"), _cases("yes", "yes_if", "no"))
def test_the_verdict_on_the_cards_owned(owned, model, precision, users, context, code):
    assert near_code(_rec(owned, model, precision, users, context)) == code


@pytest.mark.parametrize(("owned", "model", "precision", "users", "context", "code"),
                         _cases("yes_if"))
def test_the_limit_is_the_largest_that_holds(owned, model, precision, users, context, code):
    """Each limit found holds on the cards owned and one step more does not (the same evaluation as the plan's)."""
    rec = _rec(owned, model, precision, users, context)
    limit = rec.owned_limit
    assert limit is not None and limit.holds
    assert (limit.users_asked, limit.context_asked) == (users, context)
    count, gpu = parse_owned(owned)
    w = rec.owned_options[0]
    base = Workload(phase="serve", model=model, serve_precision=w.precision, users=users, context=context,
                    owned=[owned], flexible=["preference", "region", "utilisation"])

    def ok(**change: object) -> bool:
        o = evaluate(base.model_copy(update=change), gpu, count, owned=True)
        return o is not None and o.ok

    for value, kv in ((limit.context, None), (limit.context_kv8, 8)):
        if value:
            assert value % CONTEXT_STEP == 0 and value < context
            assert ok(context=value, kv_cache=kv)
            assert value + CONTEXT_STEP >= context or not ok(context=value + CONTEXT_STEP, kv_cache=kv)
    for value, kv in ((limit.users, None), (limit.users_kv8, 8)):
        if value:
            assert 1 <= value < users and ok(users=value, kv_cache=kv)
            assert not ok(users=value + 1, kv_cache=kv)
    assert not ok()  # as asked, the cards owned do not hold it


def test_two_3090s_hold_the_70b_for_ten_at_about_2k_tokens_and_twice_that_with_an_fp8_cache():
    """The expert's figures: ~35-40 GB of 4-bit weights leave 6-8 GB for the cache on 2 x 24 GB, ~2-3k tokens each for
    ten users; an 8-bit cache doubles it; four 3090s hold it as asked."""
    limit = _rec("2x rtx-3090", "llama-3.1-70b", "int4", 10, 8192).owned_limit
    assert limit is not None
    assert limit.context is not None and 2048 <= limit.context <= 3072
    assert limit.context_kv8 is not None and limit.context_kv8 >= 2 * limit.context - CONTEXT_STEP
    assert limit.more is not None and limit.more.gpus == 4 and limit.more.ok


def _agree(lines: list[str], code: str, lang: str) -> None:
    head = lines[0]
    assert head.startswith("## ")
    if code == "yes_if":
        assert head.startswith(f"## {YES[lang]}"), head
        said = "\n".join(lines[:3])  # the heading and what the cards hold
        assert not any(word in said for word in CONTRADICTIONS[lang]), said
    else:
        assert head.startswith(f"## {NO[lang]}"), head
        assert YES[lang] not in "\n".join(lines), lines


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(("owned", "model", "precision", "users", "context", "code"),
                         _cases("yes_if", "no"))
def test_the_heading_says_the_verdict_and_its_limit_and_the_lines_agree(owned, model, precision, users, context,
                                                                         code, lang):
    rec = _rec(owned, model, precision, users, context)
    lines = [x for x in near_lines(rec, lang) if x]
    _agree(lines, code, lang)
    limit = rec.owned_limit
    assert limit is not None
    if code == "yes_if":
        first = next(v for v in (limit.context, limit.context_kv8, limit.users, limit.users_kv8) if v)
        assert f"{first:,}" in lines[0]  # the limit is stated in the heading
        assert f"{users:,}" in lines[0]
    text = "\n".join(lines)
    if lang == "zh":
        assert not re.search(r"\b(?:if|each|chat|the|your|rent|more)\b", text, re.I), text  # nothing English
    else:
        assert not re.search(r"[\u4e00-\u9fff]", text), text


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(("owned", "model", "precision", "users", "context", "code"),
                         _cases("yes_if"))
def test_the_cards_owned_come_before_any_rental(owned, model, precision, users, context, code, lang):
    lines = [x for x in near_lines(_rec(owned, model, precision, users, context), lang) if x]
    rental = re.compile(r"\brent\b|租", re.I)
    first = next(i for i, x in enumerate(lines) if rental.search(x)) if any(rental.search(x) for x in lines) else None
    assert not rental.search(lines[0]) and not rental.search(lines[1])
    assert first is None or first >= 2
    # more of the card owned, when it does the job, is said before the rented plan in the same line
    step = lines[-1]
    if rental.search(step) and parse_owned(owned)[1].name in step:
        assert step.index(parse_owned(owned)[1].name) < rental.search(step).start()


THREE_090 = [
    ("i already have 2x rtx 3090 (24gb each) can i serve llama 3.1 70b at like 4bit for 10 concurrent users?? or do i "
     "need more cards", "en"),
    ("got two 3090s at home. can they serve llama 3.1 70b in 4-bit to 10 users at once?", "en"),
    ("we own 2 rtx 3090, is that enough for llama-3.1-70b int4 with 10 concurrent users", "en"),
    ("我有两张3090，能不能用4bit跑llama 3.1 70b给10个人同时用？还是要加卡？", "zh"),
    ("手上有2张RTX 3090，部署Llama 3.1 70B（4bit）给10个用户同时用够吗", "zh"),
]


@pytest.mark.parametrize(("text", "lang"), THREE_090)
def test_the_reply_opens_with_the_cards_owned_and_never_says_yes_beside_not_enough(text, lang):
    reply = str(run_conversation([text])[-1].content)
    lines = [x for x in reply.splitlines() if x.strip()]
    _agree(lines, "yes_if", lang)
    assert "2,048" in lines[0]  # the context per user that fits
    assert "**Yes**" not in reply and "**要**" not in reply
    rental = re.compile(r"\brent\b|租", re.I)
    assert not rental.search(lines[0])
    body = "\n".join(lines[:4])
    assert ("4 in all" if lang == "en" else "一共 4 张") in body  # the smallest addition of the same card


def test_no_on_one_4090_names_a_second_4090_first():
    """'No' comes with the smallest addition that makes it fit: one more of the card owned, before the rented plan."""
    rec = _rec("1x rtx-4090", "llama-3.1-70b", "int4", 5, 8192)
    assert rec.owned_limit is not None and rec.owned_limit.more is not None and rec.owned_limit.more.gpus == 2
    for lang, more in (("en", "1 more NVIDIA GeForce RTX 4090 24GB"), ("zh", "再加 1 张 NVIDIA GeForce RTX 4090 24GB")):
        lines = [x for x in near_lines(rec, lang) if x]
        assert lines[0].startswith("## " + NO[lang]) and "1,024" in lines[0]
        step = lines[1]
        assert more in step and step.index(more) < re.search(r"\brent\b|租", step).start()


@pytest.mark.parametrize("preference", ["rent", "buy"])
def test_renting_or_buying_said_keeps_the_plans_heading(preference):
    """'i want to rent gpus to serve …' beside cards owned: the plan answers what to rent or buy."""
    rec = recommend(Workload(phase="serve", model="llama-3.1-70b", serve_precision="int4", users=10, context=8192,
                             owned=["2x rtx-3090"], preference=preference, flexible=["region", "utilisation"]))
    assert rec.owned_limit is None and near_code(rec) is None and near_lines(rec, "en") == []


SPEED = [("1x rx-7900-xtx", "qwen3-32b", "q4_k_m", 30), ("1x rx-7900-xtx", "qwen3-32b", "q4_k_m", 45),
         ("1x rtx-3090", "qwen3-32b", "q4_k_m", 40), ("1x rtx-3090", "qwen2.5-32b", "q4_k_m", 60),
         ("1x rtx-3090", "qwen2.5-32b", "q4_k_m", 150)]


@functools.cache
def _speed_rec(owned: str, model: str, precision: str, target: float) -> Recommendation:
    return recommend(Workload(phase="serve", model=model, serve_precision=precision, users=1, owned=[owned],
                              min_tokens_per_s=target, flexible=["context", "preference", "region", "utilisation"]))


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(("owned", "model", "precision", "target"), SPEED)
def test_a_card_that_holds_the_model_below_the_speed_asked_is_answered_at_its_speed(owned, model, precision, target, lang):
    """Review CQ E1: 'rx 7900 xtx … qwen3 32b at q4 and get like 30 tok/s?' (27) opened '**Yes**: it fits' above
    'Rent 1 × RTX 4090' and 'cannot do this as planned'."""
    rec = _speed_rec(owned, model, precision, target)
    mine = rec.owned_options[0]
    assert mine.serves and not mine.ok and (mine.decode_tokens_per_s or 0) < target
    faster = [lv.option for lv in rec.levers if lv.option is not None and lv.option.owned and lv.option.ok
              and "=" not in lv.change and (lv.option.decode_tokens_per_s or 0) >= target]
    near = bool(faster) or (mine.decode_tokens_per_s or 0) >= SPEED_NEAR * target
    assert near_code(rec) == ("yes_if" if near else "no")
    lines = [x for x in near_lines(rec, lang) if x]
    _agree(lines, "yes_if" if near else "no", lang)
    from gpu_advisor.assistant.writers import tps

    head = lines[0]
    assert tps(mine.decode_tokens_per_s or 0) in head and tps(target) in head  # the speed it gives and the one asked
    assert not re.search(r"\brent\b|租", head, re.I)
    if faster:
        assert str(faster[0].precision).upper() in head
