"""buy2 (session 17 round F): a vague count of cards to buy priced at that count (AZ 10), one card to buy planned as
one (AY 13), a training run of many months called impractical (AY 14), DeepSeek V3 on a budget that buys no server
for it (AY 9). English and Chinese, several phrasings each; decisions and counts asserted, not prose."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conversation import run_states


def _last(turns: list[str]) -> tuple[dict[str, Any], str]:
    state = run_states(turns)[-1]
    message = state["messages"][-1]
    return message.additional_kwargs.get("gpu_advisor", {}), str(message.content)


# ---- 1. 'a couple of 4090s' to buy: priced at 2 cards, a preference, not a cap
VAGUE = [
    ("startup here, budget is 15k USD total. should we buy a couple of 4090s or just rent an H100 for fine-tuning "
     "Llama 3.1 8B with LoRA every week (about 100k samples each time)?", 2),
    ("we LoRA fine-tune llama 3.1 8b every week, 100k samples. buy a couple of 4090s or keep renting an H100?", 2),
    ("buy a few 4090s or keep renting an H100? weekly LoRA on llama 3.1 8b, about 100k samples", 3),
    ("创业公司，总预算1.5万美元。我们每周用LoRA微调一次Llama 3.1 8B（每次大概10万条样本），是买两三张4090还是直接租H100？", 2),
    ("每周用LoRA微调一次Llama 3.1 8B，每次10万条样本，买三四张4090还是继续租H100？", 3),
]


@pytest.mark.parametrize(("text", "n"), VAGUE)
def test_vague_count_bought_is_priced_at_that_count(text: str, n: int) -> None:
    data, reply = _last([text])
    weighed = data["buy_or_rent"]
    assert weighed["buy"] == "rtx-4090"
    assert weighed["buy_n"] == n
    assert weighed["purchase_usd"] == pytest.approx(1599 * n)
    assert weighed["code"] == "rent"  # weekly 8B LoRA: renting stays cheaper
    assert f"{n} × NVIDIA GeForce RTX 4090" in reply
    assert f"only {n} ×" not in reply and f"只用 {n} ×" not in reply  # a preference, never a cap on the plan


def test_one_card_weighed_keeps_one() -> None:
    data, _reply = _last(["buy a 4090 or keep renting an H100? weekly LoRA on llama 3.1 8b, 100k samples"])
    assert data["buy_or_rent"]["buy_n"] == 1
    assert data["buy_or_rent"]["purchase_usd"] == pytest.approx(1599)


# ---- 2. one card to buy: planned as one card, never 2 × because a count of one was refused
ONE_CARD = [
    "想买张卡在家玩llm，预算一万五左右，4090太贵了，二手3090还是4060ti 16G？主要跑14B以内的模型，偶尔lora一下",
    "预算一万五，打算买一张显卡，二手3090还是4060ti 16G？偶尔lora一下14B的模型",
    "want to buy a card for local llms, budget around 2000 usd, used 3090 or 4060 ti 16gb? mostly running models up "
    "to 14b, sometimes a lora",
    "used 3090 or 4060 ti 16gb? i am buying one gpu, budget 2000 usd, occasional lora of a 14b model",
]


@pytest.mark.parametrize("text", ONE_CARD)
def test_one_card_to_buy_is_planned_as_one(text: str) -> None:
    state = run_states([text])[-1]
    assert state["profile"]["buy_count"] == 1
    best = state["results"]["recommend"]["best"]
    assert best is not None and best["gpus"] == 1
    assert best["gpu"] in ("rtx-3090", "rtx-4060-ti-16gb")
    assert state["results"]["recommend"]["workload"]["method"] == "qlora"  # LoRA on 14B fits no one card: QLoRA does


@pytest.mark.parametrize("text", ["we want to buy two cards for qlora of qwen2.5-72b", "我们想买两张卡做qwen2.5-72b的qlora微调"])
def test_two_cards_to_buy_stay_two(text: str) -> None:
    state = run_states([text])[-1]
    assert state["profile"]["buy_count"] == 2


@pytest.mark.parametrize("text", ["should I buy a GPU server for llama 70b serving, 20 users?",
                                  "I have one card, a 4090: fine-tune llama 3.1 8b with lora"])
def test_no_one_card_read_where_none_is_bought(text: str) -> None:
    assert run_states([text])[-1]["profile"].get("buy_count") is None


# ---- 3. a training run of many months on the cards named: impractical, with what makes it practical
LONG = [
    (["帮我算下用8张H100训一个7B模型从头预训练，1T token要多久", "哦不对，是2T token，而且我们只有4张"], 4, "zh"),
    (["how long to pretrain a 7B model from scratch on 8 H100s, 1T tokens?", "actually 2T tokens, and we only have 4"],
     4, "en"),
    (["pretrain a 7b model from scratch on 4 h100, 2T tokens, how long will it take?"], 4, "en"),
    (["用4张H100从零预训练7B模型，2T token，要训多久？"], 4, "zh"),
    (["帮我算下用8张H100训一个7B模型从头预训练，1T token要多久"], 8, "zh"),
]


@pytest.mark.parametrize(("turns", "n", "lang"), LONG)
def test_months_long_run_is_impractical(turns: list[str], n: int, lang: str) -> None:
    state = run_states(turns)[-1]
    best = state["results"]["recommend"]["best"]
    assert (best["gpu"], best["gpus"]) == ("h100-sxm", n)  # the cards named stay the plan
    assert best["meets"].get("practical") is False and not best["ok"]
    assert best["job_hours"] > 90 * 24
    reply = str(state["messages"][-1].content)
    assert ("不现实" in reply) if lang == "zh" else ("Not practical" in reply)
    assert ("继续预训练" in reply) if lang == "zh" else ("continued pretraining" in reply)
    assert "| 是 |" not in reply and "| yes |" not in reply


@pytest.mark.parametrize("text", ["pretrain a 1B model from scratch on 8 H100s, 50B tokens, how long?",
                                  "用8张H100从零预训练一个1B模型，50B token，要多久？"])
def test_short_run_stays_practical(text: str) -> None:
    best = run_states([text])[-1]["results"]["recommend"]["best"]
    assert best["meets"].get("practical") is None


# ---- 4. DeepSeek V3 to buy on a budget that buys no GPU server for it: said plainly, then what it does buy
V3 = [
    ("预算50万人民币，想自己搭一台机器跑deepseek v3 推理，内部20个人用，买啥？", "zh"),
    ("想自己组装一台机器跑DeepSeek-V3推理，预算50万，公司内部20人用，该买什么？", "zh"),
    ("budget is 70k USD, we want to build our own machine to run DeepSeek V3 for 20 people internally. what should "
     "we buy?", "en"),
    ("we are in China, budget 500k RMB, want to build our own box for DeepSeek V3 inference, 20 internal users. "
     "what do we buy?", "en"),
]


@pytest.mark.parametrize(("text", "lang"), V3)
def test_v3_on_a_budget_says_what_it_does_buy(text: str, lang: str) -> None:
    import re

    state = run_states([text])[-1]
    reply = str(state["messages"][-1].content)
    assert state["results"]["recommend"]["best"] is None or not state["results"]["recommend"]["best"]["ok"]
    if lang == "zh":
        assert "买不到能装下 DeepSeek-V3 的 GPU 服务器" in reply
        assert "CPU+GPU 混合方案" in reply and "--n-cpu-moe" in reply
        small = re.search(r"Qwen2\.5 (72|32)B 用 (\d+) × .*?购买约 ¥([\d,]+)", reply)
        budget = 500_000.0
    else:
        assert "does not buy a GPU server that holds DeepSeek-V3" in reply
        assert "CPU+GPU build" in reply and "--n-cpu-moe" in reply
        small = re.search(r"Qwen2\.5 (72|32)B on (\d+) × .*?about ([¥$])([\d,]+)", reply)
        assert small is not None
        budget = 500_000.0 if small.group(3) == "¥" else 70_000.0
        small = re.search(r"Qwen2\.5 (72|32)B on (\d+) × .*?about [¥$]([\d,]+)", reply)
    assert small is not None and 1 <= int(small.group(2)) <= 4
    assert float(small.group(3).replace(",", "")) <= budget
    first = reply.split("##")[0]
    assert "API" in first  # renting or the API, the alternative


def test_v3_offload_speed_is_a_server_build() -> None:
    from gpu_advisor.tools.offload import OffloadInput, offload

    r = offload(OffloadInput(model="deepseek-v3", gpu="rtx-4090", precision="q4_k_m", ram="ddr5-4800-server-12ch"))
    assert r.fits and 8 <= r.decode_tokens_per_s <= 20  # KTransformers/llama.cpp on 12-channel DDR5: ~10-20 tok/s
