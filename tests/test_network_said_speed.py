"""A network speed said in Chinese is a speed, never money ('万兆网' is 10 Gb/s Ethernet, '千兆' 1 Gb/s), and the heading
of a plan over servers names the network the user said (review BT #13: '万兆' read as ¥10,000, a price of ¥625 a card
invented, and the heading said 'InfiniBand 或 RoCE')."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_conversation

SAID = [("实验室有两台8卡A800 80G 节点之间只有万兆网，能不能部署满血版deepseek r1 671b 给组里二十来个人用", 10.0),
        ("两台8卡A800 千兆网 qwen3-235b lora", 1.0), ("我们两台8卡h100之间是万兆以太网，跑deepseek v3给30人用", 10.0)]


@pytest.mark.parametrize(("text", "gbit"), SAID)
def test_the_speed_is_read_and_no_money(text: str, gbit: float) -> None:
    u = understand(text)
    assert u.updates.get("network_gbit") == gbit
    assert not u.updates.get("budget_usd") and not u.updates.get("budget_usd_per_month")


def test_the_heading_names_the_network_said() -> None:
    reply = run_conversation([SAID[0][0]])[-1].content
    heading = next(line for line in reply.splitlines() if line.startswith("## "))
    assert "10 Gb/s" in heading and "InfiniBand" not in heading
    assert "625" not in reply and "10,000" not in reply
