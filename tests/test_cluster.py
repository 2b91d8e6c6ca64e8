"""h-cluster (reviews AX #13, AY #14/#18, AZ #20): hardware the user owns, said as nodes x cards, is the whole fleet;
a later correction of the count replaces it; growth stated is sized at the future figure."""

from __future__ import annotations

import pytest

from tests.conversation import run_states

# 6·N·D over the cards' dense BF16 peak at 30-60% MFU: the range an expert would sign for a run's hours
BF16_TFLOPS = {"a800-80gb-sxm": 312.0, "h100-sxm": 989.0}


def _hours_range(params: float, tokens: float, gpus: int, card: str) -> tuple[float, float]:
    flop = 6 * params * tokens
    peak = gpus * BF16_TFLOPS[card] * 1e12
    return flop / (peak * 0.6) / 3600, flop / (peak * 0.3) / 3600


FLEET_TRAIN = [
    # (text, cards owned, card, params, tokens)
    ("our lab has 4 nodes x 8 A800 (80G). PI wants to pretrain-style continue training qwen2.5 7b on 50B tokens of "
     "chinese legal text. how long on what we have, and do we need more cards?", 32, "a800-80gb-sxm", 7.6e9, 50e9),
    ("we have 4 nodes × 8 A800, continued pretraining of qwen2.5 7b on 50B tokens, how long?",
     32, "a800-80gb-sxm", 7.6e9, 50e9),
    ("continue pretraining qwen2.5 7b on 50B tokens, our cluster has 4 nodes with 8 A800 each. how long",
     32, "a800-80gb-sxm", 7.6e9, 50e9),
    ("我们实验室有4台8卡的A800，想在qwen2.5 7b上继续预训练50B token，用现有的卡要多久，要不要加卡",
     32, "a800-80gb-sxm", 7.6e9, 50e9),
    ("嗯 我们组有两台8卡H100，llama 3.1 8b 继续预训练 100B token 大概要多久", 16, "h100-sxm", 8.0e9, 100e9),
    ("we own 2 nodes x 8 H100 and want to pretrain a 1B model from scratch on 100B tokens, how long",
     16, "h100-sxm", 1.0e9, 100e9),
]


@pytest.mark.parametrize("text,gpus,card,params,tokens", FLEET_TRAIN)
def test_owned_fleet_trains_on_all_of_it(text: str, gpus: int, card: str, params: float, tokens: float) -> None:
    rec = run_states([text])[-1]["results"]["recommend"]
    best = rec["best"]
    assert best["gpu"] == card and best["owned"] and best["ok"]
    assert best["gpus"] == gpus  # every node, data parallel over them, never one server's cards
    low, high = _hours_range(params, tokens, gpus, card)
    assert low <= best["training_hours"] <= high
    assert any("InfiniBand" in w for w in rec["warnings"] + best.get("warnings", []))  # the interconnect stated


@pytest.mark.parametrize("text", [FLEET_TRAIN[0][0], FLEET_TRAIN[1][0], FLEET_TRAIN[3][0]])
def test_continued_pretraining_is_said_continued(text: str) -> None:
    inputs = run_states([text])[-1]["results"]["inputs"]
    assert inputs["phase"] == "continued-pretrain"


TWO_SERVICES = [
    "我们组现在有4台8卡的A800，平时跑推理服务Qwen2.5-72B，白天高峰大概200并发，现在又要加一个deepseek-r1-distill-qwen-32b的服务，"
    "100并发，卡还够不够？",
    "4台8卡A800上跑着qwen2.5-72b，高峰200并发，最近要新增deepseek-r1-distill-qwen-32b服务，100并发，卡够吗",
    "我们有4台8卡A800，Qwen2.5-72B 200并发，再加一个deepseek-r1-distill-qwen-32b，100并发，够不够",
    "we have 4 nodes of 8 A800 serving qwen2.5 72b at 200 concurrent users, and we're adding "
    "deepseek-r1-distill-qwen-32b with 100 concurrent, do we have enough cards?",
    "our cluster: 4 nodes x 8 A800. qwen2.5 72b for 200 concurrent users, plus deepseek-r1-distill-qwen-32b for 100 "
    "concurrent users. enough?",
]


@pytest.mark.parametrize("text", TWO_SERVICES)
def test_two_services_split_the_owned_fleet(text: str) -> None:
    results = run_states([text])[-1]["results"]
    assert results["inputs"]["users"] == 200  # each service sized at its own load
    split = results["pair"]["split"]
    assert [s["users"] for s in split] == [200, 100]
    assert sum(s["gpus"] for s in split) == 32 and all(s["gpus"] % 8 == 0 for s in split)  # whole servers each
    assert all(s["ok"] for s in split)


GROWTH = [
    "我们有一台8卡H20，跑Qwen2.5-72B，现在每秒大概3个请求，下个月要涨到每秒10个，输入2k输出500，要求首token p95在1秒内，够不够？"
    "不够要加几台",
    "一台8卡H20跑qwen2.5-72b，输入2k输出500，首token p95 1秒内，目前每秒3个请求，下个月每秒10个请求，够吗，要加几台",
    "we have one 8x H20 server running qwen2.5 72b, now 3 req/s, next month 10 req/s, 2k in 500 out, p95 ttft under "
    "1s. enough? how many more servers",
    "we own one 8x H20 server, qwen2.5 72b on it: 2k in, 500 out, p95 ttft 1s. today 3 rps, 10 rps next month. will "
    "it hold, and how many more servers?",
]


@pytest.mark.parametrize("text", GROWTH)
def test_owned_server_sized_at_the_rate_to_come(text: str) -> None:
    results = run_states([text])[-1]["results"]
    assert results["inputs"]["requests_per_s"] == 10.0  # the future figure, today's as context
    traffic = results["recommend"]["traffic"]
    assert traffic["owned_gpus"] == 8 and traffic["owned_short"]
    # what 8 H20 sustain: prefill 2k x 2·72.7e9 FLOP against 8 x 296 TFLOPS FP8 (~30-60% MFU) with decode beside
    # it, loaded to 80%: between 1 and 4 requests a second, never 'under 1'
    assert 1.0 <= traffic["owned_rps"] <= 4.0
    # 10 req/s takes servers like the one owned, each its own copy inside it: 3 to 6 servers in all
    assert traffic["needed_unit"] <= 8 and 24 <= traffic["needed_gpus"] <= 48


@pytest.mark.parametrize("text", [
    "我们有一台8卡H20，跑Qwen2.5-72B，现在每秒大概3个请求，输入2k输出500，要求首token p95在1秒内，够不够",
    "we have one 8x H20 server running qwen2.5 72b at 3 req/s, 2k in 500 out, p95 ttft under 1s. enough?",
])
def test_owned_capacity_is_never_under_one_when_the_copy_is_larger(text: str) -> None:
    traffic = run_states([text])[-1]["results"]["recommend"]["traffic"]
    assert traffic["owned_rps"] is None or 1.0 <= traffic["owned_rps"] <= 4.0


def test_rate_now_and_later_without_owned_cards_is_unchanged() -> None:
    results = run_states(["serve qwen2.5 72b on H100, 3 rps now and 10 rps next month, 2k in 500 out"])[-1]["results"]
    assert results["inputs"]["requests_per_s"] == 3.0  # planning from nothing: now, with the later rate beside it


PINNED = [
    (["帮我算下用8张H100训一个7B模型从头预训练，1T token要多久"], 8, 1e12),
    (["用8张H100从零预训练一个7B模型，1T token，大概要多久"], 8, 1e12),
    (["how long to pretrain a 7B model from scratch on 1T tokens with 8 H100s?"], 8, 1e12),
    (["帮我算下用8张H100训一个7B模型从头预训练，1T token要多久", "哦不对，是2T token，而且我们只有4张"], 4, 2e12),
    (["帮我算下用8张H100训一个7B模型从头预训练，1T token要多久", "不对，2T token，其实我们只有4张卡"], 4, 2e12),
    (["how long to pretrain a 7B model from scratch on 1T tokens with 8 H100s?", "oops, 2T tokens, and we only have 4"],
     4, 2e12),
]


@pytest.mark.parametrize("turns,gpus,tokens", PINNED)
def test_pretraining_on_the_cards_named_no_invented_deadline(turns: list[str], gpus: int, tokens: float) -> None:
    best = run_states(turns)[-1]["results"]["recommend"]["best"]
    assert best["gpu"] == "h100-sxm" and best["gpus"] == gpus  # the count asked (and put right), never 64 or 128
    low, high = _hours_range(7e9, tokens, gpus, "h100-sxm")
    assert low <= best["training_hours"] <= high  # 4 cards, 2T tokens: 600+ days
