"""'how many H100s do i need to serve …' asks a count to rent or buy: no cards of the user's to count down (no
fewest_owned), so the heading buys or rents them, never 'Run it on … of the ones you own' (h-fixa's heading for 'we own H100s,
how many do we need', review BJ #6, kept when ownership is said)."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states

CARDS = ["H100s", "A100s", "L40S"]
NEEDED = ["how many {c} do i need to serve llama 3.1 70b to 50 users?",
          "serve llama 3.1 70b to 50 users: how many {c} would we need?",
          "how many {c} does llama 3.1 70b for 50 users require?",
          "部署llama 3.1 70b给50个人用，需要几张{c}？"]
OWNED = ["we own {c}. how many do we need to serve llama 3.1 70b to 50 users?",
         "we already have {c}; how many {c} would serving llama 3.1 70b to 50 users need?",
         "our lab has {c}, how many do we need for llama 3.1 70b for 50 users?",
         "我们自己有{c}，部署llama 3.1 70b给50个人用，要几张"]


@pytest.mark.parametrize("text", [t.format(c=c) for t in NEEDED for c in CARDS])
def test_a_count_needed_of_cards_not_theirs_is_no_ceiling(text: str) -> None:
    u = understand(text, None)
    assert u.updates.get("only") and not u.updates.get("owned"), u.updates
    assert not u.updates.get("fewest_owned"), u.updates


@pytest.mark.parametrize("text", [t.format(c=c) for t in OWNED for c in CARDS])
def test_a_count_needed_of_cards_said_theirs_is_their_ceiling(text: str) -> None:
    assert understand(text, None).updates.get("fewest_owned") is True, text


def test_the_heading_buys_the_cards_counted_never_runs_them_on_yours() -> None:
    text = "how many H100s do i need to serve llama 3.1 70b to ~200 concurrent users in fp8?"
    state = run_states([text])[-1]
    body = state["messages"][-1].content
    heads = [x for x in body.splitlines() if x.startswith("## ")]
    # (no price asked and nobody asked to buy: whole servers are rented, session 21 / review BS #7)
    assert heads and heads[0].startswith("## Rent ") and "ones you own" not in body, heads
    assert "as many of your cards" not in body  # nothing said back about cards of theirs
    best = state["results"]["recommend"]["best"]
    assert (best["gpu"], best["gpus"], best["owned"]) == ("h100-sxm", 12, False)  # rented: 3 copies of 4, not 2 servers
