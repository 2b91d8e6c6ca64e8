"""Cards the user owns, in every way it is said (session 13, h-own2): 'the 8x A100 node we own', '课题组就两张A6000',
'只能用我们自己机房的8张4090', '4 台服务器，每台 8 张昇腾 910B'. Owned cards are read as owned (count and card), never
as the only cards to rent."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand

_EN_OWNED = [
    ("full finetune of llama 3.1 8b on 1B tokens on the 8x A100 80GB node {verb}", 8, "a100-80gb-sxm"),
    ("on the 8x A100 80GB node {verb}, qlora llama 3.1 70b, 200M tokens. how long?", 8, "a100-80gb-sxm"),
    ("qlora llama 3.1 70b on the 4x H100 box {verb}, how long?", 4, "h100-sxm"),
    ("serve qwen2.5 14b on the 2x L40S server {verb}", 2, "l40s"),
    ("llama 70b qlora, 200M tokens, on the two A6000 workstation {verb}", 2, "rtx-a6000"),
]
_EN_VERBS = ["we own", "we have", "that we own", "which we already have", "i have"]


@pytest.mark.parametrize("verb", _EN_VERBS)
@pytest.mark.parametrize(("text", "count", "card"), _EN_OWNED)
def test_a_machine_said_as_ours_after_its_cards_is_owned(text: str, count: int, card: str, verb: str) -> None:
    u = understand(text.format(verb=verb))
    assert u.updates.get("owned") == [f"{count}x {card}"]
    assert not u.updates.get("only")


_ZH_OWNED = [
    ("{who}就两张A6000（48g），想用qlora微调llama3.1 70b，中文数据3万条，能跑吗？", 2, "rtx-a6000"),
    ("想用qlora微调llama3.1 70b，{who}就两张A6000，大概要多久", 2, "rtx-a6000"),
    ("{who}只有4张A100，想全参微调qwen2.5 7b", 4, "a100-80gb-sxm"),
    ("{who}就有8张4090，跑qwen2.5 14b批处理要多久", 8, "rtx-4090"),
]
_ZH_WHO = ["课题组", "实验室", "我们", "我们课题组", "团队"]


@pytest.mark.parametrize("who", _ZH_WHO)
@pytest.mark.parametrize(("text", "count", "card"), _ZH_OWNED)
def test_the_cards_a_group_just_has_are_owned(text: str, count: int, card: str, who: str) -> None:
    u = understand(text.format(who=who))
    assert u.updates.get("owned") == [f"{count}x {card}"]
    assert not u.updates.get("only")


_ZH_OWN = [
    "批处理任务：200万篇新闻做摘要，模型qwen2.5 14b，输入平均1200 token，输出150，只能用{whose}8张4090，大概要跑多久？",
    "只能用{whose}8张4090跑qwen2.5 14b，200万篇新闻摘要要多久",
    "qwen2.5 14b 批处理，用{whose}8张4090，要跑多久",
]
_ZH_WHOSE = ["我们自己机房的", "我们自己的", "自己的", "我们实验室的", "我们机房的", "自己实验室的"]


@pytest.mark.parametrize("whose", _ZH_WHOSE)
@pytest.mark.parametrize("text", _ZH_OWN)
def test_cards_said_as_our_own_are_owned(text: str, whose: str) -> None:
    u = understand(text.format(whose=whose))
    assert u.updates.get("owned") == ["8x rtx-4090"]
    assert not u.updates.get("only")


@pytest.mark.parametrize("text", [
    "我们只有预算买两张H100，微调qwen 32b",
    "需要几张4090才能跑qwen2.5 14b",
    "what if we rent an 8x h100 node, how long for llama 70b qlora",
])
def test_cards_to_get_are_not_owned(text: str) -> None:
    assert not understand(text).updates.get("owned")


_SERVERS = [
    "{who}有 4 台服务器，每台 8 张{card}，想全参微调 Qwen2.5-32B，数据 10 亿 token，卡够不够？",
    "{who}有4台服务器，每台8张{card}，想全参微调 Qwen2.5-32B",
    "想全参微调 Qwen2.5-32B，{who}有4台机器，每台 8 张{card}",
    "{who}的服务器每台8卡{card}，共4台，想全参微调 Qwen2.5-32B",
]
_ZH_CARDS = [("昇腾 910B", "ascend-910b"), ("A100", "a100-80gb-sxm"), ("4090", "rtx-4090")]


@pytest.mark.parametrize("who", ["我们课题组", "实验室", "我们"])
@pytest.mark.parametrize(("said", "card"), _ZH_CARDS)
@pytest.mark.parametrize("text", _SERVERS)
def test_servers_of_so_many_cards_each_are_all_owned_zh(text: str, said: str, card: str, who: str) -> None:
    u = understand(text.format(who=who, card=said))
    assert u.updates.get("owned") == [f"32x {card}"]
    assert u.updates.get("server_gpus") == 8


@pytest.mark.parametrize("text", [
    "we have 4 servers with 8 {card} each, full finetune qwen2.5 32b on 1B tokens, how long?",
    "we have 4 servers, 8 {card} each. full finetune qwen2.5 32b",
    "full finetune qwen2.5 32b on our 4 servers with 8 {card} each",
    "we have 8 {card} in each of 4 servers, full finetune qwen2.5 32b",
    "we have 8 {card} per node, 4 nodes. full finetune qwen2.5 32b",
])
@pytest.mark.parametrize(("said", "card"), [("A100", "a100-80gb-sxm"), ("H100", "h100-sxm")])
def test_servers_of_so_many_cards_each_are_all_owned_en(text: str, said: str, card: str) -> None:
    u = understand(text.format(card=said))
    assert u.updates.get("owned") == [f"32x {card}"]
    assert u.updates.get("server_gpus") == 8
