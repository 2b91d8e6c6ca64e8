"""Headcounts named by job and teams (review BR E8, E9): '30 people on our team' is the people who use it (a share
at once, said as an assumption), not 30 at once; '3 ml engineers and 2 researchers' is the team that builds it, not
2 users, and a later '~50 internal users' is then the only count."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states

TEAM_FRAMES = ["serve deepseek-r1-distill-llama-70b to {n} people on our team", "{n} people on my team will use qwen2.5 14b",
               "qwen2.5 14b for the {n} users in our group", "H200 or two H100s for serving qwen2.5 32b to like {n} people on our team?",
               "serve llama 3.1 8b for {n} colleagues on the team"]


@pytest.mark.parametrize(("text", "n"), [(t.format(n=s), v) for t, (v, s) in itertools.product(
    TEAM_FRAMES, [(30, "30"), (12, "12"), (50, "fifty"), (8, "8")])])
def test_people_on_a_team_are_a_population(text, n):
    got = understand(text).updates
    assert got.get("population") == n, (text, got)
    assert "users" not in got, (text, got)


BUILDERS_EN = ["{a} ml engineers and {b} researchers", "{a} engineers, {b} data scientists", "our team: {a} devs, {b} researchers",
               "startup here, {a} ml engineers and {b} researchers", "we're {a} software engineers plus {b} researchers"]
BUILDERS_ZH = ["团队有{a}个算法工程师和{b}个研究员", "我们{a}个工程师、{b}个研究员", "{a}个开发和{b}个研究员"]


@pytest.mark.parametrize("tail", ["", ", budget about forty thousand dollars. we finetune and serve 7-13b models. buy or rent?"])
@pytest.mark.parametrize(("a", "b"), [(3, 2), (5, 4), (2, 1)])
@pytest.mark.parametrize("frame", BUILDERS_EN + BUILDERS_ZH)
def test_the_team_that_builds_it_is_no_users(frame, a, b, tail):
    text = frame.format(a=a, b=b) + ("" if frame in BUILDERS_ZH else tail)
    got = understand(text).updates
    assert not {"users", "population"} & set(got), (text, got)


@pytest.mark.parametrize(("text", "slot", "n"), [
    ("coding assistant for 200 engineers", "population", 200), ("serve qwen2.5 14b for 40 engineers", "population", 40),
    ("we have 2 ml engineers and want to serve llama 3.1 8b to 40 users", "users", 40),
    ("我们有3个算法工程师，想给全公司300人部署qwen2.5 14b", "population", 300),
    ("want to run llama 3.3 70b for our team of 5 devs", "users", 5), ("给200个工程师部署一个代码助手，qwen2.5 coder 32b", "population", 200)])
def test_engineers_served_are_users(text, slot, n):
    assert understand(text).updates.get(slot) == n, text


def test_the_team_then_internal_users():
    states = run_states(["startup here, 3 ml engineers and 2 researchers, budget about forty thousand dollars. we finetune "
                         "and serve 7-13b models. buy or rent?",
                         "mostly lora finetunes of llama 3.1 8b, few runs a week, and serving to ~50 internal users"])
    assert states[0]["profile"].get("users") is None
    last = states[-1]["profile"]
    assert last["population"] == 50 and last.get("users") in (None, 10)
    assert "2 users" not in states[-1]["messages"][-1].content


def test_a_team_is_sized_at_a_share_at_once():
    state = run_states(["H200 or two H100s for serving deepseek-r1-distill-llama-70b to like 30 people on our team?"])[-1]
    reply = state["messages"][-1].content
    assert state["profile"]["population"] == 30 and state["profile"].get("users") == 7  # tools.traffic: 7 of 30 at once
    assert "30 users × " not in reply and "sized as all at once" not in reply
