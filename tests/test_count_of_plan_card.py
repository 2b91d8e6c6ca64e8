"""A follow-up that gives a count of the plan's card by pronoun, said with any subject, modal and verb ('what if i use
2 of them', "we'd rent four of those", 'and if i only had 1 gpu', '要是我们只用两张呢'): the plan is asked on that many
of its card (review BM, issue 21: 'what if i use 2 of them' was "Sorry, I didn't understand that")."""

from __future__ import annotations

import itertools

import pytest

from tests.conversation import run_conversation

PLAN = {"en": "serve llama 3.1 70b for 20 users on h100", "zh": "在h100上部署llama 3.1 70b，20个用户"}
LEADS = ["what if", "and if", "ok so", ""]
SUBJECTS = ["i use", "we'd rent", "we only had", "you take", "i went with", "we could get"]
COUNTS = [("4", 4), ("four", 4), ("2", 2)]
OBJECTS = ["of them", "of those", "gpus", "cards"]


def _english() -> list[tuple[str, int]]:
    combos = list(itertools.product(LEADS, SUBJECTS, COUNTS, OBJECTS))
    # every lead, subject, count and object appears; a stride keeps the set small
    return [(" ".join(f"{lead} {subject} {word} {obj}?".split()), n)
            for lead, subject, (word, n), obj in combos[::7]]


ZH = [("要是我们只用两张呢", 2), ("我用4张的话", 4), ("换成我们租四张呢", 4), ("如果只有2张卡呢", 2), ("要是我们只租两张的话", 2)]


@pytest.mark.parametrize(("text", "n"), _english())
def test_an_english_count_of_them_is_the_plans_card(text: str, n: int) -> None:
    reply = run_conversation([PLAN["en"], text])[-1].content
    assert "didn't understand" not in reply
    head = reply.split("\n\n")[0] + reply.split("\n\n")[1]
    assert f"{n} × NVIDIA H100 SXM 80GB" in head
    assert "Buy" not in head and "购买" not in head  # a plan rented before stays rented (review BM #12)


@pytest.mark.parametrize(("text", "n"), ZH)
def test_a_chinese_count_of_them_is_the_plans_card(text: str, n: int) -> None:
    reply = run_conversation([PLAN["zh"], text])[-1].content
    assert "没听懂" not in reply and "没理解" not in reply
    head = reply.split("\n\n")[0] + reply.split("\n\n")[1]
    assert f"{n} × NVIDIA H100 SXM 80GB" in head
    assert "Buy" not in head and "购买" not in head  # a plan rented before stays rented (review BM #12)


@pytest.mark.parametrize("change", ["ok and if we need 32k context instead", "make it 100 users", "换成32k上下文"])
def test_a_follow_up_that_says_nothing_of_buying_keeps_renting(change: str) -> None:
    first = ["need to serve a chatbot w/ mistral small 24b for our app, 20-100 users", "working hours"] \
        if change.isascii() else ["给我们的app部署mistral small 24b聊天机器人，20到100人", "工作时间"]
    replies = run_conversation([*first, change])
    assert "## Rent" in replies[-2].content or "## 租用" in replies[-2].content
    heading = next(line for line in replies[-1].content.splitlines() if line.startswith("## "))
    assert heading.startswith(("## Rent", "## 租用")), heading
