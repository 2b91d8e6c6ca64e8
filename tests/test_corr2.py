"""Corrections said in a later turn are applied whole (review AG/AH/AI, issue 21): a card put right keeps the count
owned, a count of the card named, a context, a data-set size beside a model, a region said by what it is not, a rate
unit, a card swap in China, a home purchase changed."""

from __future__ import annotations

from typing import Any

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import find_gpu
from tests.conversation import run_states


def _profile(turns: list[str]) -> dict[str, Any]:
    return run_states(turns)[-1]["profile"]


# 1. A card name put right ('they're L40 not L40S'): the L40 is known, the 8 owned stay 8.

def test_the_l40_is_known_with_its_datasheet_figures() -> None:
    g = find_gpu("l40")
    assert g is not None and g.id == "l40" and g.memory_gb == 48 and g.memory_bandwidth_gbps == 864
    assert g.fp8_tflops == 362 and g.bf16_tflops == 181.05
    assert find_gpu("l40s").id == "l40s"


L40S_EN = "we bought 8x L40S last year, want to serve qwen2.5 72b for internal rag, ~25 users at once, 16k ctx"
L40S_ZH = "我们去年买了8张L40S，想部署qwen2.5 72b做内部RAG，大概25人同时用，16k上下文"
H100_EN = "we have 8 H100s, want to serve llama 3.1 70b for 40 users at 8k"


@pytest.mark.parametrize("first, fix, owned", [
    (L40S_EN, "sorry my bad, they're L40 not L40S", "8x l40"),
    (L40S_EN, "oops, L40 not L40S", "8x l40"),
    (L40S_EN, "my bad, not L40S, they're L40", "8x l40"),
    (L40S_ZH, "不好意思我说错了，是L40不是L40S", "8x l40"),
    (L40S_ZH, "哦我的错，我们的卡是L40，不是L40S", "8x l40"),
    (H100_EN, "my bad, they're actually H200s not H100s", "8x h200"),
    (H100_EN, "sorry, A100 80GB not H100", "8x a100-80gb-sxm"),
])
def test_a_card_put_right_keeps_the_count_owned(first: str, fix: str, owned: str) -> None:
    p = _profile([first, fix])
    assert p["owned"] == [owned]
    assert not p["exclude"]


# 2. 'wait we actually have 2 of them in the box' after one card named: 2 of it owned; a context said after is applied.

GEMMA_EN = "can i serve gemma 2 27b on one rtx 6000 ada for our support bot, like 15 concurrent chats"
GEMMA_ZH = "能用一张rtx 6000 ada跑gemma 2 27b吗，客服机器人，大概15个人同时聊"


@pytest.mark.parametrize("first, had", [
    (GEMMA_EN, "wait we actually have 2 of them in the box"),
    (GEMMA_EN, "oh we already have two of those"),
    (GEMMA_EN, "actually i own 2 of them"),
    (GEMMA_ZH, "等等，其实我们机器里有两张"),
    (GEMMA_ZH, "哦我们其实有两张卡"),
])
def test_a_count_had_of_the_card_named_is_owned(first: str, had: str) -> None:
    p = _profile([first, had])
    assert p["owned"] == ["2x rtx-6000-ada"]
    assert not p["only"]


@pytest.mark.parametrize("first, had, ctx", [
    (GEMMA_EN, "wait we actually have 2 of them in the box", "oh and contexts need to be 32k, customers paste long emails"),
    (GEMMA_EN, "we have 2 of them", "also 32k contexts please, customers paste long emails"),
    (GEMMA_EN, "we have 2 of them", "context windows have to be 32k"),
    (GEMMA_ZH, "等等，其实我们机器里有两张", "哦对了，上下文要32k，客户会贴很长的邮件"),
])
def test_a_context_said_after_is_applied_and_gemma_2_limit_said(first: str, had: str, ctx: str) -> None:
    states = run_states([first, had, ctx])
    p, reply = states[-1]["profile"], states[-1]["messages"][-1].content
    assert p["context"] == 32768 and p["owned"] == ["2x rtx-6000-ada"]
    assert "8,192" in reply and "Gemma 3 27B" in reply


# 3. '哦不对，数据是3万条，而且我想用14B的': both changes applied (the examples and the model).

LORA_ZH = "想用LoRA微调一下Qwen2.5-7B，做客服问答，手上有大概3千条数据，租卡的话最便宜怎么搞"
LORA_EN = "want to lora fine-tune qwen2.5 7b for customer support QA, have about 3k examples, cheapest way renting?"


@pytest.mark.parametrize("first, fix", [
    (LORA_ZH, "哦不对，数据是3万条，而且我想用14B的"),
    (LORA_ZH, "不对，我想用14B的，数据其实是3万条"),
    (LORA_ZH, "说错了，是3万条数据，模型用14B"),
    (LORA_EN, "oh wait, it's 30k examples, and i want the 14b"),
    (LORA_EN, "sorry, i want to use the 14b, and the data is 30k examples"),
])
def test_examples_and_model_corrected_together(first: str, fix: str) -> None:
    p = _profile([first, fix])
    assert p["model"] == "qwen2.5-14b" and p["train_examples"] == 30000
    assert p["phase"] in ("fine-tune", "train") and p["method"] == "lora"


# 4. A region said by what it is not ('we're in singapore not china', '我们是在新加坡 不在国内'): never that region.

@pytest.mark.parametrize("text", [
    "噢对了 我们是在新加坡 不在国内", "我们不在国内，在新加坡", "we're in singapore not china", "not in china, we're in singapore",
    "we're in japan, not china",
])
def test_a_region_negated_is_not_the_region(text: str) -> None:
    assert understand(text, None).updates.get("region") == "global"


@pytest.mark.parametrize("text", ["不在国内哈", "oh btw we're not in china", "we're not located in china, sorry"])
def test_a_region_negated_alone_is_never_that_region(text: str) -> None:
    assert understand(text, None).updates.get("region") != "china"


@pytest.mark.parametrize("text, region", [("我们在国内", "china"), ("we're based in the US, not china", "us"),
                                          ("we're in germany, not the us", "eu")])
def test_a_region_said_stays(text: str, region: str) -> None:
    assert understand(text, None).updates.get("region") == region


def test_singapore_after_a_chinese_question_prices_globally() -> None:
    p = _profile(["DeepSeek-R1-Distill-Qwen-32B部署起来要多少显存？我准备用两张L40S跑，大概十来个人用",
                  "噢对了 我们是在新加坡 不在国内"])
    assert p["region"] == "global"


# 5. The rate's unit put right ('是每分钟5个请求不是每秒'): the rate per minute, the prompt and output lengths kept.

RATE_ZH = "部署Qwen2.5-14B，预算每个月一万块以内，要求每秒能处理5个请求，平均输入2000 token输出500，用什么卡"
RATE_EN = "serve qwen2.5 14b, budget 10k usd a month, must handle 5 requests per second, avg 2000 input tokens and 500 output"


@pytest.mark.parametrize("text", [RATE_ZH, RATE_EN, "部署Qwen2.5-14B，每秒要能处理5个请求，输入2000 token输出500"])
def test_a_rate_said_with_a_verb_between_is_a_rate(text: str) -> None:
    u = understand(text, None)
    assert u.updates.get("requests_per_s") == 5.0 and u.updates.get("prompt_tokens") == 2000
    assert u.updates.get("output_tokens") == 500 and "runs_per_month" not in u.updates and u.second is None


@pytest.mark.parametrize("first, fix", [
    (RATE_ZH, "等下，我说错了，是每分钟5个请求不是每秒"),
    (RATE_ZH, "不是每秒，是每分钟5个"),
    (RATE_EN, "sorry i meant 5 per minute not per second"),
    (RATE_EN, "5 requests a minute, not a second"),
    (RATE_EN, "oops, 5 a minute, not a second"),
])
def test_the_rate_unit_put_right_keeps_the_lengths(first: str, fix: str) -> None:
    states = run_states([first, fix])
    p, reply = states[-1]["profile"], states[-1]["messages"][-1].content
    assert abs(p["requests_per_s"] - 5 / 60) < 1e-3
    assert p["prompt_tokens"] == 2000 and p["output_tokens"] == 500 and p["model"] == "qwen2.5-14b"
    assert "0.083333" not in reply


# 6. A card not to be had swapped for another ('A800现在买不到，改成昇腾910B吧，其他不变'): sized on it, all else kept.

A800_ZH = "要部署glm-4-32b给五十个人用，打算用A800，需要几张"
A800_EN = "want to serve glm-4-32b for 50 people, planning on A800s, how many do we need"


@pytest.mark.parametrize("first, swap", [
    (A800_ZH, "算了，A800现在买不到，改成昇腾910B吧，其他不变"),
    (A800_ZH, "A800买不到了，换成910B"),
    (A800_ZH, "A800没货了，用910B吧"),
    (A800_EN, "forget it, can't get A800s right now, switch to ascend 910b, everything else the same"),
    (A800_EN, "A800s are out of stock, let's go with the 910B"),
])
def test_a_card_not_to_be_had_is_swapped(first: str, swap: str) -> None:
    states = run_states([first, swap])
    p, reply = states[-1]["profile"], states[-1]["messages"][-1].content
    assert p["only"] == ["ascend-910b"] and p["users"] == 50 and p["model"] == "glm-4-32b-0414"
    assert "Ascend 910B" in reply.splitlines()[0]
    assert "专为中国市场" not in reply and "Made for the Chinese market" not in reply


@pytest.mark.parametrize("text", ["A800买不到，910B行吗", "can't get A800s, is the 910B as good?"])
def test_a_card_weighed_is_no_swap(text: str) -> None:
    assert "replaced" not in understand(text, None).ask


@pytest.mark.parametrize("card, key", [("ascend-910b", "info.stock.domestic"), ("a800-80gb-sxm", "info.stock.china_barred"),
                                       ("h20", "info.stock.china"), ("h100-sxm", "info.stock.export"), ("l40", "info.stock.export")])
def test_where_a_card_may_be_sold(card: str, key: str) -> None:
    from gpu_advisor.assistant.inform import stock_origin

    assert stock_origin(find_gpu(card)) == key


# 7. A home purchase changed ('actually scratch that, what if i just get one 4090 and offload the rest to cpu ram'):
# bought for their own computer (never a data-centre rental), for the two people said ('me n my brother').

HOME_EN = "thinking of getting two used 3090s to run llama 3.3 70b at 4bit for me n my brother, is that the move?"


@pytest.mark.parametrize("text", ["for me n my brother", "me & my wife", "for me and my brother", "我和我弟用"])
def test_me_and_one_other_are_two_users(text: str) -> None:
    assert understand(text, None).updates.get("users") == 2


def test_two_cards_getting_for_two_people_are_bought() -> None:
    u = understand(HOME_EN, None)
    assert u.updates.get("preference") == "buy" and u.updates.get("users") == 2


@pytest.mark.parametrize("change", [
    "actually scratch that, what if i just get one 4090 and offload the rest to cpu ram (64gb ddr5)?",
    "scratch that, what if I buy a single 4090 and offload the rest to system ram, 64gb ddr5",
])
def test_one_card_bought_with_offload_is_a_home_purchase(change: str) -> None:
    states = run_states([HOME_EN, change])
    p, reply = states[-1]["profile"], states[-1]["messages"][-1].content
    assert p["only"] == ["1x rtx-4090"] and not p["owned"] and p["preference"] == "buy"
    assert p["users"] == 2 and p["system_ram_gb"] == 64
    first = reply.splitlines()[0]
    assert "Rent" not in first and "4090" in first
    assert "system RAM" in reply
