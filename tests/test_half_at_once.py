"""A share said as 'half' ('一半人同时在用', '一半的员工同时在线', 'about half of them at once') is 50% of the people,
never a count of one (final review: '高峰期差不多一半人同时在用' after 200 staff was sized as 1 user)."""

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import payload, run_conversation

SAID = ["高峰期差不多一半人同时在用", "一半的员工同时在线", "about half of them at once",
        "at peak maybe half of our staff at the same time"]


@pytest.mark.parametrize("text", SAID)
def test_half_is_a_share(text):
    u = understand(text)
    assert u.online_share == 50.0 and u.updates.get("users") != 1, (text, u.updates)


@pytest.mark.parametrize(("first", "then"), [
    ("部署qwen2.5-32b给200个客服用，8k上下文", "高峰期差不多一半人同时在用"),
    ("serve qwen2.5 32b for 200 support agents, 8k context", "at peak about half of them at once"),
])
def test_half_of_a_staff_said_before_is_their_half(first, then):
    reply = run_conversation([first, then])[-1]
    profile = payload(reply)["profile"]
    # the share is of the staff said before (tools.traffic sizes those generating at once from the 100 online)
    assert profile["population"] == 200 and profile["users"] > 1
    assert "100" in str(reply.content)  # '200 人中约 100 人同时在线', said
