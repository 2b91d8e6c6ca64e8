"""A product for the public is recognised by what it is, not only by 'saas'/'chatbot' (review CC #6, #8): 'an ai writing
assistant', 'AI陪聊app', '面向C端用户', "our app's users", 'toC产品' are a product (busy around the clock, held at the product
speed floor), with no question of how busy the cards are and no working-hours assumption. An internal word or one
person's own use still wins."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_conversation

EN_PRODUCTS = ["we're a small startup building an ai writing assistant", "our ai companion app", "an ai tutor app for students",
               "our app's users chat with it", "a consumer app", "for our chat app", "a b2c product",
               "the users of our app", "a mobile app we are launching"]
EN_FRAMES = ["{p}, serve llama 3.1 8b, 30 at the same time tops", "llama 3.1 8b for {p}; 30 users at once"]
ZH_PRODUCTS = ["我们想做个AI陪聊app", "做一个AI写作助手", "面向C端用户", "toC产品", "我们的app用户", "一个情感陪伴小程序",
               "虚拟女友app", "做消费级应用"]
ZH_FRAMES = ["{p}，先用qwen2.5 14b，高峰同时在线三十人", "qwen2.5 14b，{p}，并发30"]


@pytest.mark.parametrize(("frame", "product"), [*itertools.product(EN_FRAMES, EN_PRODUCTS),
                                                *itertools.product(ZH_FRAMES, ZH_PRODUCTS)])
def test_a_public_product_named_by_its_kind_is_a_product_busy_all_day(frame: str, product: str) -> None:
    u = understand(frame.format(p=product), None)
    assert u.updates.get("product") is True, u.updates
    assert u.updates.get("utilisation") == 1.0, u.updates


@pytest.mark.parametrize("said", ["an ai writing assistant for our team, llama 3.1 8b, 30 at once",
                                  "i want an ai writing assistant for myself, llama 3.1 8b",
                                  "公司内部用的AI写作助手，qwen2.5 14b，并发30", "搭一个机器学习平台，部署qwen2.5 14b给三十个人同时用",
                                  "internal chat app for our staff, llama 3.1 8b, 30 at once"])
def test_an_internal_or_personal_tool_is_no_public_product(said: str) -> None:
    u = understand(said, None)
    assert u.updates.get("product") is None, u.updates
    assert u.updates.get("utilisation") is None, u.updates


def test_conversation_cc6_writing_assistant_asks_no_utilisation() -> None:
    replies = run_conversation(["hey we're a small startup building an ai writing assistant, need help figuring out what "
                                "gpus to rent for it", "Serve users",
                                "prob llama 3.1 8b to start. we have ~300 ppl using it daily, maybe 30 at the same time tops"])
    assert all("How busy will the GPUs be" not in r.content for r in replies)
    last = replies[-1].content
    assert last.startswith("## ") or "\n## " in last, last
    assert "a product people use needs at least 20 tokens/s per user" in last
    assert "- busy around the clock, as a service taking live traffic is" in last, last


def test_conversation_cc8_companion_app_asks_no_utilisation() -> None:
    replies = run_conversation(["我们想做个AI陪聊app，想问下用什么卡比较合适", "服务用户",
                                "先用qwen2.5 14b吧，日活大概五千，高峰同时在线的一两百人，预算一个月三万块以内"])
    assert all("GPU 的使用会有多频繁" not in r.content for r in replies)
    assert "\n## " in replies[-1].content or replies[-1].content.startswith("## ")
    assert "利用率 100%" in replies[0].content or "100% 利用率" in replies[0].content
