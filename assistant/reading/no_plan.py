"""A question asked with no job behind it ('just curious, not buying anything', 'HBM3和GDDR6X有啥区别，问问而已'):
the question is answered and nothing is asked back (intent no_sizing), and 'not buying anything' is no wish to
rent (the preference it would read as is dropped). The words: words/no_plan.yaml."""

from __future__ import annotations

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern


def read_no_plan(m: Message, u: Understanding) -> None:
    if not word_pattern("no_plan").search(m.text):
        return
    u.intents = u.intents | {"no_sizing"}
    u.updates.pop("preference", None)
