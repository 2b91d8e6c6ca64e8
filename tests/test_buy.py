"""What the user says they will buy (how many cards, a budget, a hobbyist's scale) constrains the plan and its
headline (session 15, reviews AL 5, AL 20, AJ 11): never a count or card class nobody asked about."""

from __future__ import annotations

import re

import pytest

from tests.conversation import run_conversation

PRO = "NVIDIA RTX PRO 6000 Blackwell 96GB"
R5090 = "NVIDIA GeForce RTX 5090 32GB"


def _headline(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("## "))


def _verdict(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith(("**Verdict**", "**结论**")))


HOBBY = [
    ("en", "is the rtx pro 6000 blackwell (the 96gb one) worth it over just getting 2x 5090s? hobby use, mostly want "
           "to play with 70b models and maybe some qlora"),
    ("en", "hobby use: is one rtx pro 6000 96gb worth it over 2x rtx 5090? mostly 70b models, maybe some qlora"),
    ("en", "2x 5090s or a single rtx pro 6000 blackwell 96gb for playing with 70b models at home and a bit of qlora, "
           "just me, which is worth it"),
    ("zh", "业余玩玩，rtx pro 6000 96g 值不值得买，还是买两张5090？主要跑70b模型，偶尔qlora"),
]


@pytest.mark.parametrize(("lang", "text"), HOBBY)
def test_hobbyist_weighs_the_two_setups_named_at_the_precision_that_fits_each(lang: str, text: str) -> None:
    reply = run_conversation([text])[0].content
    head = _headline(reply)
    assert not re.search(r"\b8 × ", head), head  # never a server of cards for one hobbyist
    assert PRO in head and "1 × " in head
    # 2 x 5090 holds 70B at 4-bit: it does the job there, and the two are weighed on what buying each costs
    fits = "：放得下" if lang == "zh" else ": fits"
    at = f"2 × {R5090}（q4_k_m）" if lang == "zh" else f"2 × {R5090} in q4_k_m"
    assert at + fits in reply
    verdict = _verdict(reply)
    assert R5090 in verdict and ("购买价" in verdict if lang == "zh" else "to buy" in verdict)


TWO_CARDS = [
    ("zh", "我们想买两张卡做 qwen2.5-72b 的 qlora 微调，预算 6 万以内，自己公司机房放。买啥卡？"),
    ("zh", "预算6万，打算采购2块显卡放公司机房，做qwen2.5-72b的qlora微调，买什么卡"),
    ("zh", "qwen2.5-72b qlora 微调，买两张什么卡好？预算六万"),
    ("en", "we want to buy two cards for qlora fine-tuning of qwen2.5-72b, budget 8k usd, they go in our own server "
           "room. which cards?"),
    ("en", "qlora of qwen2.5 72b, which gpus? we can buy 2 cards, budget $8000"),
    ("en", "which 2 gpus should we buy for qlora of qwen 72b? budget is $8k"),
]


@pytest.mark.parametrize(("lang", "text"), TWO_CARDS)
def test_the_count_said_to_buy_is_the_plan(lang: str, text: str) -> None:
    reply = run_conversation([text])[0].content
    head = _headline(reply)
    assert head.startswith("## 购买 2 × " if lang == "zh" else "## Buy 2 × "), head
    assert "H800" not in head and "租" not in head
    budget = "没有超出你的预算" if lang == "zh" else "within your $8,000"
    assert budget in reply


def test_the_two_cards_to_buy_are_not_grown_when_serving_is_added() -> None:
    first, second = run_conversation(["我们想买两张卡做 qwen2.5-72b 的 qlora 微调，预算 6 万以内，自己公司机房放。买啥卡？",
                                      "等下，老板说还要能顺便部署推理，给20个人用，这样预算还够吗"])
    assert first.content.startswith("## 购买 2 × ") or "## 购买 2 × " in first.content
    table = [line for line in second.content.splitlines() if line.startswith("| ") and " × " in line]
    assert table and all(line.startswith("| 2 × ") for line in table), table  # never 4 or 8 cards
    assert "租用" not in _headline(second.content)


ON_PREM = [
    ("en", "we're a hospital network, need on-prem only (no cloud, patient data). llama 3.1 70b for clinical note "
           "summarization, around 5 requests per second, notes ~3k tokens, summaries 500 tokens, p99 ttft 3s. how many "
           "gpus to buy and what'll it cost"),
    ("en", "on-prem only, we will buy the hardware: llama 3.1 70b at 5 requests/s, 3k token prompts, 500 token "
           "outputs, p99 ttft under 3s. how many gpus and what does buying them cost?"),
    ("zh", "我们是医院，数据不能上云，只能自己买卡部署 llama 3.1 70b 做病历摘要，每秒大约5个请求，输入3k token，输出500，"
           "p99首token 3秒内，要买多少卡，多少钱"),
]


@pytest.mark.parametrize(("lang", "text"), ON_PREM)
def test_a_purchase_asked_at_a_rate_is_priced(lang: str, text: str) -> None:
    reply = run_conversation([text])[0].content
    head = _headline(reply)
    assert head.startswith("## 购买" if lang == "zh" else "## Buy"), head
    assert "B200" not in head  # a card whose purchase price is on record
    assert re.search(r"H100|H800|H200|H20", head), head
    plan_row = next(line for line in reply.splitlines() if line.startswith("| 8 × "))
    assert re.search(r"\$\d{3},\d{3}", plan_row), plan_row  # what buying it costs, in the plan's own row
    assert "no purchase price on record" not in reply and "没有购买价" not in reply


NO_PREFERENCE = [
    ("en", "H100 or H200 for serving llama 3.3 70b at fp8 to ~60 concurrent users with 16k context? which is better value"),
    ("zh", "H100 还是 H200 性价比高？部署 llama 3.3 70b fp8，60 人同时用，16k 上下文"),
    ("en", "serve llama 3.3 70b fp8 to 60 concurrent users at 16k context on h200s"),
]


@pytest.mark.parametrize(("lang", "text"), NO_PREFERENCE)
def test_a_whole_server_nobody_asked_for_says_the_cards_the_job_needs_first(lang: str, text: str) -> None:
    reply = run_conversation([text])[0].content
    first = reply.splitlines()[0]
    # (session 21: a whole server nobody asked to buy, on an assumed horizon, is rented at the job's count, review BS #7;
    # the rent-or-buy line says buying prices the whole server)
    assert first.startswith("## 租用 4 × NVIDIA H200" if lang == "zh" else "## Rent 4 × NVIDIA H200"), first
    assert ("整台服务器" if lang == "zh" else "prices the whole server") in reply  # buying said as a whole server


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "we need to fine tune llama 3.1 405b with lora on 2B tokens. how many h100s and how long? also whats the "
           "inference setup afterwards for ~50 users"),
    ("en", "lora fine-tune llama 3.1 405b on 2B tokens, then serve it to about 50 users: how many h100s, how long"),
    ("zh", "用 lora 微调 llama 3.1 405b，数据20亿 token，要几张 h100、跑多久？之后给大约50人部署推理"),
])
def test_train_then_serve_says_why_rent_is_priced_around_the_clock(lang: str, text: str) -> None:
    reply = run_conversation([text])[0].content
    assert ("在 100% 的利用率下" if lang == "zh" else "at 100% utilisation") in reply  # the rent-or-buy line's hours ...
    assert ("按全天候计费" if lang == "zh" else "billed around the clock") in reply  # ... said, not 24% against it
