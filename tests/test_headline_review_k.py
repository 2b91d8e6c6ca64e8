"""Review K (round J): the headline never names a card the answer itself warns against (a software-risk caveat,
off CUDA) for a saving smaller than the measured price spread, unless the user named it; the warned card stays in
the table as an alternative with its caveat. Both languages, several phrasings."""
from __future__ import annotations

import re

import pytest

from gpu_advisor.knowledge import find_gpu, rules
from gpu_advisor.tools.cost import offer_spread
from gpu_advisor.tools.recommend import STACK_PENALTY, Workload, software_risk_unasked, stack_warning
from tests.conversation import run_conversation

BATCH_EN = [
    "have 2 million docs to summarize with llama 3.1 8b, each ~800 tokens in 150 out, need it done by friday "
    "(3 days). cheapest way on rented gpus?",
    "cheapest rented gpus to summarise 2,000,000 documents with Llama 3.1 8B: 800 tokens in, 150 out each, "
    "within 3 days",
]
BATCH_ZH = [
    "在美国租卡，用llama 3.1 8b给200万篇文档做摘要，每篇输入800 token输出150，3天内完成，最便宜的方案？",
    "美国，租GPU：200万条文档，llama 3.1 8b 摘要，每条输入约800 token、输出150，三天内跑完，怎么最省钱",
]


def _head(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("## "))


def _plans(replies: list) -> list:
    """The replies that carry a plan (a live service is answered at once: a later "around the clock" only says it
    changes nothing)."""
    return [r for r in replies if any(line.startswith("## ") for line in r.content.splitlines())]


@pytest.mark.parametrize("message", BATCH_EN)
def test_english_batch_headline_is_the_clean_card_and_mi300x_keeps_its_caveat(message: str) -> None:
    reply = run_conversation([message])[-1].content
    head = _head(reply)
    assert head.startswith("## Rent 2 × NVIDIA GeForce RTX 4090 24GB"), head
    assert "AMD" not in head
    # still an alternative in the table (its format said once the rows differ in format: A100 runs W8A8)
    assert re.search(r"\| 1 × AMD Instinct MI300X 192GB( \(fp8\))? \| yes \|", reply)
    assert "⚠ AMD Instinct MI300X 192GB runs on ROCm" in reply  # with its caveat


@pytest.mark.parametrize("message", BATCH_ZH)
def test_chinese_batch_headline_is_the_clean_card_and_mi300x_keeps_its_caveat(message: str) -> None:
    reply = run_conversation([message])[-1].content
    head = _head(reply)
    assert head.startswith("## 租用 2 × NVIDIA GeForce RTX 4090 24GB"), head
    assert "AMD" not in head
    assert "AMD Instinct MI300X 192GB 使用 ROCm" in reply


def test_a_named_warned_card_still_leads() -> None:
    reply = run_conversation(["summarize 2 million docs with llama 3.1 8b on MI300X, 800 tokens in 150 out, "
                              "3 days, rented"])[-1].content
    assert _head(reply).startswith("## Rent 1 × AMD Instinct MI300X 192GB"), _head(reply)


def test_the_rule_is_data_and_spares_cuda_and_named_cards() -> None:
    assert rules().software_risk_over_spread is True
    assert offer_spread().spread > 0
    w = Workload(model="llama-3.1-8b")
    assert software_risk_unasked(w, find_gpu("mi300x"))
    assert not software_risk_unasked(w, find_gpu("h100-sxm"))
    assert not software_risk_unasked(w.model_copy(update={"candidates": ["mi300x"]}), find_gpu("mi300x"))
    assert not software_risk_unasked(w.model_copy(update={"candidates": ["2x mi300x"]}), find_gpu("mi300x"))
    assert all(stack_warning(g) for g in map(find_gpu, ("mi300x", "ascend-910b")))
    assert stack_warning(find_gpu("h100-sxm")) is None
    assert STACK_PENALTY["cuda"] == 0.0


ASKED_ZH = [
    ("国企项目，要求国产化，部署 GLM-4-9B，昇腾910B行不行，并发大概50，首字延迟要求500ms以内", "全天候，业务系统一直开着"),
    ("只用国产卡，GLM-4-9B 上线，910B 可以吗？50 个并发，首 token 500ms 以内", "全天候"),
]
ASKED_EN = [
    ("domestic chips only, deploy GLM-4-9B, would the Ascend 910B work? 50 concurrent users, first token under 500ms",
     "around the clock"),
    ("domestic accelerators only: does the 910B work for GLM-4-9B with 50 users and a 500 ms first token?",
     "around the clock"),
]


@pytest.mark.parametrize("turns", ASKED_ZH)
def test_chinese_headline_answers_for_the_card_asked(turns: tuple[str, str]) -> None:
    plan = _plans(run_conversation(list(turns)))[-1]
    head = _head(plan.content)
    assert head.startswith("## 2 × Huawei Ascend 910B 64GB"), head
    assert "910C" not in head
    # '910B行不行' is a yes/no on that card (a fit check on it): its row is the table's
    assert "| 2 × Huawei Ascend 910B 64GB | 是 |" in plan.content


@pytest.mark.parametrize("turns", ASKED_EN)
def test_english_headline_answers_for_the_card_asked(turns: tuple[str, str]) -> None:
    plans = _plans(run_conversation([*turns, "make it 16k context"]))
    assert len(plans) >= 2  # the first plan and the one at 16k
    for reply in plans:  # kept on a later turn
        head = _head(reply.content)
        assert head.startswith("## 2 × Huawei Ascend 910B 64GB"), head
    assert "910C" not in _head(plans[0].content)
