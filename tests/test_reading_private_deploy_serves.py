"""A private deployment that people use is serving (review CD #12: '私有化部署…五十个人同时用' was asked what the model is
for): on-prem words in either language, with people using it, set the serving phase before any model is named."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_conversation

ZH_DEPLOY = ["要私有化部署我们自研的模型", "私有化部署一个大模型", "本地部署一个模型", "内网部署我们自己的模型", "要私有化"]
ZH_PEOPLE = ["五十个人同时用", "给50个同事同时用", "并发50", "同时在线的五十个左右"]
EN_DEPLOY = ["we need an on-prem deployment", "on-premise, our own model", "self-hosted model in our own rack",
             "private deployment of our in-house model"]
EN_PEOPLE = ["50 people at once", "50 concurrent users", "for 50 users at the same time"]


@pytest.mark.parametrize(("deploy", "people"), [*itertools.product(ZH_DEPLOY, ZH_PEOPLE),
                                                *itertools.product(EN_DEPLOY, EN_PEOPLE)])
def test_a_private_deployment_people_use_is_serving(deploy: str, people: str) -> None:
    sep = "，" if deploy[0] > "\u3000" else ", "
    u = understand(f"{deploy}{sep}{people}", None)
    assert u.updates.get("phase") == "serve", u.updates
    assert u.updates.get("users") == 50, u.updates


@pytest.mark.parametrize(("said", "phase"), [("数据不能出内网，想微调一个模型，五万条数据", "fine-tune"),
                                             ("本地部署个模型玩玩", "experiment"),
                                             ("on-prem, we want to fine-tune llama 3.1 8b on 20k examples", "fine-tune")])
def test_on_prem_without_people_keeps_its_job(said: str, phase: str) -> None:
    assert understand(said, None).updates.get("phase") == phase


@pytest.mark.parametrize(("turn", "asked", "not_asked"),
                         [("要私有化部署我们自研的模型，五十个人同时用", "用哪个模型", "你打算用这个模型做什么"),
                          ("we need an on-prem deployment of our own model for 50 people at once", "Which model",
                           "What are you planning to do")])
def test_conversation_asks_the_model_not_the_job(turn: str, asked: str, not_asked: str) -> None:
    reply = run_conversation([turn])[-1].content
    assert asked in reply and not_asked not in reply, reply
