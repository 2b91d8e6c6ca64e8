"""Card and size follow-ups after a plan, as people ask them: 'and B200?' / 'B200呢？' / 'what about on H100s'
compare that card for the current plan (the same job, the card's row in the table, nothing else changed);
'what about the 32b' / '那32b的呢' / 'and the 7b version?' re-plan the same family at that size, keeping
everything else. Generated over phrasings, cards, sizes and plans in both languages; inside a compound follow-up
each keeps its meaning."""

from __future__ import annotations

import itertools

import pytest
from langchain_core.messages import HumanMessage

from gpu_advisor.assistant.engine import engine_graph

PLANS = {
    "serve_en": "serve qwen2.5 72b for 200 users, around the clock",
    "mac_zh": "我有一台mac studio m2 ultra 192g，想跑qwen2.5 72b",
    "mac_en": "I have a mac studio m2 ultra 192gb and want to run qwen2.5 72b, just me",
    "tune_en": "fine-tune qwen2.5 7b with qlora on 20k examples",
}
CARD_ASKS = {
    "en": ["and {c}?", "what about on {c}s", "how about the {c}", "what if we used {c}s instead?", "{c} then?",
           "and on {c}?", "ok, and {c}?"],
    "zh": ["{c}呢？", "那{c}呢", "用{c}呢", "{c}的话呢", "如果用{c}呢", "那{c}的呢？"],
}
CARDS = {"B200": "b200", "H100": "h100-sxm", "H200": "h200", "A100": "a100-80gb-sxm", "L40S": "l40s"}
SIZE_ASKS = {
    "en": ["what about the {s}", "and the {s} version?", "how about {s}", "what about a {s} instead?", "and {s}?",
           "the {s} one?", "what if we go with the {s}", "{S} then?"],
    "zh": ["那{s}的呢", "{s}版本呢", "换成{s}的呢", "{s}呢？", "如果用{s}的呢", "{s}的怎么样", "那{S}版本的怎么样？"],
}
SIZES = {"serve_en": ["32b", "14b", "7b"], "mac_zh": ["32b", "7b"], "mac_en": ["32b", "14b"], "tune_en": ["14b", "32b"]}


def _go(state, text):
    return engine_graph.invoke({**state, "messages": [*state.get("messages", []), HumanMessage(text)]})


@pytest.fixture(scope="module")
def plans():
    return {k: _go({}, text) for k, text in PLANS.items()}


def _payload(state):
    return state["messages"][-1].additional_kwargs["gpu_advisor"]


@pytest.mark.parametrize("plan", list(PLANS))
def test_a_card_asked_about_is_compared_for_the_same_plan(plans, plan):
    before = plans[plan]
    count = 0
    for lang, (name, card) in itertools.product(("en", "zh"), CARDS.items()):
        for ask in CARD_ASKS[lang]:
            text = ask.format(c=name)
            after = _go(before, text)
            p = _payload(after)
            assert p["kind"] == "answer", (plan, text, p.get("topic"), str(after["messages"][-1].content)[:200])
            assert card in [o["gpu"] for o in p["results"]["options"]], (plan, text)
            same = {k: v for k, v in before["profile"].items() if k not in ("only",)}
            assert {k: after["profile"].get(k) for k in same} == same, (plan, text)  # same job, nothing else changed
            count += 1
    assert count == 5 * (7 + 6)


@pytest.mark.parametrize("plan", list(PLANS))
def test_a_size_asked_about_replans_the_same_family(plans, plan):
    before = plans[plan]
    family = before["profile"]["model"].rsplit("-", 1)[0]
    for lang, size in itertools.product(("en", "zh"), SIZES[plan]):
        for ask in SIZE_ASKS[lang]:
            text = ask.format(s=size, S=size.upper())
            after = _go(before, text)
            p = _payload(after)
            assert p["kind"] == "answer", (plan, text)
            assert after["profile"]["model"] == f"{family}-{size}", (plan, text, after["profile"]["model"])
            kept = {k: v for k, v in before["profile"].items() if k not in ("model",) and v is not None}
            assert {k: after["profile"].get(k) for k in kept} == kept, (plan, text)


@pytest.mark.parametrize("text,kinds,model", [
    ("how many gpu hours is that, and B200?", [("info", "gpu_hours"), ("answer", None)], "qwen2.5-72b"),
    ("and B200? also how many gpu hours is that", [("answer", None), ("info", "gpu_hours")], "qwen2.5-72b"),
    ("那32b的呢，还有一共多少卡时", [("answer", None), ("info", "gpu_hours")], "qwen2.5-32b"),
    ("what about the 32b and how many gpu hours is that", [("answer", None), ("info", "gpu_hours")], "qwen2.5-32b"),
    ("8bit vs 4bit and how many gpu hours", [("info", "precision_compare"), ("info", "gpu_hours")], "qwen2.5-72b"),
    ("8bit和4bit差多少？另外每个月花多少", [("info", "precision_compare"), ("info", "total_cost")], "qwen2.5-72b"),
    ("B200呢？顺便问下为什么不用sglang", [("answer", None), ("info", "engine_choice")], "qwen2.5-72b"),
])
def test_cards_sizes_and_widths_inside_a_compound_follow_up(plans, text, kinds, model):
    after = _go(plans["serve_en"], text)
    p = _payload(after)
    assert [(x["kind"], x["topic"]) for x in p["parts"]] == kinds, text
    assert after["profile"]["model"] == model


@pytest.mark.parametrize("ask,lang", [("what about the 32b", "en"), ("那32b的呢", "zh"), ("and the 32b version?", "en"),
                                      ("32b版本呢", "zh")])
def test_a_size_the_line_does_not_have_is_said_before_it_is_sized(ask, lang):
    """After Llama 3.1 8B, '32b': Llama 3.1 comes in 8B, 70B and 405B; the answer says there is no 32B of it."""
    plan = _go({}, "fine-tune llama 3.1 8b with qlora on 20k examples")
    after = _go(plan, ask)
    text = str(after["messages"][-1].content)
    assert ("there is no 32B" in text and "8B, 70B, 405B" in text) if lang == "en" else \
        ("没有 32B" in text and "8B、70B、405B" in text), text


def test_a_size_the_line_has_gets_no_such_note(plans):
    text = str(_go(plans["serve_en"], "what about the 32b")["messages"][-1].content)
    assert "there is no" not in text
