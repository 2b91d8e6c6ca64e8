"""Cards said to sit in the speaker's own computer or server are theirs, whatever the machine is called and however the
sentence is ordered ('我游戏电脑上有一张 RX 7900 XTX', '我电脑里是一张4090', '想跑qwen3 32b，我的台式机插着两张3090'):
owned, never a restriction to cards to rent or buy (session 28's newcomer check: '按你的要求只考虑：1 × RX 7900 XTX')."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand

OWNERS = ["我", "我的", "自己的"]
HOMES = ["游戏电脑", "电脑", "台式机", "主机"]  # a personal computer: one person's
PLACES = ["上", "里", "里面", ""]
VERBS = ["有", "是", "插着", "装着", "装了", "装的是"]
CARDS = [("一张4090", "1x rtx-4090"), ("两张3090", "2x rtx-3090"), ("1张 RX 7900 XTX", "1x rx-7900-xtx"),
         ("2块4090", "2x rtx-4090")]
TASKS = ["，能跑 qwen2.5 14b 吗", "，想跑qwen3 32b"]


def _said(home_kinds: list[str]) -> list[tuple[str, str, str, str, str, str]]:
    rows = list(itertools.product(OWNERS, home_kinds, PLACES, VERBS, CARDS, TASKS))
    return [(o, h, p, v, c[0], c[1]) for i, (o, h, p, v, c, t) in enumerate(rows) if i % 5 == 0] + [
        (o, h, p, v, c[0] + t, c[1]) for i, (o, h, p, v, c, t) in enumerate(rows) if i % 7 == 3]


@pytest.mark.parametrize(("owner", "home", "place", "verb", "cards", "owned"), _said(HOMES))
def test_cards_in_my_computer_are_owned_and_personal(owner, home, place, verb, cards, owned) -> None:
    got = understand(f"{owner}{home}{place}{verb}{cards}").updates
    assert got.get("owned") == [owned] and not got.get("only"), got
    assert got.get("personal") is True


@pytest.mark.parametrize("task", ["想跑qwen3 32b，", "部署 llama 3.1 8b 给自己用，"])
@pytest.mark.parametrize(("cards", "owned"), CARDS)
def test_the_task_first_keeps_the_cards_owned(task: str, cards: str, owned: str) -> None:
    got = understand(f"{task}我的台式机插着{cards}").updates
    assert got.get("owned") == [owned], got


@pytest.mark.parametrize("text", ["我的电脑有多少显存才能跑qwen3 32b", "我的电脑是什么配置才能跑qwen3 32b",
                                  "我的电脑配几张卡合适"])
def test_a_question_about_the_machine_owns_nothing(text: str) -> None:
    assert not understand(text).updates.get("owned")
