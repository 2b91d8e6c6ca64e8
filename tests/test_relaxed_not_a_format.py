"""A plan relaxed to something that is no weight format ('qlora-unsloth': Unsloth's QLoRA on a 4090) is asked about
with more cards ('what if i had two 4090s'): the count is sized in the plan's own format, never a traceback (review BQ
#1: NotFound: unknown precision 'qlora-unsloth')."""
from __future__ import annotations

import pytest

from tests.conversation import payload, run_conversation


@pytest.mark.parametrize("more", ["what if i had two 4090s", "and with 2x 4090?", "如果有两张4090呢"])
def test_more_of_the_card_after_an_unsloth_qlora_plan(more):
    first, second = run_conversation(["i have a 4090, qlora fine tune qwen2.5 32b on 20k samples, will it fit", more])
    assert payload(first)["results"]["recommend"]["relaxed"] == "qlora-unsloth"
    assert "Traceback" not in second.content and "NotFound" not in second.content
    assert "2 × NVIDIA GeForce RTX 4090 24GB" in second.content
