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
# R1 is a reasoning model, sized at 32,768 tokens of context (h-fixa), four times V3's 8,192: its latent KV cache held
# on every GPU of a TP 8 stage seats fewer people on the Atlas pair, and on the H100 pair it takes data-parallel attention
CONTEXT = {"DeepSeek-V3": 8192, "deepseek r1": 32768}
HELD_ON_ATLAS = {"DeepSeek-V3": 30, "deepseek r1": 15}


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
    assert pinned["users_held"] >= HELD_ON_ATLAS[model]
    assert f"--max-model-len {CONTEXT[model]}" in reply.content
    assert reply.content.startswith("**Yes**" if lang == "en" else "**能**"), reply.content[:200]


H100_ASKS = {
    "en": ["would two 8x H100 servers be enough for {model} for 30 users?", "are 2 servers of 8 h100 enough to serve "
           "{model} to 30 people", "can two 8xH100 nodes serve {model} for 30 concurrent users?"],
    "zh": ["两台8卡H100服务器跑{model}给30人用够吗", "2台8卡h100服务器跑{model}给30个人同时用，够不够"],
}


@pytest.mark.parametrize(("lang", "ask", "model"), [
    (lang, ask, model) for lang, asks in H100_ASKS.items() for ask, model in itertools.product(asks, MODELS)])
def test_two_servers_asked_about_stay_in_eight_bit_on_those_servers(lang, ask, model):
    """The servers named are the plan (8-bit over both, one copy spanning them), not 4-bit on one of them:
    the cheaper one-server 4-bit lever is for plans the user did not name."""
    reply = run_conversation([ask.format(model=model)])[-1]
    data = payload(reply)
    rec = data["results"]["recommend"]
    best = rec["options"][0]
    assert (best["gpu"], best["gpus"], best["servers"], best["precision"]) == ("h100-sxm", 16, 2, "fp8")
    # V3 at 8,192 tokens: pipeline stages between the servers; R1 at 32,768 (h-fixa): each GPU keeps only its own
    # users' latent KV cache (data-parallel attention over all 16, experts spread), as DeepSeek deploys it
    layout = (8, 2, 0) if CONTEXT[model] == 8192 else (16, 1, 16)
    assert (best["tp"], best["pp"], best["dp_attention"]) == layout
    assert f"--max-model-len {CONTEXT[model]}" in reply.content
    assert rec.get("relaxed") is None
    assert (data["pinned"]["gpus"], data["pinned"]["fits"]) == (16, True) and data["pinned"]["users_held"] >= 30
    assert reply.content.startswith("**Yes**" if lang == "en" else "**能**"), reply.content[:200]


WHOLE = {"en": ["what about 4 h100 for llama 3.1 70b, 20 users", "would 4 h100s be enough for llama 3.1 70b for 20 users"],
         "zh": ["4张H100跑llama 3.1 70b给20个人用够吗", "llama 3.1 70b给20个人用，4张h100够不够"]}


@pytest.mark.parametrize(("lang", "ask"), [(lang, ask) for lang, asks in WHOLE.items() for ask in asks])
def test_a_count_asked_about_before_any_plan_is_sized_and_a_whole_server_is_said_as_such(lang, ask):
    """'What about 4 H100 for Llama 3.1 70B?' as a first message sizes 4 H100 (it was dropped for 2 A100); bought,
    the plan is the 8-card server the card is sold in, and the yes says that is why, not the load."""
    reply = run_conversation([ask])[-1]
    data = payload(reply)
    assert (data["pinned"]["gpu"], data["pinned"]["gpus"], data["pinned"]["fits"]) == ("h100-sxm", 4, True)
    assert data["pinned"]["users_held"] >= 20
    best = data["results"]["recommend"]["options"][0]
    assert best["gpu"] == "h100-sxm"
    if best["gpus"] == 8:
        assert ("servers of 8" in reply.content) if lang == "en" else ("每台 8 卡的整机" in reply.content)
