"""Follow-up turns read whole (reviews AK C8/C21, AL 10/18, AJ 17/18): two changes in one correction are both
applied, "any card is fine" drops a card restriction, a load that triples is re-sized, a card comparison asked on
the side keeps the plan, a hobbyist's RTX 4070 is known, and "now and later" gives two sizings."""

from __future__ import annotations

from typing import Any

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import find_gpu
from tests.conversation import run_states


def _profile(turns: list[str]) -> dict[str, Any]:
    return run_states(turns)[-1]["profile"]


# 1. Two slots changed in one correction ('哦不对，上下文是 8k 不是 32k，并发也改成 200'): both applied.

ZH_C8 = "帮我算算：部署 glm-4-9b，100个并发，上下文32k，用 H20"
EN_C8 = "size glm-4-9b for 100 users, 32k context, on H20"


@pytest.mark.parametrize("first, fix", [
    (ZH_C8, "哦不对，上下文是 8k 不是 32k，并发也改成 200"),
    (ZH_C8, "并发也改成200，上下文改成8k"),
    (ZH_C8, "不对，并发是200，上下文也改成 8k"),
    (ZH_C8, "上下文改为8k，用户数也改成200"),
    (ZH_C8, "上下文其实是8k，并发也要200"),
    (ZH_C8, "上下文换成8k，并发还要改成200"),
    (EN_C8, "context 8k not 32k, and make it 200 users"),
    (EN_C8, "make it 200 users, and context 8k not 32k"),
    (EN_C8, "actually 200 users, context also 8k"),
    (EN_C8, "oops, context is 8k, users also 200"),
])
def test_two_changes_in_one_correction_are_both_applied(first: str, fix: str) -> None:
    p = _profile([first, fix])
    assert (p["users"], p["context"], p["only"]) == (200, 8192, ["h20"])


@pytest.mark.parametrize("first, fix", [
    (ZH_C8, "精度改成int4，并发也改成200"),
    (ZH_C8, "并发也改为200，精度也用int4"),
    (EN_C8, "use int4 and also make it 200 users"),
    (EN_C8, "200 users too, and int4"),
])
def test_users_and_precision_changed_together(first: str, fix: str) -> None:
    p = _profile([first, fix])
    assert (p["users"], p["context"], p["precision"]) == (200, 32768, "int4")


# 2. 'any card is fine' / '卡不限' after a plan held to 4 × 4090: the restriction is dropped.

ZH_C21 = "用 vllm 部署 qwen3-30b-a3b，4张4090够不够，30人并发，上下文16k"
EN_C21 = "serve qwen3-30b-a3b with vllm on 4x 4090, 30 concurrent users, 16k context"


@pytest.mark.parametrize("first, fix", [
    (ZH_C21, "算了，换成 qwen3-235b-a22b 吧，卡不限，要最便宜的"),
    (ZH_C21, "换成 qwen3-235b-a22b，不限卡，最便宜的"),
    (ZH_C21, "改成qwen3-235b-a22b，显卡随便，挑最便宜的"),
    (ZH_C21, "模型换成 qwen3-235b-a22b，什么卡都行"),
    (ZH_C21, "qwen3-235b-a22b 呢？卡型不限"),
    (EN_C21, "never mind, switch to qwen3-235b-a22b, any card is fine, cheapest"),
    (EN_C21, "switch to qwen3-235b-a22b; any gpu works, whatever is cheapest"),
    (EN_C21, "ok qwen3-235b-a22b instead, no gpu restriction, cheapest option"),
    (EN_C21, "what about qwen3-235b-a22b? we're not limited to those cards anymore"),
    (EN_C21, "qwen3-235b-a22b, I don't care which gpu"),
])
def test_any_card_drops_the_earlier_restriction(first: str, fix: str) -> None:
    state = run_states([first, fix])[-1]
    p = state["profile"]
    assert p["model"] == "qwen3-235b-a22b" and not p["only"] and not p["exclude"]
    assert "4090" not in state["messages"][-1].content.splitlines()[0]


@pytest.mark.parametrize("fix", ["卡不限，用H20吧", "any card is fine, use H100s"])
def test_a_card_named_beside_any_card_is_the_new_restriction(fix: str) -> None:
    p = _profile([EN_C21, fix])
    assert p["only"] and "rtx-4090" not in " ".join(p["only"])


# 3. 'the load triples' ('下个月量会翻三倍', 'traffic will triple'): the plan's load slot is multiplied and re-sized.

B_ZH = ("每天凌晨要离线跑一个任务：50万条商品标题改写，每条输入约200 token输出约60 token，模型是 qwen2.5-7b，"
        "必须早上8点前跑完。我们有两张 L20，够不够？")
B_EN = "nightly batch: rewrite 500k product titles, ~200 tokens in and 60 out each, qwen2.5-7b, we have two L20s, enough?"
S_ZH = "部署 qwen2.5-14b 给 50 个人同时用，上下文 8k"
S_EN = "serve qwen2.5-14b for 50 concurrent users, 8k context"
R_EN = "serve qwen2.5-14b api at 4 requests per second, 1000 tokens in 300 out"


@pytest.mark.parametrize("first, fix, slot, value", [
    (B_ZH, "哦对了，下个月量会翻三倍", "batch_items", 1_500_000),
    (B_ZH, "下个月数据量翻三倍", "batch_items", 1_500_000),
    (B_ZH, "量要翻倍了", "batch_items", 1_000_000),
    (B_EN, "oh and the volume will triple next month", "batch_items", 1_500_000),
    (B_EN, "next month the load triples", "batch_items", 1_500_000),
    (S_ZH, "下个月流量会翻三倍", "users", 150),
    (S_ZH, "下个月量翻三倍", "users", 150),
    (S_EN, "traffic will triple next month", "users", 150),
    (S_EN, "next month traffic is going to triple", "users", 150),
    (R_EN, "traffic will triple next month", "requests_per_s", 12),
    (R_EN, "load doubles next month", "requests_per_s", 8),
])
def test_the_load_multiplied_is_resized(first: str, fix: str, slot: str, value: int) -> None:
    state = run_states([first, fix])[-1]
    assert state["profile"][slot] == value
    assert state["results"]


def test_quantization_is_not_a_load() -> None:
    p = _profile([S_ZH, "换成int4量化，显存量减半可以吗"])
    assert (p["users"], p["precision"]) == (50, "int4")


# 4. '另外 910B 和 910C 差别大不大' beside or after a plan: a card comparison, never a model named '另外 910B'.

AL10 = "领导要求国产化，要在昇腾上跑 deepseek r1 满血版，给大概 300 个员工用，同时在线估计 30 个左右。需要几台 910B？"


@pytest.mark.parametrize("text", [
    AL10 + "另外 910B 和 910C 差别大不大",
    AL10 + "另外910B和910C有什么区别",
    AL10 + "此外 910B 跟 910C 差距大吗",
    AL10 + "顺便问下 910B 和 910C 哪个好",
    "deepseek r1 full version on Ascend, 30 users at once, how many 910B? also, how different are 910B and 910C",
])
def test_a_card_said_after_a_side_word_is_no_model(text: str) -> None:
    u = understand(text)
    assert u.unknown_model is None and u.updates["model"] == "deepseek-r1"
    assert u.updates["users"] == 30
    assert "ascend-910c" in u.compare_gpus


@pytest.mark.parametrize("aside", ["另外 910B 和 910C 差别大不大", "另外910B和910C有什么区别",
                                   "also, how different are the 910B and 910C?"])
def test_a_card_comparison_after_a_plan_keeps_the_plan(aside: str) -> None:
    state = run_states([AL10, aside])[-1]
    assert state["profile"]["model"] == "deepseek-r1" and state["profile"]["users"] == 30
    reply = state["messages"][-1].content
    assert "910B" in reply.splitlines()[0] and "910C" in reply
    assert "另外" not in reply.replace("另外还有", "") and "稠密模型" not in reply


def test_a_model_named_in_chinese_with_its_size_is_still_read() -> None:
    u = understand("盘古星河-38B 要几张卡")
    assert u.unknown_model == "盘古星河-38B" and u.updates["model"] == "38B"


# 5. A hobbyist's own RTX 4070 12GB is known (datasheet figures) and sized, never replaced by a rental.

def test_the_rtx_4070_is_known_with_its_datasheet_figures() -> None:
    g = find_gpu("rtx 4070")
    assert (g.id, g.memory_gb, g.memory_bandwidth_gbps, g.tdp_w) == ("rtx-4070", 12, 504, 200)
    assert g.source and "nvidia.com" in g.source
    assert find_gpu("rtx 4070 super").id == "rtx-4070-super" and find_gpu("4070 ti").id == "rtx-4070-ti"
    assert find_gpu("4070 laptop").id == "rtx-4070-laptop" and find_gpu("rtx 4060").memory_gb == 8


@pytest.mark.parametrize("text", [
    "thinking of qlora on llama 3.1 8b with my rtx 4070 12gb, about 5k examples of 1k tokens. will it fit and how long?",
    "I have a 4070, want to qlora llama 3.1 8b on 5k examples of 1k tokens",
    "my RTX4070 12GB: qlora fine-tune llama 3.1 8b, 5000 examples of 1k tokens, how long?",
    "我有一张 rtx 4070 12g，想用 qlora 微调 llama 3.1 8b，5000 条数据每条 1k token，放得下吗要多久",
    "手上是4070 12G，qlora微调llama 3.1 8b要多久，5000条样本每条1k token",
])
def test_a_hobbyists_own_4070_is_sized(text: str) -> None:
    state = run_states([text])[-1]
    assert state["profile"]["owned"] == ["1x rtx-4070"]
    headline = next(line for line in state["messages"][-1].content.splitlines() if line.startswith("## "))
    assert "RTX 4070 12GB" in headline and "4090" not in headline


# 6. 'what do we need now and later' with a rate now and a rate later: two sizings, both stated.

AJ18 = ("Startup here. Serving deepseek r1 distill qwen 32b as an API, expecting 3 rps now and 20 rps in 6 months. "
        "prompts 500 tok, but reasoning outputs are long, ~3000 tokens. what do we need now and later")


@pytest.mark.parametrize("text", [
    AJ18,
    "serve deepseek r1 distill qwen 32b api at 3 rps today, 20 rps next year, 500 in 3000 out",
    "deepseek r1 distill qwen 32b as an api: 3 req/s now, 20 req/s within 6 months; 500 tokens in, 3000 out",
    "部署 deepseek r1 distill qwen 32b 做API，现在每秒3个请求，半年后每秒20个，输入500 token，输出3000 token，现在和以后各需要什么",
    "deepseek r1 distill qwen 32b 做 API，现在 3 qps，6个月后 20 qps，输入500输出3000 token",
])
def test_a_rate_now_and_later_gives_two_sizings(text: str) -> None:
    state = run_states([text])[-1]
    p = state["profile"]
    assert p["requests_per_s"] == 3 and not p["deadline_hours"]
    data = state["messages"][-1].additional_kwargs["gpu_advisor"]
    reply = state["messages"][-1].content
    assert ("Now and later" in reply) or ("现在和以后" in reply)
    later = [line for line in reply.splitlines() if "20" in line and ("Later" in line or "以后" in line)]
    now = [line for line in reply.splitlines() if ("**Now**" in line or "**现在**" in line)]
    assert later and now
    assert data


def test_a_peak_rate_is_still_a_peak() -> None:
    u = understand("serve qwen2.5 14b api, usually 10 req/s, peak 50")
    assert u.updates["requests_per_s"] == 50 and "later_rate" not in u.ask
