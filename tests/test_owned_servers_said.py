"""Servers said with the cards in each are N x M owned cards in N servers, in every way it is said (review CI #8, #9):
'公司前年买了两台H20（8卡96G那种）' is 16 H20 (was read as 2), '我们有4台升腾Atlas 800T A2（每台8张910B 64G）' is 32 x 910B
(was '8 x 910B, 8 x 910B', then 8 checked), '两套8卡H20', '两个8卡H20节点', 'we own 3 servers (8x H20 96GB each)', 'we
bought two 8x 910B 64GB nodes', '4 Huawei Atlas 800T A2 (8x 910B each)'. Generated in both languages: the count of
servers, the cards in each before or after the card, in brackets or not, with the memory; and the plan uses them all."""

from __future__ import annotations

import itertools
import re

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.reading.message import prepare
from tests.conversation import payload, run_states

CARDS = {"H20": ("h20", "96G"), "910B": ("ascend-910b", "64G"), "昇腾910B": ("ascend-910b", "64G"),
         "A800": ("a800-80gb-sxm", "80G"), "H100": ("h100-sxm", "80G")}
ZH_COUNTS = {"两": 2, "三": 3, "4": 4}
ZH_FORMS = [
    "公司前年买了{n}{unit}{card}（{per}卡{mem}那种），想跑qwen3-235b-a22b",
    "我们有{n}{unit}{card}（每台{per}张{mem}），想跑qwen3-235b-a22b",
    "我们有{n}{unit}{card}（{per}x {mem}），想跑qwen3-235b-a22b",
    "我们有{n}{unit}{card}服务器（{per}卡{mem}），想跑qwen3-235b-a22b",
    "我们有{n}{unit}{per}卡{card}，想跑qwen3-235b-a22b",
    "我们有{n}{unit}{per}卡的{card}，想跑qwen3-235b-a22b",
    "我们有{n}{unit}{card} {mem}，每台{per}卡，想跑qwen3-235b-a22b",
    "手上就{n}{unit}{card}的机器（每台{per}卡{mem}），想跑qwen3-235b-a22b",
    "想跑qwen3-235b-a22b，我们有{n}{unit}{card}（{per}卡）",
]
ZH_NODES = [
    "我们有{n}个{card}节点（每个节点{per}卡），想跑qwen3-235b-a22b",
    "我们有{n}个{per}卡{card}节点，想跑qwen3-235b-a22b",
    "我们有{n}个节点，每节点{per}张{card} {mem}，想跑qwen3-235b-a22b",
]
ZH = [(f.format(n=said, unit=unit, card=card, per=8, mem=mem), n, gid)
      for f, (said, n), unit, (card, (gid, mem)) in itertools.product(ZH_FORMS, ZH_COUNTS.items(), ["台", "套"], CARDS.items())]
ZH += [(f.format(n=said, card=card, per=8, mem=mem), n, gid)
       for f, (said, n), (card, (gid, mem)) in itertools.product(ZH_NODES, ZH_COUNTS.items(), CARDS.items())]

EN_CARDS = {"H20": ("h20", "96GB"), "910B": ("ascend-910b", "64GB"), "A800": ("a800-80gb-sxm", "80GB"),
            "H100": ("h100-sxm", "80GB")}
EN_FORMS = [
    "we have {n} {card} {m} (8x {mem}), want to serve qwen3-235b-a22b",
    "we have {n} {card} {m} (8 GPUs each), want to serve qwen3-235b-a22b",
    "we own {n} {m} (8x {card} {mem} each), want to serve qwen3-235b-a22b",
    "we bought {n} 8x {card} {mem} {m} last year, want to serve qwen3-235b-a22b",
    "we have {n} {m}, each with 8x {card} {mem}, want to serve qwen3-235b-a22b",
    "we have {n} 8-GPU {card} {m}, want to serve qwen3-235b-a22b",
]
EN = [(f.format(n=said, m=m, card=card, mem=mem), n, gid)
      for f, (said, n), m, (card, (gid, mem)) in itertools.product(
          EN_FORMS, {"two": 2, "3": 3, "4": 4}.items(), ["nodes", "servers", "boxes"], EN_CARDS.items())]


@pytest.mark.parametrize(("text", "servers", "gpu"), ZH + EN)
def test_servers_said_with_their_cards_are_all_the_cards_owned(text: str, servers: int, gpu: str) -> None:
    u = understand(text)
    assert u.updates.get("owned") == [f"{servers * 8}x {gpu}"], text
    assert u.updates.get("server_gpus") == 8, text


ATLAS_TAILS = ["（每台8张910B 64G）", "（每台8卡910B）", "（8张910B 64G）", "（8卡 64G）", "（8卡910B）", "，每台8张910B", ""]
ATLAS_ZH = [(f"{lead}{said}台{brand}{model}{tail}，想用MindSpeed-RL做GRPO，模型qwen2.5-32b全参", n)
            for lead, (said, n), brand, model, tail in itertools.product(
                ["我们有", "实验室有"], {"4": 4, "两": 2, "三": 3}.items(), ["", "昇腾", "升腾", "华为"],
                ["Atlas 800T A2", "Atlas 800I A2"], ATLAS_TAILS)]
ATLAS_EN = [(f"we have {said} {brand}{model}{tail}, want to run GRPO on qwen2.5-32b full param", n)
            for (said, n), brand, model, tail in itertools.product(
                {"4": 4, "two": 2}.items(), ["", "Huawei ", "Ascend "], ["Atlas 800T A2", "Atlas 800I A2"],
                [" (8x 910B 64GB each)", " (8 910B each)", " servers, each with 8x 910B", " with 8 910B NPUs each", ""])]


@pytest.mark.parametrize(("text", "servers"), ATLAS_ZH + ATLAS_EN)
def test_a_server_model_with_its_cards_said_again_is_counted_once(text: str, servers: int) -> None:
    u = understand(text)
    assert u.updates.get("owned") == [f"{servers * 8}x ascend-910b"], text
    assert u.updates.get("server_gpus") == 8, text


@pytest.mark.parametrize(("text", "servers"), [(f"we have {n} {model}{tail}, serve llama 3.1 405b", k)
                                               for (n, k), model, tail in itertools.product(
                                                   {"4": 4, "two": 2}.items(), ["DGX H100", "NVIDIA DGX H100", "HGX H100"],
                                                   [" (8x H100 80GB each)", " servers (8x H100 each)", " boxes", ""])])
def test_an_nvidia_server_model_with_its_cards_said_again_is_counted_once(text: str, servers: int) -> None:
    u = understand(text)
    assert u.updates.get("owned") == [f"{servers * 8}x h100-sxm"], text


def test_the_restated_cards_are_one_span_with_the_memory_said_the_second_time() -> None:
    m = prepare("我们有4台Atlas 800T A2（每台8张910B 64G）", None)
    assert [(g, n) for _s, _e, g, n in m.gpus] == [("ascend-910b", 32)]
    assert list(m.per_server.values()) == [8]
    # the memory the second card says is kept: two DGX A100 of the 40 GB card are 16 of that card
    m = prepare("we have two DGX A100 (8x A100 40GB each)", None)
    assert [(g, n) for _s, _e, g, n in m.gpus] == [("a100-40gb-sxm", 16)]


@pytest.mark.parametrize("text", [
    "we have 2 H100 servers and 8 A100",  # two kinds of cards: both kept
    "我们有两台H100服务器，另外还有8张A100",
])
def test_other_cards_after_servers_are_not_merged_into_them(text: str) -> None:
    gpus = [g for _s, _e, g, _n in prepare(text, None).gpus]
    assert gpus == ["h100-sxm", "a100-80gb-sxm"]


@pytest.mark.parametrize("text", ["我们有三个4090，想跑qwen2.5 14b", "两套方案都试过，我们有两张4090"])
def test_counts_of_other_things_are_no_servers(text: str) -> None:
    u = understand(text)
    assert "server_gpus" not in u.updates
    assert u.updates.get("owned") in (["3x rtx-4090"], ["2x rtx-4090"])


# --- the plan uses them all --------------------------------------------------------------------------------

CI9 = {"zh": "公司前年买了{n}H20（8卡96G那种），想跑qwen3-235b-a22b，输入平均8k输出1k左右，要撑住每秒三个请求，TTFT p95 三秒以内，够不够",
       "en": "we bought {n} H20 servers (8x 96GB each) two years ago, want to serve qwen3-235b-a22b, 8k in and 1k out, "
             "3 requests a second, TTFT p95 under 3 s. is that enough"}


@pytest.mark.parametrize(("lang", "n"), [("zh", "两台"), ("zh", "两套"), ("en", "two")])
def test_two_h20_servers_are_planned_as_sixteen_owned_cards_in_two_servers(lang: str, n: str) -> None:
    state = run_states([CI9[lang].format(n=n)])[-1]
    assert state["profile"]["owned"] == ["16x h20"] and state["profile"]["server_gpus"] == 8
    decision = payload(state["messages"][-1])["decision"]
    assert decision["owned"] and decision["gpu"] == "h20" and decision["gpus"] == 16
    assert decision["layout"]["servers"] == 2 and decision["layout"]["server_gpus"] == 8
    text = state["messages"][-1].content
    assert "16 × NVIDIA H20 96GB" in text and not re.search(r"(?<!\d)2 × NVIDIA H20", text)


CI8 = {"zh": "我们有4台{brand}Atlas 800T A2（每台8张910B 64G），想用MindSpeed-RL做GRPO，模型qwen2.5-32b全参，每个prompt采样8条，"
             "最长生成一万六千token，奖励用规则打分不用rm，一个step 256个prompt，卡够不够 一个step大概多久",
       "en": "we have 4 {brand}Atlas 800T A2 (8x 910B 64GB each), GRPO with MindSpeed-RL on qwen2.5-32b full param, 8 samples "
             "per prompt, completions up to 16k tokens, rule-based reward, 256 prompts per step. enough? how long per step"}


@pytest.mark.parametrize(("lang", "brand"), [("zh", "升腾"), ("zh", ""), ("en", "Huawei "), ("en", "")])
def test_four_atlas_servers_are_thirty_two_owned_910b_for_the_rl_run(lang: str, brand: str) -> None:
    state = run_states([CI8[lang].format(brand=brand)])[-1]
    profile = state["profile"]
    assert profile["owned"] == ["32x ascend-910b"] and profile["server_gpus"] == 8
    assert profile["rl_prompts_per_step"] == 256 and profile["rl_prompts"] != 256  # the step, not the data
    assert "rl_prompts" in state["defaulted"]  # the data size is an assumption said as one
    decision = payload(state["messages"][-1])["decision"]
    assert decision["owned"] and decision["gpu"] == "ascend-910b" and decision["gpus"] == 32
    text = state["messages"][-1].content
    assert not re.search(r"(?<!\d)8 × Huawei Ascend 910B", text)  # never one server's cards, never twice
    assert text.count("32 × Huawei Ascend 910B 64GB") >= 2


@pytest.mark.parametrize(("text", "per"), [("we have two 910B servers (8x 64GB each)", 8), ("we have two H20 nodes (8x each)", 8),
                                           ("we have 3 A800 boxes (4x 80GB each)", 4), ("we have two H100 servers, 4x each", 4)])
def test_the_cards_in_each_said_after_the_servers_are_read_not_assumed(text: str, per: int) -> None:
    m = prepare(text, None)
    assert list(m.per_server.values()) == [per] and m.gpus[0][3] == per * (3 if "3 " in text else 2)
    assert not [n for n in m.notes if n[0] in ("note.servers_full", "note.servers_boards")]  # 'not how many in each'


def test_a_memory_said_with_the_cards_in_each_is_that_card() -> None:
    m = prepare("we have two H20 servers (8x 141GB each)", None)
    (_s, _e, gpu, count), = m.gpus
    assert count == 16 and "memory=141GB" in gpu and "NVIDIA H20" in gpu
