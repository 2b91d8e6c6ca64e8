"""A laptop takes no second card (review CUA #1): when the model spills into system RAM on a laptop GPU, the smallest
change that runs it all on a card is one desktop card (in a desktop or an eGPU enclosure), never 'a second card like
yours beside it'; a desktop card at home still gets more cards like it."""

from __future__ import annotations

import pytest
from conversation import run_states

from gpu_advisor.knowledge import find_gpu

CASES = [
    ("en", "got a gaming laptop w/ rtx 4080 mobile (12gb vram) + 32gb ddr5. can i run gpt-oss-20b locally for coding help?"),
    ("en", "my laptop has a 4070 laptop gpu 8gb and 32gb ram, can i run gpt-oss-20b for coding?"),
    ("zh", "我的笔记本是 4070 laptop 8G 显卡，32G 内存，想本地跑 gpt-oss-20b 写代码"),
]


@pytest.mark.parametrize(("lang", "text"), CASES)
def test_a_laptop_is_offered_a_desktop_card_not_a_second_card(lang: str, text: str) -> None:
    reply = str(run_states([text])[0]["messages"][-1].content)
    line = next(x for x in reply.split("\n") if x.startswith(("**The smallest change", "**让它整个放进显卡")))
    assert ("a laptop takes no second card" if lang == "en" else "笔记本加不了第二张卡") in line, line
    assert "Laptop" not in line and ("like yours" not in line and "和你一样" not in line), line
    assert "1 × " in line


def test_a_desktop_card_at_home_still_gets_a_second_card() -> None:
    reply = str(run_states(["i have one rtx 3060 12gb and 64gb ram, can i run qwen2.5-32b at home for myself?"])[0]
                ["messages"][-1].content)
    lines = [x for x in reply.split("\n") if x.startswith("**The smallest change")]
    assert all("laptop" not in x for x in lines), lines


def test_the_laptop_cards_are_marked() -> None:
    assert find_gpu("rtx-4070-laptop").laptop and find_gpu("rtx-4080-laptop").laptop


@pytest.mark.parametrize(("speed", "said"), [("20+ tok/s", "meets your 20 tokens/s"), ("like 20 tokens/s", "meets your 20"),
                                             ("30+ tokens/s", "meets your 30 tokens/s")])
def test_the_speed_asked_is_said_met_or_missed(speed: str, said: str) -> None:
    text = f"got a gaming laptop w/ rtx 4080 mobile (12gb vram) + 32gb ddr5. can i run gpt-oss-20b locally? want {speed}"
    first = str(run_states([text])[0]["messages"][-1].content).split("\n")[0]
    assert said in first, first
