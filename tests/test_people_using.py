"""People said to be using the service ('大概同时20个人在用', '30个同事在用') are its users, never a count of cards taken
by someone else (the premise reader's '两张卡别人在用', which carries a card's noun or measure word)."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand

LEADS = ["", "大概", "平时", "差不多"]
WHO = ["{n}个人", "{n}个同事", "{n}个用户", "{n}人"]
TAILS = ["在用", "在用，内部知识库问答", "同时在用"]


@pytest.mark.parametrize(("lead", "who", "tail", "n"),
                         [(a, b, c, n) for (a, b, c), n in zip(itertools.product(LEADS, WHO, TAILS), itertools.cycle((12, 20, 35)))])
def test_people_in_use_are_users_not_cards_taken(lead: str, who: str, tail: str, n: int) -> None:
    u = understand(f"{lead}同时{who.format(n=n)}{tail}" if "同时" not in tail else f"{lead}{who.format(n=n)}{tail}", None)
    assert u.updates.get("users") == n, u.updates
    assert not u.ask.get("recount_taken")


@pytest.mark.parametrize("text", ["两张卡别人在用", "其中两张被占用了", "2 of them are taken", "two cards are in use by another team"])
def test_cards_in_use_by_others_are_still_a_recount(text: str) -> None:
    assert understand(text, None).ask.get("recount_taken") is True
