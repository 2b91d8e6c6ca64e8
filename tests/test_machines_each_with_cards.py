"""Machines counted, then the cards in each: '实验室两台机子 每台八张4090' is 16 cards, 8 in each server (review CJ #9
read 8). Every machine noun (机子, 机器, 台机器, 主机, 服务器, 节点; boxes, machines, rigs, nodes, servers, hosts), count,
card and way of saying 'each with N' generated here reads owned = servers x per and server_gpus = per."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states

ZH_COUNTS = {"两": 2, "2": 2, "三": 3}
EN_COUNTS = {"two": 2, "2": 2, "three": 3}
CARDS = {"4090": "rtx-4090", "A100": "a100-80gb-sxm", "H100": "h100-sxm", "L40S": "l40s"}
ZH_MACHINES = ["台机子", "台机器", "台主机", "台服务器", "个节点"]
ZH_EACH = ["每台八张{c}", "每台8卡{c}", "，每台8张{c}", "每台都是8张{c}", "每台装了8张{c}", "各8张{c}", "每台{c}八张"]
EN_MACHINES = ["boxes", "machines", "rigs", "nodes", "servers", "hosts"]
EN_EACH = ["{n} {m}, each with 8 {c}s", "{n} {m} each with eight {c}", "{n} {m} with 8x {c} each",
           "{n} {m}, 8 {c}s each", "{n} {m} with 8 {c} in each", "{n} {m} of 8x {c}"]

ZH = [(f"实验室{c}{m} {e.format(c=card)}，想lora微调qwen2.5-7b，数据八万条", n, gid)
      for (c, n), m, e, (card, gid) in itertools.product(ZH_COUNTS.items(), ZH_MACHINES, ZH_EACH, CARDS.items())]
EN = [(f"our lab has {e.format(n=c, m=m, c=card)}, we want to lora fine-tune qwen2.5-7b on 80k examples", n, gid)
      for (c, n), m, e, (card, gid) in itertools.product(EN_COUNTS.items(), EN_MACHINES, EN_EACH, CARDS.items())]


@pytest.mark.parametrize(("text", "servers", "gpu"), ZH + EN)
def test_machines_each_with_cards_count_every_card(text: str, servers: int, gpu: str):
    u = understand(text)
    assert u.updates.get("owned") == [f"{servers * 8}x {gpu}"], text
    assert u.updates.get("server_gpus") == 8, text


@pytest.mark.parametrize("text", ["实验室两台机子 每台八张4090", "实验室两台机子，每台8张4090"])
def test_machine_colloquial_noun_reads_as_machines(text: str):
    u = understand(text)
    assert u.updates.get("owned") == ["16x rtx-4090"], text
    assert u.updates.get("server_gpus") == 8


def test_two_labs_machines_review_cj9_plans_sixteen_owned_cards():
    states = run_states(["实验室两台机子 每台八张4090，想lora微调ernie-4.5-21b-a3b（总参210亿 激活30亿），数据八万条，"
                         "平均一千五百token，训三轮，显存够布够，要多久"])
    profile, reply = states[-1]["profile"], states[-1]["messages"][-1].content
    assert profile["owned"] == ["16x rtx-4090"]
    assert profile["server_gpus"] == 8
    assert "16 × NVIDIA GeForce RTX 4090 24GB" in reply
    assert "每台服务器 8 张卡" in reply


@pytest.mark.parametrize(("text", "owned", "per"), [
    ("我们有8张4090，每台机器都是插满的", ["8x rtx-4090"], None),  # no count of machines: the cards as said
    ("两台机器跑70B，用张量并行还是流水线并行？", None, None),  # machines with no cards named
    ("我们有两台服务器，每台有8张A100，还有一台4090的机器", ["16x a100-80gb-sxm", "1x rtx-4090"], 8),
])
def test_machines_and_cards_otherwise(text: str, owned: list[str] | None, per: int | None):
    u = understand(text)
    assert u.updates.get("owned") == owned, text
    assert u.updates.get("server_gpus") == per, text
