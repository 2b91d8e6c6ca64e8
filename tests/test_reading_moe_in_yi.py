"""An unknown model's size said as totals in 亿 or B is read (review CD #12: '总参数两千三百亿，激活二百二十亿' and
'总参数2300亿，激活220亿' were dropped and the assistant asked which model): Chinese numerals and digits, the label
before or after, '总参' short, 'A22B', English 'total'/'active' and plain digits. The model is sized from those figures
and the headline says so."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_conversation

TOTALS = {"两千三百亿": "两千三百亿", "2300亿": "2300亿", "230B": "230B"}
ACTIVES = {"二百二十亿": "二百二十亿", "220亿": "220亿", "22B": "22B"}
ZH_PAIRS = ["总参数{t}，激活{a}", "总参数量{t}，激活参数{a}", "参数量{t}，激活{a}", "{t}参数，{a}激活", "总参{t} 激活{a}",
            "{t}总参，{a}激活", "总参数为{t}，激活参数约{a}", "{t}参数的MoE，激活{a}"]
ZH_FRAMES = ["要私有化部署我们自研的一个MoE模型，{s}，五十个人同时用", "{s}，部署给五十个人同时用，上下文32k",
             "我们自研了一个模型（{s}），部署给五十个人同时用"]


@pytest.mark.parametrize(("frame", "pair", "total", "active"),
                         list(itertools.product(ZH_FRAMES, ZH_PAIRS, TOTALS, ACTIVES)))
def test_totals_in_yi_or_b_are_the_moe_total_and_active(frame: str, pair: str, total: str, active: str) -> None:
    u = understand(frame.format(s=pair.format(t=total, a=active)), None)
    assert u.updates.get("model") == "230B-A22B", u.updates
    assert u.updates.get("phase") == "serve", u.updates
    assert u.unknown_model is None, u.unknown_model  # '总参230B' is no model's name


@pytest.mark.parametrize("said", ["a 230B MoE with 22B active", "230B total, 22B active", "total params 230B, 22B active",
                                  "230000000000 parameters, 22000000000 active", "an in-house MoE, 230B total and 22B active"])
@pytest.mark.parametrize("frame", ["serve {s} to 50 users at once", "we need to deploy {s}; 50 concurrent users"])
def test_english_totals_are_the_moe_total_and_active(frame: str, said: str) -> None:
    u = understand(frame.format(s=said), None)
    assert u.updates.get("model") == "230B-A22B", u.updates


@pytest.mark.parametrize(("said", "model"), [("部署一个70亿参数的模型给五十个人同时用", "7B"),
                                             ("参数量五亿的小模型，部署给五十个人同时用", "0.5B"),
                                             ("A22B，总参230B，部署给五十个人同时用", "230B-A22B")])
def test_a_dense_count_in_yi_is_its_size(said: str, model: str) -> None:
    assert understand(said, None).updates.get("model") == model


@pytest.mark.parametrize("said", ["训练数据两亿token，部署qwen2.5-7b给五十个人同时用", "每个月三亿token，部署qwen2.5-7b"])
def test_a_count_of_tokens_in_yi_is_no_model_size(said: str) -> None:
    assert understand(said, None).updates.get("model") == "qwen2.5-7b"


def test_conversation_cd12_sizes_the_in_house_moe_in_one_turn() -> None:
    reply = run_conversation(["信创项目不能上N卡，要私有化部署我们自研的一个MoE模型，总参数两千三百亿，激活二百二十亿，bf16，"
                              "上下文六十四k，五十个人同时用，电费八毛一度，买昇腾服务器的话预算三百万够不够"])[-1].content
    head = next(line for line in reply.splitlines() if line.startswith("## "))
    assert "910B" in head and "总参数 230B" in head and "激活 22B" in head, head
    assert "230B-A22B MoE 模型，bf16，50 个用户 × 65,536 token" in reply
    assert "你打算用这个模型做什么" not in reply and "用哪个模型" not in reply
    assert "电价每度 ¥0.8" in reply


def test_conversation_en_in_house_moe_headline_says_the_figures() -> None:
    reply = run_conversation(["serve our in-house MoE, 230B total and 22B active, bf16, 64k context, 50 users at once, "
                              "around the clock"])[-1].content
    head = next(line for line in reply.splitlines() if line.startswith("## "))
    assert "230B total, 22B active per token" in head, head
