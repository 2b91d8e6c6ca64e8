"""tests.conversation.answer_to goes on one thread, a 'not sure' at a time: the same replies as a fresh
conversation replaying every turn so far, in both languages."""

from __future__ import annotations

import pytest

from tests.conversation import answer_to, dump, payload, run_conversation


@pytest.mark.parametrize(("message", "unsure"), [
    ("serve qwen2.5 7b to my team", "not sure"),
    ("fine-tune llama 3.1 8b", "not sure"),
    ("给团队部署qwen2.5 7b", "不确定"),
])
def test_answer_to_is_the_replayed_conversation(message, unsure):
    got = answer_to(message)
    turns = [message]
    replies = run_conversation(turns)
    while payload(replies[-1]).get("kind") == "question" and len(turns) <= 4:
        turns.append(unsure)
        replies = run_conversation(turns)
    assert len(turns) >= 2  # the message left a question open: the helper answered it
    assert dump([got]) == dump([replies[-1]])
