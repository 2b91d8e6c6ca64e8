"""'We shut it down at night' (the phrase the answers suggest for a service billed around the clock) is a utilisation:
about 14 hours a day (58%); at night and at weekends, 14 hours on 5 days (42%). Session 20 review BM #19: 'Sorry, I
didn't understand that.'"""
from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states

VERBS = ["shut it down", "turn it off", "switch everything off", "power the gpus down", "scale it down"]
NIGHT = ["at night", "overnight", "at night time"[:8]]
PENDING = [None, "utilisation", "users"]


@pytest.mark.parametrize(("text", "pending"), [(f"{lead}we {v} {n}", p) for lead, v, n, p in itertools.product(
    ["", "ok ", "actually "], VERBS, NIGHT, PENDING)])
def test_off_at_night_is_about_14_hours_a_day(text, pending):
    assert understand(text, pending).updates.get("utilisation") == 0.58


@pytest.mark.parametrize("text", ["we shut it down at night and on weekends", "we turn it off at night and weekends",
                                  "晚上和周末关机", "晚上和周末都关掉"])
def test_off_at_night_and_at_weekends(text):
    assert understand(text, None).updates.get("utilisation") == 0.42


@pytest.mark.parametrize("text", ["晚上关机", "我们晚上会关掉", "晚上就停机"])
def test_off_at_night_zh(text):
    assert understand(text, None).updates.get("utilisation") == 0.58


@pytest.mark.parametrize("text", ["we run it on weekends", "the job runs overnight", "batch overnight, due by 9am"])
def test_running_at_night_or_weekends_is_not_off(text):
    assert understand(text, None).updates.get("utilisation") != 0.58


def test_the_suggested_phrase_reprices_the_month():
    first, second = run_states(["about two hundred people chatting at once at peak, gemma 3 27b, each needs at least "
                                "twenty tok/s, budget is ten grand a month. what do we rent", "we shut it down at night"])
    assert "we shut it down at night" in first["messages"][-1].content
    assert second["profile"]["utilisation"] == 0.58
    assert "at 58% use" in second["messages"][-1].content and "didn't understand" not in second["messages"][-1].content
