"""Compound follow-ups after a plan (assistant/reading/compound.py, assistant/parts.py): a message that asks two or
three questions about the plan on screen gets each one's own reply, in the order asked, whatever joins them
(and / also / plus / a comma / a question mark / 还有 / 另外 / 以及 / 顺便问下 / ？), in English and Chinese.
A single request that merely contains a joiner is not split."""

from __future__ import annotations

import itertools

import pytest
from langchain_core.messages import HumanMessage

from gpu_advisor.assistant.engine import engine_graph

# (reply topic, phrasing) of each follow-up kind, per language; each is answered alone with that topic.
KINDS = {
    "en": [("gpu_hours", "how many gpu hours is that"), ("engine_choice", "why not sglang"),
           ("total_cost", "what's the monthly cost"), ("kv_cache", "how big is the kv cache per user"),
           ("metric", "are those ttft numbers p99 or averages"), ("math", "show the math"),
           ("rent_or_buy", "rent or buy")],
    "zh": [("gpu_hours", "一共多少卡时"), ("engine_choice", "为什么不用sglang"), ("total_cost", "每个月花多少"),
           ("kv_cache", "kv cache多大"), ("metric", "首token延迟是p99还是平均值"), ("math", "展示计算过程"),
           ("rent_or_buy", "租还是买")],
}
JOINERS = {
    "en": [" and ", " and also ", ", also ", " plus ", ", ", "? ", "? and ", "; by the way "],
    "zh": ["，还有", "？另外", "，以及", " 顺便问下 ", "？", "，另外，", "。还有就是", "；"],
}
PLAN = {"en": "serve qwen3 32b for 50 users, around the clock", "zh": "部署qwen3 32b给50个人用，全天"}


def _go(state, text):
    return engine_graph.invoke({**state, "messages": [*state.get("messages", []), HumanMessage(text)]})


@pytest.fixture(scope="module")
def plans():
    return {lang: _go({}, text) for lang, text in PLAN.items()}


def _reply(state):
    message = state["messages"][-1]
    return message, message.additional_kwargs["gpu_advisor"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_pair_of_follow_ups_gets_both_replies_in_order(plans, lang):
    """Every ordered pair of follow-up kinds, crossed with every joiner: one reply per question, in the order
    asked, each the reply that question gets alone; nothing re-sized, no question left open."""
    count = 0
    for (a, first), (b, second) in itertools.permutations(KINDS[lang], 2):
        for joiner in JOINERS[lang]:
            text = f"{first}{joiner}{second}" + ("?" if lang == "en" else "")
            message, p = _reply(_go(plans[lang], text))
            assert [x["topic"] for x in p.get("parts", [])] == [a, b], (text, p.get("topic"), message.content[:300])
            assert p["kind"] == "info", text
            body = str(message.content)
            assert body.index("**1.") < body.index("**2."), text
            has_cjk = any("\u4e00" <= ch <= "\u9fff" for ch in body.replace(first, "").replace(second, ""))
            assert has_cjk == (lang == "zh"), body
            count += 1
    assert count == 7 * 6 * 8


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_three_questions_at_once(plans, lang):
    kinds = KINDS[lang]
    for trio in itertools.islice(itertools.permutations(kinds, 3), 0, None, 7):
        joiner = JOINERS[lang]
        text = f"{trio[0][1]}{joiner[0]}{trio[1][1]}{joiner[3]}{trio[2][1]}"
        _message, p = _reply(_go(plans[lang], text))
        assert [x["topic"] for x in p.get("parts", [])] == [t for t, _ in trio], text


def test_each_part_carries_its_own_figures(plans):
    """The GPU hours part holds the gpu_hours tool figures, the engine part the engines: each as asked alone."""
    _message, p = _reply(_go(plans["en"], "how many gpu hours is that and why not sglang"))
    hours, engine = p["parts"]
    alone = _reply(_go(plans["en"], "how many gpu hours is that"))[1]
    assert hours["results"] == alone["results"]
    assert engine["topic"] == "engine_choice"


@pytest.mark.parametrize("text", [
    "compare L40S and A100", "make it 32k context and 100 users", "serve llama 3.1 8b and qwen2.5 7b",
    "ok, thanks", "H100 and A100", "对比L40S和A100", "改成32k上下文，还有100个用户",
])
def test_one_request_with_a_joiner_is_not_split(plans, text):
    _message, p = _reply(_go(plans["en"], text))
    assert "parts" not in p, (text, p)


def test_before_a_plan_nothing_is_split():
    state = _go({}, "how many gpu hours is that and why not sglang")
    assert "parts" not in _reply(state)[1]


@pytest.mark.parametrize("lang,change,question,topic", [
    ("en", "make it 32k context", "how many gpu hours is that", "gpu_hours"),
    ("en", "make it 32k context", "why not sglang", "engine_choice"),
    ("zh", "改成32k上下文", "一共多少卡时", "gpu_hours"),
    ("zh", "改成32k上下文", "每个月花多少", "total_cost"),
])
def test_a_change_then_a_question_answers_the_question_about_the_changed_plan(plans, lang, change, question, topic):
    """'make it 32k context and how many gpu hours is that': the plan re-sized first, then the question answered
    about the new plan."""
    for joiner in JOINERS[lang][:4]:
        after = _go(plans[lang], f"{change}{joiner}{question}")
        _message, p = _reply(after)
        assert [(x["kind"], x["topic"]) for x in p["parts"]] == [("answer", None), ("info", topic)], joiner
        assert after["profile"]["context"] == 32768


def test_two_changes_are_one_request(plans):
    after = _go(plans["en"], "make it 32k context and 100 users")
    _message, p = _reply(after)
    assert "parts" not in p and after["profile"]["context"] == 32768 and after["profile"]["users"] == 100


@pytest.mark.parametrize("text", ["show the math, whats the formula", "how did you get that, show me the formula",
                                  "训练时间是怎么算的，公式是什么", "how many gpu hours is that, in gpu-hours total"])
def test_one_question_said_twice_is_one_question(plans, text):
    lang = "zh" if any("\u4e00" <= ch <= "\u9fff" for ch in text) else "en"
    _message, p = _reply(_go(plans[lang], text))
    assert "parts" not in p, (text, [x["topic"] for x in p["parts"]])
