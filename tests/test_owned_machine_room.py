"""Cards said to be in the speaker's machine room or cluster are theirs ('我们机房是8张4090', '我们机房里有两台8卡A800',
'我们集群是16张H100'): owned, never cards to buy (review BU #14: '购买 8 × 4090 ¥223,329' for cards the lab has)."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand

SAID = [("我们机房是8张4090没有nvlink，跑70B的模型应该选哪种", "8x rtx-4090"), ("我们机房里是8张4090", "8x rtx-4090"),
        ("我们集群是16张H100，部署qwen3 235b", "16x h100-sxm"), ("我机房里是4张A800，想微调qwen2.5 32b", "4x a800-80gb-sxm")]


@pytest.mark.parametrize(("text", "owned"), SAID)
def test_cards_in_our_machine_room_are_owned(text: str, owned: str) -> None:
    assert understand(text).updates.get("owned") == [owned]
