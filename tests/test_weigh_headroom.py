"""'Which model should I run on my machine?' picks one that leaves the memory a warning asks for before a larger one
that fills the card (review BW #10: Qwen3 14B at 11.2 of a 16 GB MacBook Air's 11.5 GB usable led, with the editor
and browser beside it)."""

from __future__ import annotations

import pytest

from gpu_advisor.tools.recommend import TIGHT_HEADROOM
from tests.conversation import payload, run_conversation

ASKS = ["我是学生 macbook air m3 16g的 想本地跑个模型帮我润色论文 英文的 推荐跑哪个 多大的合适",
        "student here, macbook air m3 16gb, which model should i run locally to polish my essays? what size fits?"]


@pytest.mark.parametrize("text", ASKS)
def test_the_pick_leaves_room_on_the_machine(text: str) -> None:
    reply = run_conversation([text])[-1]
    data = payload(reply)["results"]
    pick = data["pick"]
    row = next(r for r in data["weigh"] if (r["model"], r["precision"]) == (pick["model"], pick["precision"]))
    assert 1 - row["serve_per_gpu_bytes"] / row["capacity_bytes"] >= TIGHT_HEADROOM, row
    # a larger model that fits with too little room is listed, not picked
    assert any(r["ok"] and 1 - r["serve_per_gpu_bytes"] / r["capacity_bytes"] < TIGHT_HEADROOM for r in data["weigh"])
