"""A count of cards said owned after one card was named is that card, owned ('其实我有两张' after 'one RTX 6000 Ada'),
whatever the words around the count ('我们机器里有', '我电脑里有', '我有', 'we have'): never a question about which card
they are (session 29: '自有 2 张卡，型号还没说' beside 'you have 2 × RTX 6000 Ada')."""

from __future__ import annotations

import itertools

import pytest

from tests.conversation import payload, run_conversation

FIRSTS = [("我们的客服机器人想用一张RTX 6000 Ada跑gemma 2 27b，大概15个并发", "rtx-6000-ada"),
          ("一张A100 80GB能不能给20个人跑qwen2.5 32b？", "a100-80gb-sxm"),
          ("can a single a100 80gb serve qwen2.5 32b for 20 users?", "a100-80gb-sxm")]
SECONDS_ZH = ["其实我有两张", "其实我们机器里有两张", "其实我电脑里有两张", "等下，我们其实有两张"]
SECONDS_EN = ["actually i have 2 of them", "oh we have two of those actually", "wait we actually have 2 of them in the box"]


@pytest.mark.parametrize(("first", "second"), [
    (f, s) for f, s in itertools.product(FIRSTS, SECONDS_ZH + SECONDS_EN)
    if (f[0].isascii() == s.isascii()) or s in SECONDS_ZH[:2]])
def test_a_count_after_a_named_card_owns_that_card(first: tuple[str, str], second: str) -> None:
    reply = run_conversation([first[0], second])[-1]
    profile = payload(reply)["profile"]
    assert profile["owned"] == [f"2x {first[1]}"], profile
    assert "型号还没说" not in reply.content and "which card" not in reply.content.lower()
