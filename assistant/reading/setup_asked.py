"""A counted setup of servers asked whether it is enough ('2台8卡A100跑qwen3 235b够不够', 'A800八卡机能跑deepseek v3吗',
'will 2 servers of 8x A100 cope with qwen3 235b?'): the speaker has it or means to use it, so it is sized whole, as
theirs, and answered yes or no, never shrunk to a smaller part that is then priced as a rental."""

from __future__ import annotations

from gpu_advisor.assistant.reading.message import Message
from gpu_advisor.assistant.reading.text import word_pattern


def counted_setup_asked(m: Message, s: int) -> bool:
    """Whether the card named at s is counted in servers ('2台8卡', 'an 8-way node') in a message naming the model,
    with no other card beside it, and the message asks whether it is enough."""
    return bool(s in m.per_server and m.names and len({g for _s, _e, g, _n in m.gpus}) == 1
                and word_pattern("setup_enough_asked").search(m.masked))
