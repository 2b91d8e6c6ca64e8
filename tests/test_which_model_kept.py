"""'我们想做个客服机器人，手上只有一张4090，跑什么模型合适？' answered with the models that run on the card, then
'主要回答退换货问题，并发也就十来个人' (review CL): the follow-up adds the load, so the same question is answered again at
that load (the candidates sized with 10 users' KV cache at the use's context), never "which model?". The same for the
biggest model a card holds ('we own 2x 3090s, what model can we run?') and for a budget ('预算5万，选什么模型合适？'),
in English and Chinese, until a model is named: then that model is sized (assistant/which_kept.py)."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest

from gpu_advisor.assistant.catalog import say
from tests.conversation import run_states
from tests.test_no_english_in_chinese import english_runs

CJK = re.compile(r"[\u3400-\u9fff]")

# First turns that ask which model to run on cards of one's own or named: (language, message, the reply's topic,
# the context its use needs: a support bot's 4k, else the tools' 8k)
CARD_FIRSTS = [
    ("en", "I have one RTX 4090, which model should I run for a support chatbot?", "weigh", 4096),
    ("en", "which LLM should I use on my RTX 4090?", "weigh", 8192),
    ("en", "What model should I run on an L40S?", "weigh", 8192),
    ("en", "we have a single A6000 at work, what's the best model for it?", "weigh", 8192),
    ("en", "we own 2x 3090s, what model can we run?", "largest", 8192),
    ("zh", "我们想做个客服机器人，手上只有一张4090，跑什么模型合适？", "weigh", 4096),
    ("zh", "我有两张3090，用什么模型好？", "weigh", 8192),
    ("zh", "公司有一张L40S，推荐个模型", "weigh", 8192),
    ("zh", "手上一张4090，能跑多大的模型？", "largest", 8192),
]
# Follow-ups that add the load, the context or a speed: (language, message, users at once, context, tokens/s each)
FOLLOWS = [
    ("en", "about 10 concurrent users", 10, None, None),
    ("en", "10-20 users at once", 20, None, None),  # a range: sized at its top (slots.range_point)
    ("en", "around a dozen people at the same time", 12, None, None),
    ("en", "maybe 5 ppl using it at once", 5, None, None),
    ("en", "we need 16k context", 1, 16384, None),
    ("en", "each user needs at least 30 tokens/s", 1, None, 30.0),
    ("zh", "主要回答退换货问题，并发也就十来个人", 10, None, None),
    ("zh", "大概20个人同时用", 20, None, None),
    ("zh", "并发二三十人", 25, None, None),
    ("zh", "同时在线的有8个人左右", 8, None, None),
    ("zh", "上下文要16k", 1, 16384, None),
    ("zh", "要求每人每秒至少30个token", 1, None, 30.0),
]
CARD_CASES = [(f, g) for f, g in itertools.product(CARD_FIRSTS, FOLLOWS)]


def _payload(state: dict[str, Any]) -> dict[str, Any]:
    return state["messages"][-1].additional_kwargs.get("gpu_advisor") or {}


def _no_model_question(state: dict[str, Any]) -> None:
    text = state["messages"][-1].content
    assert state.get("pending") is None, state.get("pending")
    assert say("en", "slot.model.question") not in text and say("zh", "slot.model.question") not in text, text


def _in_language(lang: str, text: str) -> None:
    if lang == "zh":
        assert CJK.search(text) and not english_runs(text), english_runs(text)
    else:
        assert not CJK.search(text), text


@pytest.mark.parametrize(("first", "follow"), CARD_CASES,
                         ids=[f"{a[1][:18]}|{b[1][:18]}" for a, b in CARD_CASES])
def test_a_follow_up_to_which_model_on_a_card_answers_it_again(first: tuple[Any, ...], follow: tuple[Any, ...]) -> None:
    first_lang, ask, topic, use_context = first
    lang, said, users, context, speed = follow
    one, two = run_states([ask, said])
    assert _payload(one).get("topic") == topic
    payload = _payload(two)
    assert payload.get("kind") == "info" and payload.get("topic") == topic, two["messages"][-1].content
    _no_model_question(two)
    if lang == first_lang:  # ('10-20 users at once' after Chinese: mostly figures, the conversation's language kept)
        _in_language(lang, two["messages"][-1].content)
    results = payload["results"]
    sized = results if topic == "weigh" else results["largest"]
    assert sized["users"] == users
    assert sized["context"] == (context or use_context)
    if speed:
        assert two["profile"]["min_tokens_per_s"] == speed
    if topic == "weigh":
        rows = results["weigh"]
        assert rows and all(r["gpus"] == _payload(one)["results"]["weigh"][0]["gpus"] for r in rows)  # the same cards
        assert all(r["decode_tokens_per_s"] >= speed for r in rows if r["ok"] and speed)


def test_review_cl_ten_users_on_one_4090_drops_the_model_whose_kv_cache_no_longer_fits() -> None:
    """One 4090 for a support bot: Qwen3 32B in 4-bit is the pick for one user (21.7 GB of 25.5); ten users' KV cache
    at 4k does not fit beside it, so the pick moves to a model that holds them, each at its own speed."""
    one, two = run_states(["我们想做个客服机器人，手上只有一张4090，跑什么模型合适？", "主要回答退换货问题，并发也就十来个人"])
    first, second = _payload(one)["results"], _payload(two)["results"]
    assert first["pick"]["model"] == "qwen3-32b" and first["users"] == 1 and first["context"] == 4096
    assert second["users"] == 10 and second["context"] == 4096
    assert "qwen3-32b" not in {r["model"] for r in second["weigh"] if r["ok"]}
    assert second["pick"]["model"] == "qwen3-30b-a3b"
    text = two["messages"][-1].content
    assert "10 人同时使用" in text and "我推荐" in text


def test_each_follow_up_in_a_row_keeps_the_question_and_every_figure_said() -> None:
    states = run_states(["I have one RTX 4090, which model should I run for a support chatbot?",
                         "about 10 concurrent users", "we need 16k context"])
    last = _payload(states[-1])
    assert last["topic"] == "weigh" and last["results"]["users"] == 10 and last["results"]["context"] == 16384
    _no_model_question(states[-1])


@pytest.mark.parametrize(("ask", "name", "model", "follow", "users"), [
    ("I have one RTX 4090, which model should I run for a support chatbot?", "let's go with qwen3 30b-a3b",
     "qwen3-30b-a3b", "about 10 concurrent users", 10),
    ("我们想做个客服机器人，手上只有一张4090，跑什么模型合适？", "就用Qwen3 32B吧", "qwen3-32b", "并发也就十来个人", 10),
    ("we own 2x 3090s, what model can we run?", "ok, qwen2.5 72b then", "qwen2.5-72b", "20 users at once", 20),
])
def test_once_a_model_is_named_the_follow_ups_size_that_model(ask: str, name: str, model: str, follow: str,
                                                              users: int) -> None:
    states = run_states([ask, name, follow])
    assert states[1]["profile"]["model"] == model
    last = _payload(states[-1])
    assert last.get("kind") == "answer" and last.get("topic") not in ("weigh", "largest"), states[-1]["messages"][-1].content
    assert states[-1]["profile"]["model"] == model and states[-1]["profile"]["users"] == users


# A budget, no card: (language, message); the follow-ups: (language, message, users at once)
BUDGET_FIRSTS = [
    ("en", "I have $5000 to spend on GPUs, which model should I run?"),
    ("en", "with a $10k budget, what's the biggest model I can serve?"),
    ("en", "Our budget is $3000, what model can we run for an internal chatbot?"),
    ("zh", "预算5万，想部署一个客服模型，选什么模型合适？"),
    ("zh", "预算5万，最大能跑多大的模型？"),
]
BUDGET_FOLLOWS = [
    ("en", "about 10 concurrent users", 10),
    ("en", "10-20 users at once", 20),
    ("en", "we'd have about 8 users at the same time", 8),
    ("zh", "并发也就十来个人", 10),
    ("zh", "大概20个人同时用", 20),
]
BUDGET_CASES = list(itertools.product(BUDGET_FIRSTS, BUDGET_FOLLOWS))


@pytest.mark.parametrize(("first", "follow"), BUDGET_CASES, ids=[f"{a[1][:18]}|{b[1][:18]}" for a, b in BUDGET_CASES])
def test_a_follow_up_to_which_model_for_a_budget_answers_it_again(first: tuple[str, str],
                                                                  follow: tuple[str, str, int]) -> None:
    one, two = run_states([first[1], follow[1]])
    assert _payload(one).get("topic") == "budget_largest", one["messages"][-1].content
    assert _payload(one)["results"]["budget_largest"]["users"] == 1
    payload = _payload(two)
    assert payload.get("topic") == "budget_largest", two["messages"][-1].content
    _no_model_question(two)
    found = payload["results"]["budget_largest"]
    assert found["users"] == follow[2] and found["rigs"]
    text = two["messages"][-1].content
    lang = "zh" if CJK.search(text) else "en"
    if follow[0] == first[0]:
        assert lang == first[0]
        _in_language(lang, text)
    said = f"{follow[2]} 人同时使用" if lang == "zh" else f"{follow[2]} users at once"
    assert said in text


def test_more_users_on_a_budget_never_hold_a_larger_model() -> None:
    """The KV cache of ten users takes room: each rig the same money buys holds a model no larger than for one."""
    one, two = run_states(["with a $10k budget, what's the biggest model I can serve?", "about 10 concurrent users"])
    alone = {(r["gpu"], r["gpus"]): r for r in _payload(one)["results"]["budget_largest"]["rigs"]}
    ten = {(r["gpu"], r["gpus"]): r for r in _payload(two)["results"]["budget_largest"]["rigs"]}
    shared = set(alone) & set(ten)
    assert shared
    assert all(ten[k]["size_b"] <= alone[k]["size_b"] for k in shared)
    assert any(ten[k]["size_b"] < alone[k]["size_b"] for k in shared)
