"""A speed wish inside a question whether it runs is asked, not a target (review BV #1): 'can i run llama 3.3 70b at
like q4 with decent speed? just for me chatting' on an M2 Max sets no made-up 15 tokens/s target, so the headline is
the user's own Mac (it fits, its speed, that it is slower than reading), with renting among the options, not the plan.
A wish said as a wish ('not too slow please', '速度不要太慢') still sets the comfortable speed, said."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states

MACHINES = ["got a m2 max 64gb macbook", "i have an m2 max with 64gb"]
QUESTIONS = ["can i run llama 3.3 70b at like q4 with decent speed?", "could it run llama 3.3 70b q4 at a usable speed?",
             "will llama 3.3 70b run reasonably fast on it?", "is it possible to run llama 3.3 70b at an ok speed?"]
TAILS = ["just for me chatting", "", "only me using it"]


@pytest.mark.parametrize(("machine", "question", "tail"), list(itertools.product(MACHINES, QUESTIONS, TAILS)))
def test_en_speed_wish_in_a_question_sets_no_target(machine, question, tail) -> None:
    u = understand(f"{machine}, {question} {tail}".strip())
    assert "min_tokens_per_s" not in u.updates, u.updates
    assert not any(key == "note.speed_wish" for key, _v in u.notes)


@pytest.mark.parametrize("text", ["我有M2 Max 64G，llama 3.3 70b能跑得不太慢吗", "我的M2 Max 64G跑llama 3.3 70b，速度能还行吗？"])
def test_zh_speed_wish_in_a_question_sets_no_target(text) -> None:
    assert "min_tokens_per_s" not in understand(text).updates


@pytest.mark.parametrize("text", ["I have a 4090, want qwen 32b, not too slow please",
                                  "我有M2 Max 64G，能跑llama 3.3 70b吗，速度不要太慢",
                                  "serve qwen2.5 7b on my 3090, decent speed"])
def test_a_wish_said_as_a_wish_keeps_the_comfortable_speed(text) -> None:
    u = understand(text)
    assert u.updates.get("min_tokens_per_s") == 15
    assert any(key == "note.speed_wish" for key, _v in u.notes)


def test_mac_owner_headline_is_their_mac() -> None:
    state = run_states(["got a m2 max 64gb macbook, can i run llama 3.3 70b at like q4 with decent speed? just for me "
                        "chatting"])[-1]
    assert state["profile"].get("min_tokens_per_s") is None
    reply = state["messages"][-1].content
    head = next(line for line in reply.splitlines() if line.startswith("## "))
    assert head.startswith("## Use your 1 × Apple M2 Max") and "5.9 tokens/s" in head
    assert "slower than reading speed" in reply and "## Rent" not in reply and "15 tokens/s" not in reply
