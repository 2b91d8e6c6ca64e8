"""A follow-up that keeps fewer of the user's own servers or cards ('what if we only get one of the servers', '只能用其中一台呢',
'half of them', '一半的卡') re-sizes the plan on that many of their cards. Review CA #4: 'what if we only get one of the
servers' after a plan on two 8 × A100 servers got "Sorry, I didn't understand that" while 'one server' worked.
Generated: number words and digits, servers and cards, shares, both languages, several cues."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import payload, run_states

CUES_EN = ["what if we {v}", "and if we {v}?", "suppose we {v}", "ok but what if we {v} instead"]
ONE_SERVER_EN = ["only get one of the servers", "can only use one of the two boxes", "only have one server",
                 "only get 1 of the nodes", "only had one of our machines", "can just use one of the servers"]
ONE_SERVER_ZH = ["只能用其中一台呢", "如果只给我们一台服务器呢", "要是只能用其中一台机器呢", "如果只有一个节点呢", "只给我们一台呢",
                 "要是只能用1台服务器呢"]
EIGHT_CARDS_EN = ["can only use 8 of the gpus", "only get eight of the cards", "only have 8 gpus", "can only use eight gpus"]
EIGHT_CARDS_ZH = ["如果只能用8张卡呢", "要是只给我们八张呢", "只能用其中八张呢", "如果只给我们8张卡呢"]
HALF_EN = ["half of them", "what if we only get half of them?", "half the gpus", "only half of our gpus",
           "what if only half the cards are free", "and if we only get 50% of the gpus"]
HALF_ZH = ["一半的卡", "卡只能用一半", "只给我们一半呢", "如果只能用一半的卡呢", "要是只有一半的显卡呢"]
HALF_SERVERS = ["only half of our servers", "what if we get only 50% of the nodes", "如果只能用一半的机器", "只能用一半节点呢"]


@pytest.mark.parametrize("text", [c.format(v=v) for c, v in itertools.product(CUES_EN, ONE_SERVER_EN)] + ONE_SERVER_ZH)
def test_one_of_the_servers_read(text: str) -> None:
    assert understand(text).ask.get("fewer") == {"servers": 1}, text


@pytest.mark.parametrize("text", [c.format(v=v) for c, v in itertools.product(CUES_EN, EIGHT_CARDS_EN)] + EIGHT_CARDS_ZH)
def test_fewer_cards_read(text: str) -> None:
    assert understand(text).ask.get("fewer") == {"gpus": 8}, text


@pytest.mark.parametrize("text", HALF_EN + HALF_ZH)
def test_half_of_them_read_as_cards_not_utilisation(text: str) -> None:
    u = understand(text)
    assert u.ask.get("fewer") == {"share": 0.5}, (text, u.ask)
    assert "utilisation" not in u.updates, u.updates  # 'half of them' was 50% utilisation


@pytest.mark.parametrize("text", HALF_SERVERS)
def test_half_of_the_servers_read(text: str) -> None:
    assert understand(text).ask.get("fewer") == {"share": 0.5, "servers": True}, text


@pytest.mark.parametrize("text", ["about half of them at once", "一半的人同时在线", "we run at 50% utilisation",
                                  "we have two servers", "one of the users asked about it", "用我们的4张卡"])
def test_no_fewer_where_none_is_said(text: str) -> None:
    assert "fewer" not in understand(text).ask, text


CA4 = {"en": "we have two servers w/ eight a100 80gb each. need a full finetune of qwen3 32b on about two billion tokens, "
             "seq len 8k, deadline 10 days. is our hw enough or should we rent h100s",
       "zh": "我们有两台服务器，每台8张A100 80G，要对qwen3 32b做全参微调，大概20亿token，序列长度8k，10天内要完成，"
             "我们的硬件够吗还是要租h100"}
FOLLOW = {"en": ["what if we only get one of the servers", "what if we can only use one of the two boxes", "half of them",
                 "what if we can only use 8 of the gpus"],
          "zh": ["只能用其中一台呢", "如果只给我们一台服务器呢", "一半的卡", "要是只给我们八张呢"]}


@pytest.mark.parametrize(("lang", "follow"), [(lang, f) for lang in FOLLOW for f in FOLLOW[lang]])
def test_ca4_plan_resized_on_eight_of_their_sixteen(lang: str, follow: str) -> None:
    first, second = run_states([CA4[lang], follow])
    assert first["profile"]["owned"] == ["16x a100-80gb-sxm"]
    assert second["profile"]["owned"] == ["8x a100-80gb-sxm"], second["profile"]["owned"]
    reply = second["messages"][-1]
    best = payload(reply)["results"]["recommend"]["best"]
    assert (best["gpu"], best["gpus"], best["owned"]) == ("a100-80gb-sxm", 8, True)
    assert 1.8 * first["results"]["recommend"]["best"]["training_hours"] < best["training_hours"] < 240  # ~2x, in 10 days
    head = "**Against the plan before**" if lang == "en" else "**与之前的方案相比**"
    assert head in str(reply.content), str(reply.content)[:400]


SERVE = {"en": "we have 4 a800 80gb in the lab, serve qwen2.5-32b to 20 people at once",
         "zh": "组里有4张A800 80G，给20个人同时用 Qwen2.5-32B"}


@pytest.mark.parametrize(("lang", "follow"), [("en", "what if we only get half of them"), ("en", "only 2 of the cards then?"),
                                              ("zh", "只能用一半的卡呢"), ("zh", "如果只给我们两张呢")])
def test_serving_plan_on_half_of_their_cards(lang: str, follow: str) -> None:
    _first, second = run_states([SERVE[lang], follow])
    assert second["profile"]["owned"] == ["2x a800-80gb-sxm"]
    assert second["profile"].get("utilisation") != 0.5
    assert payload(second["messages"][-1])["results"]["recommend"]["best"]["gpus"] == 2
