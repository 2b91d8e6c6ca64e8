"""Usage said over a period (session 15 'usage'): tokens a month or a day set the average load, never a training
set; a head-count beside them is who uses it, not people at once; 'would self-hosting be cheaper than the API I pay'
is answered by pricing both at that usage (tools.api_compare)."""

from __future__ import annotations

from typing import Any

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import rules
from tests.conversation import run_conversation


def _data(turns: list[str]) -> dict[str, Any]:
    return run_conversation(turns)[-1].additional_kwargs.get("gpu_advisor") or {}


# ---------------------------------------------------------------- tokens over a period: usage, not a dataset

@pytest.mark.parametrize("text, tokens, per_month", [
    ("I run a tiny discord bot for like 200 ppl, currently paying openrouter for llama 3.3 70b, about 15M tokens a "
     "month total. would self hosting on a rented gpu be cheaper?", 15e6, 15.0),
    ("we use about 15 million tokens per month of llama 3.3 70b through openrouter. cheaper to self host?", 15e6, 15.0),
    ("monthly usage is around 15M tokens on the together api (llama 3.3 70b), would self hosting save money?", 15e6, 15.0),
    ("llama 3.3 70b via the api, 15m tok/month, is renting a gpu cheaper?", 15e6, 15.0),
    ("so uh we burn through 2M tokens a day on llama 3.3 70b via groq - cheaper to self host?", 2e6, 60.8),
    ("我们每个月大概用2000万token，调的是deepseek的api，自己租卡部署会不会更便宜", 2e7, 20.0),
    ("现在用openrouter的api跑llama 3.3 70b，一个月大概1500万token，自己租gpu部署划算吗", 1.5e7, 15.0),
    ("llama 3.3 70b 每天调用100万个token左右，走的api，租卡自建会不会更省钱？", 1e6, 30.4),
    ("每月token用量大约3000万，用的qwen2.5 72b的api，自己租卡会便宜吗", 3e7, 30.0),
])
def test_tokens_over_a_period_are_usage(text: str, tokens: float, per_month: float) -> None:
    u = understand(text)
    assert "train_tokens" not in u.updates and "context" not in u.updates
    assert 0 < u.updates["requests_per_s"] < 0.01  # a few tokens a second on average: a trickle of requests
    assert u.ask["break_even"]["usage_million_per_month"] == pytest.approx(per_month, rel=0.01)
    assert "users" not in u.updates  # never people at once
    assert not u.ask.get("per_token")


@pytest.mark.parametrize("text", [
    "fine-tune llama 3.1 8b on 15M tokens of support chats",
    "serve llama 3.1 8b for 20 users at 32k context",
    "我们要用1500万token的数据微调qwen2.5 7b",
])
def test_no_period_no_usage(text: str) -> None:
    u = understand(text)
    assert "break_even" not in u.ask and not any(k.startswith("usage.") for k, _v in u.notes)


# ---------------------------------------------------------------- self-hosting against the API, at that usage

@pytest.mark.parametrize("turns, lang, verdict", [
    (["I run a tiny discord bot for like 200 ppl, currently paying openrouter for llama 3.3 70b, about 15M tokens a "
      "month total. would self hosting on a rented gpu be cheaper?"], "en", "Self-hosting is cheaper only if"),
    (["about 15M tokens a month of llama 3.3 70b on openrouter for our discord bot (200 people). self hosting on "
      "a rented gpu cheaper or nah"], "en", "Self-hosting is cheaper only if"),
    (["现在用openrouter的api跑llama 3.3 70b，一个月大概1500万token，自己租gpu部署划算吗"], "zh", "自建才更便宜"),
    # DeepSeek's API named: weighed at its main API's dated list price (deepseek-chat), no price asked (review s21 #3)
    (["我们每个月大概用2000万token，调的是deepseek的api，自己租卡部署会不会更便宜", "DeepSeek-V3.1"], "zh", "继续用 API"),
])
def test_api_weighed_at_usage(turns: list[str], lang: str, verdict: str) -> None:
    d = _data(turns)
    profile, r = d["profile"], d["results"]
    assert not profile.get("train_tokens") and not profile.get("users")
    api = r["api_compare"]
    usage = api["terms"][-1]["inputs"]["usage_million_per_month"]
    assert api["price_to_win_usd_per_million"] == pytest.approx(api["month_usd"] / usage)
    assert api["price_to_win_usd_per_million"] > 5  # far above what an API charges for a trickle: the API wins
    text = run_conversation(turns)[-1].content
    assert text.index(verdict) < text.index("##")


@pytest.mark.parametrize("text", [
    "currently paying together $0.88 per million for llama 3.3 70b, we use about 2M tokens a day. would running it "
    "ourselves on rented gpus be cheaper?",
    "we use 60M tokens a month of llama 3.3 70b, the api charges 0.88 dollars per million tokens. self hosting cheaper?",
    "llama 3.3 70b的api每百万token 6元，我们每月大概用6000万token，自己租卡部署会不会更便宜",
])
def test_api_price_given_stay_on_api(text: str) -> None:
    d = _data([text])
    r = d["results"]
    api = r["api_compare"]
    assert api["self_wins_at_usage"] is False
    assert api["api_usd_at_usage"] < api["month_usd"]
    assert api["break_even_million_per_month"] > 100  # break-even far above the usage
    best = r["recommend"]["best"]
    assert best["gpus"] <= 2


# ---------------------------------------------------------------- a per-item length said after 'avg', '平均', 'each'

@pytest.mark.parametrize("text", [
    "need to embed ~300M short docs (avg 150 tokens) with bge-m3 for a search index, gotta be done by monday "
    "morning, it's friday noon. cheapest way? cloud is fine",
    "embed 300M docs with bge-m3, avg 150 tokens each, within 60 hours, cheapest way",
    "embed 300M docs with bge-m3 (150 tokens avg), cheapest way, done in 3 days",
    "embed 300M docs averaging 150 tokens with bge-m3 within 60 hours, cheapest way",
    "so um we have like 300M docs, average 150 tokens, need bge-m3 embeddings in 60h, cheapest option?",
    "bge-m3 embeddings for 300 million short documents (~150 tokens on average), within 60 hours",
    "avg 150 tokens per doc, 300M docs, bge-m3 embeddings in 60 hours",
    "embed 300M docs (avg 150) with bge-m3 within 60 hours",
    "用bge-m3给3亿条短文本做向量（平均150 token），60小时内要跑完，最便宜怎么弄",
    "3亿条文档（平均150个token）用bge-m3做embedding，60小时内",
    "3亿条文本，每条平均150个token，用bge-m3做embedding，60小时内完成，最便宜的方案",
    "平均150 token一条，共3亿条，bge-m3向量化，60小时",
    "bge-m3 向量化 3 亿条短文（每条约 150 token），三天内搞定，便宜点",
])
def test_average_item_length_is_read(text: str) -> None:
    u = understand(text)
    assert u.updates["batch_items"] == 300_000_000 and u.updates["batch_input_tokens"] == 150


@pytest.mark.parametrize("text", [
    "need to embed ~300M short docs (avg 150 tokens) with bge-m3 for a search index, gotta be done by monday "
    "morning, it's friday noon. cheapest way? cloud is fine",
    "用bge-m3给3亿条短文本做向量（平均150 token），60小时内要跑完，最便宜怎么弄",
])
def test_embedding_job_sized_on_the_length_said(text: str) -> None:
    d = _data([text])
    assert d["profile"]["batch_input_tokens"] == 150 and d["profile"]["batch_items"] == 300_000_000
    best = d["results"]["recommend"]["best"]
    assert best["job_hours"] <= 69 and best["gpus"] <= 4  # 45B tokens read, not 300B: a few cards, not nine


@pytest.mark.parametrize("text, population", [
    ("discord bot for 200 ppl, about 3000 requests a day, llama 3.1 8b", 200),
    ("about 3000 requests a day from the 200 people on our discord, llama 3.1 8b", 200),
    ("给200人用的内部机器人，每天大概3000个请求，qwen2.5 7b", 200),
    ("每天大概3000个请求，200个人在用，qwen2.5 7b", 200),
    ("qwen2.5 7b，200人使用，每天3000次请求", 200),
])
def test_head_count_beside_a_daily_rate_is_who_uses_it(text: str, population: int) -> None:
    u = understand(text)
    assert u.updates.get("population") == population and "users" not in u.updates
    peak = rules().daily_requests_peak_factor  # a day's requests: the busiest hour (reading.load)
    assert u.updates["requests_per_s"] == pytest.approx(3000 / 86400 * peak, rel=0.01)


@pytest.mark.parametrize("text, users", [
    ("200 concurrent users, 3000 requests a day, llama 3.1 8b", 200),
    ("200人同时在线，每天3000个请求，qwen2.5 7b", 200),
    ("serve llama 3.1 8b, context window of 64k tokens and 200 users", 200),
    ("context window of 32k tokens and for around 40 customers, host qwen2.5 72b pls", 40),
])
def test_people_at_once_stay_at_once(text: str, users: int) -> None:
    u = understand(text)
    assert u.updates.get("users") == users and "break_even" not in u.ask
