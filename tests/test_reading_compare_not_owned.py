"""A card named in a condition of a comparison question is not the user's (review BU #6): 'difference between H200 and
H100 for serving? is the extra memory worth it if my model already fits on an H100' owns nothing and is answered as
the comparison, never sized on an H100 made up as theirs. Generated over the conditions, the cards and the questions."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states

QUESTIONS = ["whats actually the difference between H200 and H100 for serving?", "h200 vs h100 for inference?",
             "how do the H200 and H100 differ?"]
CONDITIONS = ["is the extra memory worth it if my model already fits on an H100",
              "is it worth paying more if my model fits on a single H100",
              "worth it assuming my model runs on an H100?",
              "does it matter when my model already fits on one H100"]


@pytest.mark.parametrize(("question", "condition"), list(itertools.product(QUESTIONS, CONDITIONS)))
def test_card_in_a_condition_is_not_owned(question, condition) -> None:
    u = understand(f"{question} {condition}")
    assert not u.updates.get("owned"), u.updates
    assert "compare_cards" in u.intents


@pytest.mark.parametrize("text", [
    "is the extra memory worth it if my model already fits on an H100",
    "if my 14b model fits on an a100, what should i watch for",
    "如果我的模型在H100上已经放得下，H200还值得吗",
])
def test_condition_alone_owns_nothing(text) -> None:
    owned = understand(text).updates.get("owned") or []
    assert not any("h100" in o or "a100" in o for o in owned), owned


@pytest.mark.parametrize(("text", "card"), [
    ("we have 2 h100s, serve qwen2.5 14b", "2x h100-sxm"),  # said as theirs, still theirs
    ("my model fits on my H100", "1x h100-sxm"),
    ("our lab already has 4 a100 80gb", "4x a100-80gb-sxm"),
])
def test_cards_said_as_theirs_stay_owned(text, card) -> None:
    assert card in (understand(text).updates.get("owned") or [])


def test_conversation_answers_the_comparison_without_an_owned_card() -> None:
    state = run_states(["whats actually the difference between H200 and H100 for serving? is the extra memory worth "
                        "it if my model already fits on an H100"])[-1]
    assert not state["profile"].get("owned")
    reply = state["messages"][-1].content
    assert "4,800 GB/s" in reply and "3,350 GB/s" in reply and "you own" not in reply
