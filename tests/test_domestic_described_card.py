"""A Chinese accelerator the catalog cannot size but whose figures are on record (寒武纪 MLU370-X8) is read as a
described card; under a domestic-only rule it stays in the plan (review BX #10 dropped it as '不是国产卡', because a
described card's maker defaulted to NVIDIA). Cards on record carry their origin into the description."""

from __future__ import annotations

import pytest

from gpu_advisor.knowledge import unsized_cards
from gpu_advisor.knowledge.custom_gpu import parse_custom_gpu
from tests.conversation import run_conversation

TURNS = {
    "zh": [["海光DCU和寒武纪MLU370哪个更适合跑qwen2.5 72b推理啊，我们只能买国产的", "就十来个人用"],
           ["只能用国产卡，寒武纪mlu370-x8跑qwen2.5 72b，十个人用"]],
    "en": [["we can only use domestic chips. Cambricon MLU370-X8 for qwen2.5 72b, about 10 users"]],
}


@pytest.mark.parametrize("turns", [t for ts in TURNS.values() for t in ts])
def test_a_described_chinese_card_stays_under_a_domestic_rule(turns: list[str]) -> None:
    reply = run_conversation(turns)[-1]
    content = str(reply.content)
    assert "不是国产卡" not in content and "are not made by a Chinese vendor" not in content, content[:300]
    assert "not on record" not in content and "没有记录" not in content, content[:300]
    row = next((x for x in content.splitlines() if x.startswith("| 4 × Cambricon MLU370-X8")), None)
    assert row is not None and row.split("|")[2].strip() in ("yes", "是"), content[:900]


def test_every_chinese_card_on_record_is_described_as_domestic() -> None:
    chinese = {"Hygon", "Cambricon", "Kunlunxin", "Huawei"}
    for card in unsized_cards():
        assert card.domestic_china == (card.vendor in chinese), card.id
        if card.spec:
            assert parse_custom_gpu(card.spec).domestic_china == card.domestic_china, card.id


def test_a_card_described_by_hand_is_not_domestic_unless_said() -> None:
    assert not parse_custom_gpu("custom:memory=48GB,bandwidth=600GB/s").domestic_china
    assert parse_custom_gpu("custom:memory=48GB,bandwidth=600GB/s,domestic=yes").domestic_china
