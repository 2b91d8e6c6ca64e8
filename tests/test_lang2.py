"""Round D, lang2: the reply language by the share of the words, off-record cards never answered as another card,
two alternatives in one sentence, and a subsidy said rather than ignored."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.catalog import detect
from gpu_advisor.assistant.lang_share import share_language
from tests.conversation import run_conversation

# Mostly English, a few Chinese terms (names from the catalogs and policy words) -> English.
EN_STEMS = [
    "our company in {city} has to go {term} for a qwen2.5 32b deployment, 60 concurrent users 16k context. how many {card}?",
    "we need to serve llama 3 70b to our support team, the boss says {term}, which {card} count would you suggest",
    "how many {card} do we need to run deepseek-r1-distill-qwen-32b for about 40 people, it must be {term}",
]
EN_TERMS = ["国产化", "信创", "国产卡"]
EN_CARDS = ["昇腾 910B", "昇腾910B", "华为 910B", "910B"]
# Chinese with English model/card names and technical terms -> Chinese.
ZH_MESSAGES = [
    "想问下 llama 3.1 405b 用 fp8 推理，8卡H100一台能放下吗？",
    "我想用 vllm 部署 qwen2.5 72b 给 team 用，大概 20 个人",
    "kv cache 占多少显存，deepseek-r1-distill-qwen-32b 16k context",
    "我们要 fine-tune 一个 model，用 LoRA 在 4090 上跑 qwen2.5 7b",
    "算了，领导说必须国产卡，换成海光的DCU行不行，要几张",
    "老板问我 昇腾910B 和 H20 部署 qwen2.5 72b 哪个好，30个人用",
]


@pytest.mark.parametrize("stem,term,card", list(itertools.product(EN_STEMS, EN_TERMS, EN_CARDS))[::3])
def test_mostly_english_with_chinese_terms_is_english(stem: str, term: str, card: str) -> None:
    message = stem.format(city="shenzhen", term=term, card=card)
    assert share_language(message) == "en"
    assert detect(message, "zh") == "en"  # even after a Chinese turn: the message itself decides


@pytest.mark.parametrize("message", ZH_MESSAGES)
def test_chinese_with_english_names_is_chinese(message: str) -> None:
    assert detect(message, "en") == "zh"


def test_english_question_with_chinese_terms_is_answered_in_english_with_the_910c_at_the_same_load() -> None:
    reply = run_conversation(["our company in shenzhen has to go 国产化 for a deepseek-r1-distill-qwen-32b deployment, "
                              "60 concurrent users 16k context. how many 昇腾 910B and is 910C worth it instead?"])[0]
    text = str(reply.content)
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in text.split("**From what you said:**")[0].replace("、", ""))
    compared = reply.additional_kwargs["gpu_advisor"]["also"][0]["options"]
    by_card = {o["gpu"]: o["gpus"] for o in compared}
    assert all(o["ok"] for o in compared)
    assert by_card.get("ascend-910b") == 8
    assert by_card.get("ascend-910c") == 8  # 8 NPUs, 4 packages: the same load, never 1 × 910B against 2 dies
    assert "4 packages" in text and "falls short" not in text


OFF_RECORD = [
    ("算了，领导说必须国产卡，换成海光的DCU行不行，要几张", "海光 DCU"),
    ("领导要求国产化，改用寒武纪的卡可以吗？要几张", "寒武纪 MLU"),
    ("必须国产的话，昆仑芯要几张", "昆仑芯"),
    ("management says domestic only now: would hygon DCU cards work, how many?", "Hygon DCU"),
    ("can we switch to Moore Threads cards instead, how many would we need", "Moore Threads"),
]


@pytest.mark.parametrize("second,name", OFF_RECORD)
def test_off_record_card_is_never_answered_as_another_card(second: str, name: str) -> None:
    first = "我们打算用A800部署llama3-70b给客服团队用，40个坐席，上下文8k" if "\u4e00" <= second[0] <= "\u9fff" \
        else "we plan to serve llama 3 70b on A800s for 40 support agents, 8k context"
    reply = run_conversation([first, second])[-1]
    text = str(reply.content)
    head = text.split("\n\n")[0]
    assert name in head
    assert "Ascend" not in head.split("。")[0].split(". ")[0]  # the first sentence is about the card asked, not another
    assert not head.startswith(("**能**", "**Yes**", "**需要", "**You need"))
    payload = reply.additional_kwargs["gpu_advisor"]
    if payload["kind"] == "answer":  # a plan given: on a card on record, said as an alternative
        assert payload["unknown_card_asked"]["names"]
    else:  # no plan: only what is missing, no other card
        assert "Ascend" not in text and "910B" not in text


SUBSIDY = [
    ("老板问我 昇腾910B 和 H20 部署 qwen2.5 72b 哪个好，30个人用，我们不一定要国产，但是国产有补贴。帮忙分析下", "**补贴**"),
    ("国产卡有政府补助，部署 qwen2.5 72b 给30个人用，910B 还是 H20", "**补贴**"),
    ("boss asks: ascend 910B or H20 to serve qwen2.5 72b for 30 people? we don't have to go domestic but domestic chips "
     "get a subsidy", "**Subsidy:**"),
    ("there's a government grant for domestic chips. serve qwen2.5 72b for 30 users, H20 or 910B?", "**Subsidy:**"),
]


@pytest.mark.parametrize("message,head", SUBSIDY)
def test_a_subsidy_is_said_not_modelled_never_ignored(message: str, head: str) -> None:
    reply = run_conversation([message])[0]
    text = str(reply.content)
    assert head in text
    assert reply.additional_kwargs["gpu_advisor"].get("subsidy") == "not_modelled"
    assert ("补贴前" in text) if head == "**补贴**" else ("before it" in text)
