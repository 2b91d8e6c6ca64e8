"""A deadline said vaguely, then as a duration (review BU #4): 'end of next week (call it 6 days)' is 144 h, not the
168 h guessed for 'next week'; said in a later turn ('call it 6 days', '算6天吧') it replaces the earlier deadline.
Generated over both languages, the vague words, the restating words and the durations."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states

EN_VAGUE = ["has to be done by end of next week", "due end of next week", "needs to finish by next week",
            "deadline is end of next week"]
EN_RESTATE = ["(call it {n} days)", ", so roughly {n} days", ", let's say {n} days", "(about {n} days)", ", i.e. {n} days"]


@pytest.mark.parametrize(("vague", "restate", "n"), list(itertools.product(EN_VAGUE, EN_RESTATE, [4, 6])))
def test_en_duration_said_after_vague_deadline_counts(vague, restate, n) -> None:
    u = understand(f"batch job on qwen2.5-32b, {vague} {restate.format(n=n)}")
    assert u.updates.get("deadline_hours") == n * 24
    assert ("deadline.days_said", {"hours": f"{n * 24}"}) in u.notes


ZH_VAGUE = ["下周末之前要跑完", "下周之前要跑完", "下个星期前要搞定"]
ZH_RESTATE = ["，算{n}天吧", "（大概{n}天）", "，就算{n}天"]


@pytest.mark.parametrize(("vague", "restate", "n"), list(itertools.product(ZH_VAGUE, ZH_RESTATE, [4, 6])))
def test_zh_duration_said_after_vague_deadline_counts(vague, restate, n) -> None:
    u = understand(f"用qwen2.5-32b做批处理，{vague}{restate.format(n=n)}")
    assert u.updates.get("deadline_hours") == n * 24


@pytest.mark.parametrize(("text", "hours"), [
    ("call it 6 days", 144), ("make it 6 days", 144), ("actually 6 days", 144), ("6 days", 144),
    ("ok, call it 5 days then", 120), ("make it 100 hours", 100), ("算6天吧", 144), ("改成5天", 120), ("那就5天", 120),
    ("其实只有3天", 72), ("2 weeks", 336),
])
def test_bare_duration_is_the_deadline(text, hours) -> None:
    assert understand(text).updates.get("deadline_hours") == hours


@pytest.mark.parametrize(("text", "pending"), [
    ("6 hours", "utilisation"),  # hours at the how-busy question are no deadline
    ("6 months", None),  # a month alone is how long cards are rented
    ("6 days a week", None),
    ("40 hours per week", None),
])
def test_bare_durations_that_are_no_deadline(text, pending) -> None:
    assert "deadline_hours" not in understand(text, pending).updates


@pytest.mark.parametrize("turns", [
    ["batch job: 2.5 million chunks through qwen2.5-32b, 3k tokens in, 300 out, needs to be done by end of next week",
     "call it 6 days"],
    ["批处理：250万条文本用qwen2.5-32b，每条输入3000 token 输出300，下周末之前要跑完", "算6天吧"],
])
def test_later_duration_replaces_vague_deadline(turns) -> None:
    first, second = run_states(turns)
    assert first["profile"]["deadline_hours"] in (168, 228)
    assert second["profile"]["deadline_hours"] == 144
    assert "144" in second["messages"][-1].content
