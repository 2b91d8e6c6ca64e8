"""'Would two Atlas 800I A2 be enough for DeepSeek-V3?', '两台 Atlas 800I A2 部署 DeepSeek-V3，够吗': when the plan is the
servers asked about and its one copy spans them (pipeline stages), the first line's yes or no counts the people at
once in that same layout (tools.capacity with the plan's layout). It once said 'no, not even one person' above a
plan on those very cards that fits."""

from __future__ import annotations

import itertools

import pytest

from tests.conversation import payload, run_conversation

ASKS = {
    "en": ["would two Atlas 800I A2 servers be enough for {model}?", "are 2 atlas 800i a2 enough for {model}",
           "can {model} run on two Atlas 800I A2?"],
    "zh": ["两台 Atlas 800I A2 部署 {model}，够吗", "2台Atlas 800I A2能跑{model}吗", "{model}用两台Atlas 800I A2够不够"],
}
MODELS = ["DeepSeek-V3", "deepseek r1"]


@pytest.mark.parametrize(("lang", "ask", "model"), [
    (lang, ask, model) for lang, asks in ASKS.items() for ask, model in itertools.product(asks, MODELS)])
def test_two_servers_asked_about_get_the_yes_their_plan_shows(lang, ask, model):
    reply = run_conversation([ask.format(model=model)])[-1]
    data = payload(reply)
    best = data["results"]["recommend"]["options"][0]
    assert (best["gpu"], best["gpus"], best["pp"]) == ("ascend-910b", 16, 2)
    assert best["serves"] is True
    pinned = data["pinned"]
    assert (pinned["gpus"], pinned["fits"]) == (16, True)
    assert pinned["users_held"] >= 30
    assert reply.content.startswith("**Yes**" if lang == "en" else "**能**"), reply.content[:200]
