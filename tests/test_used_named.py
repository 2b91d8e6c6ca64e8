"""A card said used ('a used 3090', '二手3090') accepts used cards: the purchase is priced at the sourced used price,
not the launch price (review V #2: 'why is the 3090 2999 in the table? i thought they're way cheaper used')."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_conversation

SAID = ["a used 3090 or a new 4060 ti 16gb? run qwen2.5 32b", "thinking of a used 3090 for qwen2.5 32b",
        "is a used rtx 3090 ok for qwen2.5 32b at home?", "买二手3090还是4070 ti super好，跑qwen2.5 32b", "二手3090跑qwen2.5 32b怎么样",
        "想买张二手显卡跑qwen2.5 32b"]


@pytest.mark.parametrize("text", SAID)
def test_a_card_said_used_accepts_used_cards(text: str) -> None:
    assert understand(text, None).updates.get("used_ok") is True


@pytest.mark.parametrize("text", ["we used 4090s last time for llama 8b", "I used an A100 before", "我们之前用过3090"])
def test_used_as_a_verb_is_not_a_used_card(text: str) -> None:
    assert "used_ok" not in understand(text, None).updates


def test_the_used_3090_is_priced_used() -> None:
    reply = run_conversation(["whats better for local llms, a used 3090 or a new 4060 ti 16gb? mostly want to run "
                              "qwen2.5 32b at q4, its just for me tinkering"])[-1].content
    row = next(x for x in reply.splitlines() if x.startswith("| 1 × NVIDIA GeForce RTX 3090"))
    assert row.endswith("$800 used |"), row
