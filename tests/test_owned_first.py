"""The user's own hardware first (issue 21, review D): cards you own named again ('四张3090够不够') are yours, not
as many more to rent; servers of consumer cards you own hold a model no small unit can, as one copy over all of
them (tensor parallel in each server, pipeline stages across them)."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.engine import _yours
from gpu_advisor.tools.recommend import Workload, recommend
from gpu_advisor.tools.scale import PCIE_MAX_TP
from tests.conversation import payload, run_conversation


@pytest.mark.parametrize(("cards", "owned", "yours"), [
    (["4x rtx-3090"], ["4x rtx-3090"], True), (["rtx-3090"], ["4x rtx-3090"], True),
    (["2x rtx-3090"], ["4x rtx-3090"], True), (["8x rtx-3090"], ["4x rtx-3090"], False),
    (["4x rtx-4090"], ["4x rtx-3090"], False), (["2x a100-80gb-sxm"], ["8x rtx-4090"], False),
    (["8x rtx-4090", "1x a100-80gb-sxm"], ["8x rtx-4090", "2x a100-80gb-sxm"], True), (["h20"], [], False)])
def test_cards_named_are_yours_when_you_own_as_many(cards, owned, yours):
    assert _yours(cards, owned) is yours


RESTATED = [("我们有四张3090，想lora微调qwen2.5 7b，数据两千四百万token", "改成全参微调呢 四张3090够不够", "使用你自己的 4 × NVIDIA GeForce RTX 3090"),
            ("we have four 3090s, lora fine-tune qwen2.5 7b on 24M tokens", "what about full fine-tuning? are 4 3090s enough?",
             "Use your 4 × NVIDIA GeForce RTX 3090"),
            ("we have four 3090s, lora fine-tune qwen2.5 7b on 24M tokens", "full fine-tune on the 4 3090s then",
             "Use your 4 × NVIDIA GeForce RTX 3090")]


@pytest.mark.parametrize(("first", "second", "headline"), RESTATED)
def test_your_cards_named_again_stay_yours(first, second, headline):
    _a, b = run_conversation([first, second])
    data = payload(b)
    heading = next(line for line in b.content.splitlines() if line.startswith("## "))
    assert heading.startswith(f"## {headline}"), b.content[:200]  # after the yes/no line a question asks for
    best = data["results"]["recommend"]["best"]
    assert best["owned"] and best["gpus"] == 4
    assert not data["profile"].get("only")
    rows = [o for o in data["results"]["recommend"]["options"] if o["gpu"] == "rtx-3090" and o["gpus"] == 4]
    assert all(o["owned"] for o in rows)  # no rented copy of the cards you have


@pytest.mark.parametrize(("model", "card", "count", "users"), [("glm-4.6", "rtx-4090", 24, 100),
                                                               ("glm-4.6", "rtx-3090", 24, 20),
                                                               ("qwen3-235b-a22b", "rtx-4090", 16, 50)])
def test_your_consumer_servers_hold_a_model_no_small_unit_can(model, card, count, users):
    rec = recommend(Workload(phase="serve", model=model, users=users, owned=[f"{count}x {card}"], server_gpus=8))
    mine = next(o for o in rec.owned_options if o.gpu == card)
    assert mine.serves is not False and mine.tp == 8 and mine.pp == count // 8 and mine.replicas == 1
    assert mine.headroom_fraction >= 0.10  # the roomier KV cache format when the first one leaves too little


def test_consumer_servers_still_serve_in_small_copies_when_those_hold_the_model():
    best = recommend(Workload(phase="serve", model="qwen2.5-72b", users=60, owned=["24x rtx-3090"], server_gpus=8)).best
    assert best is not None and best.owned and best.tp is not None and best.tp <= PCIE_MAX_TP and best.pp == 1


def test_three_8_card_4090_servers_serve_glm_46_as_one_copy():
    reply, = run_conversation(["三台8卡4090 glm-4.6 一百人"])
    assert reply.content.startswith("## 使用你自己的 3 台服务器 × 每台 8 张 NVIDIA GeForce RTX 4090"), reply.content[:200]
    assert "TP 8 × PP 3" in reply.content.splitlines()[0]
