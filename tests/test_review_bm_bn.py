"""Session 20 reviews BM/BN: what people say in passing is read in its role. 'dont care about batch' is no batch job
(BM #1); system memory said beside two cards keeps both (BN #18: '俩张4090 … 内存256g' was one 4090)."""
from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand

NOT_CARE = ["dont care about", "don't care about", "do not care about", "not worried about", "dont really care about"]


@pytest.mark.parametrize(("lead", "said", "tail"), itertools.product(
    ["got a 3090, want to run qwen2.5 32b for personal coding, ", "qwen2.5 32b on my 3090 for coding. "],
    NOT_CARE, ["batch just me", "batching, it's just me", "batch jobs"]))
def test_a_word_said_not_to_matter_is_no_job(lead, said, tail):
    u = understand(f"{lead}{said} {tail}")
    assert u.updates.get("phase") != "batch" and u.updates.get("owned") == ["1x rtx-3090"]


@pytest.mark.parametrize(("count", "n"), [("俩张", 2), ("两张", 2), ("2张", 2), ("三张", 3)])
@pytest.mark.parametrize("ram", ["内存256g", "256G内存", "内存有256GB"])
def test_system_memory_beside_cards_keeps_their_count(count, n, ram):
    u = understand(f"{count}4090能不能跑qwen3-235b-a22b q4 {ram}")
    assert u.updates.get("owned") == [f"{n}x rtx-4090"] and u.updates.get("system_ram_gb") == 256


@pytest.mark.parametrize("text", ["can 2 4090s run qwen3-235b-a22b q4 with 256gb ram",
                                  "my two 4090s + 256gb of ram, can they run qwen3 235b?"])
def test_system_memory_beside_cards_keeps_their_count_en(text):
    assert understand(text).updates.get("owned") == ["2x rtx-4090"]


@pytest.mark.parametrize("text", ["长期跑llama3.1 70b 24小时不停 两张h100 租还是买划算", "两张h100跑llama3.1 70b，买还是租划算",
                                  "2 h100s for llama 3.1 70b around the clock: rent or buy?"])
def test_cards_in_a_rent_or_buy_question_are_not_owned(text):
    """BN #13: the cards weighed for getting are the ones asked about, never the user's own."""
    u = understand(text)
    assert "rent_buy" in u.intents and not u.updates.get("owned")


def test_cards_that_open_the_message_are_still_owned():
    assert understand("两张3090跑qwen3-235b").updates.get("owned") == ["2x rtx-3090"]


@pytest.mark.parametrize("lead", ["银行私有化部署qwen2.5 72b，每秒10个请求，", "私有化部署qwen2.5 72b，", "内网部署qwen2.5 72b，"])
@pytest.mark.parametrize("ask", ["买卡的话买什么 几台", "买什么卡，要几台", "买卡的话要买几台"])
def test_on_premises_asked_what_to_buy_is_a_purchase(lead, ask):
    """BN #11: a private deployment asking what to buy is bought (was: headed 'rent')."""
    assert understand(lead + ask).updates.get("preference") == "buy"


@pytest.mark.parametrize(("text", "out"), [("提示词大概3000token 回答500左右", 500), ("输入3000 token，回答大概500", 500),
                                          ("prompts around 3000 tokens, each answer about 500", 500),
                                          ("prompt 3k tokens, response ~400", 400)])
def test_an_answer_said_in_the_singular_is_the_output_length(text, out):
    u = understand(text)
    assert u.updates.get("prompt_tokens") == 3000 and out in (u.updates.get("batch_output_tokens"), u.updates.get("output_tokens"))


@pytest.mark.parametrize(("text", "mac"), [
    ("Im thinking of buying a mac studio to run deepseek r1 locally, the full 671b one not distill. is 512gb enough?",
     "apple-m3-ultra-512gb"),
    ("mac studio 512gb for deepseek r1, what speed?", "apple-m3-ultra-512gb"),
    ("would a 512GB Mac Studio run deepseek r1?", "apple-m3-ultra-512gb"),
    ("mac studio 192gb, llama 3.3 70b speed?", "apple-m2-ultra-192gb"),
    ("my macbook pro has 36gb, can it run qwen2.5 32b", "apple-m3-pro-36gb"),
])
def test_a_mac_named_by_product_and_memory_is_that_mac(text, mac):
    """BM #3: the Mac was dropped and 20 RTX PRO 6000 bought instead."""
    u = understand(text)
    assert mac in [c.partition("x ")[2] or c for c in (u.updates.get("only") or []) + (u.updates.get("owned") or [])]


@pytest.mark.parametrize("text", ["mac studio m2 ultra 192gb, llama 70b", "my mac studio with 64gb"])
def test_a_chip_named_or_no_record_adds_nothing(text):
    u = understand(text)
    cards = (u.updates.get("only") or []) + (u.updates.get("owned") or [])
    assert all("m3-ultra" not in c for c in cards)
