"""Several servers named with their cards read as servers x GPUs per server, in any spelling generated here:
'two 8xH100 nodes', '4 nodes of 8x A100', '2台8卡A800', '四台 Atlas 800I A2', '两台H800机器'."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand

EN_COUNTS = {"two": 2, "2": 2, "three": 3, "four": 4, "4": 4}
ZH_COUNTS = {"两": 2, "2": 2, "三": 3, "四": 4}
CARDS = {"H100": "h100-sxm", "A100": "a100-80gb-sxm", "H800": "h800-sxm", "A800": "a800-80gb-sxm"}
PER = {"8x": 8, "8×": 8, "4x": 4}
MACHINES = ["nodes", "servers", "machines", "boxes"]

EN = [(f"we have {c} {p}{card} {m}, serve llama 3.3 70b to 50 users", n, per, gid)
      for (c, n), (p, per), (card, gid), m in itertools.product(EN_COUNTS.items(), PER.items(), CARDS.items(), MACHINES)]
EN_OF = [(f"we have {c} {m} of {p} {card}", n, per, gid)
         for (c, n), (p, per), (card, gid), m in itertools.product(EN_COUNTS.items(), PER.items(), CARDS.items(), MACHINES)]
ZH = [(f"我们有{c}台{per}卡{card}，部署qwen2.5 72b给50个人用", n, per, gid)
      for (c, n), per, (card, gid) in itertools.product(ZH_COUNTS.items(), (4, 8), CARDS.items())]
ZH_MACHINES = [(f"我们有{c}台{card}{m}", n, 8, gid)
               for (c, n), (card, gid), m in itertools.product(ZH_COUNTS.items(), {"H100": "h100-sxm", "H800": "h800-sxm"}.items(),
                                                            ["机器", "服务器"])]
ATLAS = [(f"{lead}{c}{unit} Atlas 800I A2{tail}", n, 8, "ascend-910b")
         for lead, (c, n), unit, tail in itertools.product(["我们有", "we have "], {"四": 4, "2": 2, "two": 2}.items(),
                                                           ["台", " "], ["", " servers"])
         if not (unit == "台" and c == "two") and not (lead == "we have " and c == "四")]


@pytest.mark.parametrize(("text", "servers", "per", "gpu"), EN + EN_OF + ZH + ZH_MACHINES + ATLAS)
def test_servers_of_cards_are_owned_as_servers_times_cards(text: str, servers: int, per: int, gpu: str):
    u = understand(text)
    assert u.updates.get("owned") == [f"{servers * per}x {gpu}"], text
    assert u.updates.get("server_gpus") == per, text


@pytest.mark.parametrize("text", ["we have two 3090s", "we have 8 h100", "我们有两张4090", "we have 4x A100"])
def test_cards_without_machines_say_nothing_of_servers(text: str):
    assert "server_gpus" not in understand(text).updates


def test_a_named_setup_to_rent_keeps_its_servers():
    u = understand("rent two 8xH100 nodes to serve llama 3.1 405b")
    assert u.updates.get("only") == ["16x h100-sxm"] and u.updates.get("server_gpus") == 8


FAST = {"en": ["over infiniband", "with IB between them", "connected by 400G RoCE", "RDMA networking", "IB interconnect"],
        "zh": ["IB互联", "infiniband组网", "RoCE网络", "400G IB互联"]}
SLOW = {"en": ["just plain ethernet between them", "only 10g ethernet", "no infiniband"], "zh": ["万兆网络", "普通以太网", "没有IB"]}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_network_between_owned_servers_is_read_in_any_order(lang):
    sizing = {"en": ["we own four 8x A100 servers", "full fine-tune qwen2.5 32b on our four 8xA100 nodes"],
              "zh": ["我们实验室有4台8卡A100服务器", "在我们的4台8卡A100上全参微调qwen2.5-32b"]}[lang]
    join = ", " if lang == "en" else "，"
    for kind, forms in (("fast", FAST[lang]), ("slow", SLOW[lang])):
        for form, head in itertools.product(forms, sizing):
            for text in (f"{head}{join}{form}", f"{form}{join}{head}"):
                assert understand(text).updates.get("network") == kind, text


def test_training_on_owned_servers_uses_all_of_them_over_a_fast_network_said():
    from tests.conversation import payload, run_conversation

    text = "我们实验室有4台8卡A100 80G服务器，{net}全参微调Qwen2.5-32B，20亿token"
    fast = payload(run_conversation([text.format(net="IB互联，")])[-1])["decision"]
    plain = payload(run_conversation([text.format(net="")], thread="b")[-1])["decision"]
    assert (fast["gpus"], plain["gpus"]) == (32, 8)


@pytest.mark.parametrize(("text", "owned"), [("we have 2 H100 8-gpu boxes on prem", "16x h100-sxm"),
                                             ("we run 3 A100 8-card servers", "24x a100-80gb-sxm"),
                                             ("我们有两台昇腾910B的服务器，每台8卡", "16x ascend-910b"),
                                             ("家里有俩3090", "2x rtx-3090")])
def test_machines_sized_after_the_card_count_every_card(text, owned):
    assert understand(text).updates.get("owned") == [owned]
