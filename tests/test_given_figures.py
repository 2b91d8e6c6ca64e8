"""Figures the user gives keep their role and are used (session 13, round 3, h-figures): generated phrasings in
English and Chinese, asserting the slots read."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand

# 1. "N prompts x M samples each" in a job that does not train: N x M generations are the job's items.
SAMPLES = [
    "need to run an eval: 5000 prompts x 8 samples each through qwen2.5 7b, outputs avg ~4k tokens, prompts 200",
    "eval qwen2.5 7b: 5000 prompts, 8 samples per prompt, 200 in 4k out",
    "eval with qwen2.5 7b: 8 samples per prompt over 5000 prompts, prompts 200 tokens, outputs 4k",
    "5000 prompts x 8 samples each with qwen2.5 7b, 200 in 4k out, how long on one h100",
    "batch generation on qwen2.5 7b, 5000 questions × 8 completions each, inputs 200 tokens, outputs 4k",
    "评测 qwen2.5 7b：5000条 × 每条8个采样，输入200，输出4k",
    "用qwen2.5 7b 跑评测，每条采样8次，共5000条题目，输入200，输出4k",
    "评测用qwen2.5 7b，5000个问题，每个问题生成8个回答，输入200输出4k",
]


@pytest.mark.parametrize("text", SAMPLES)
def test_prompts_times_samples_are_items(text: str):
    u = understand(text)
    assert u.updates.get("batch_items") == 40000, u.updates
    assert "train_examples" not in u.updates and "rl_samples" not in u.updates, u.updates
    assert u.updates.get("batch_output_tokens") == 4000, u.updates
    assert any(key == "note.items_from_samples" for key, _ in u.notes), u.notes


@pytest.mark.parametrize("text", [
    "grpo on qwen2.5 7b, 5000 prompts x 8 samples each, completions 1k",
    "grpo qwen2.5 7b，每条采样8个，5000条prompt",
])
def test_rl_keeps_prompts_and_group(text: str):
    u = understand(text)
    assert u.updates.get("rl_prompts") == 5000 and u.updates.get("rl_samples") == 8, u.updates
    assert "batch_items" not in u.updates


# 2. A bare number after a rate with a peak word keeps the rate's unit: '12 at peak' is 12 requests a second.
PEAK = [
    "serve gemma 2 27b for a doc api. ~4 req/s avg, 12 at peak, prompts around 6k tokens, outputs ~150",
    "serve gemma 2 27b, 4 rps normally, 12 during peak hours, prompts 6k, outputs 150",
    "prompts 6k, outputs 150, gemma 2 27b api: 4 requests per second on average and 12 at the peak",
    "gemma 2 27b 部署，平均每秒4个请求，峰值12，输入6k输出150",
    "gemma 2 27b 部署，平时 4 qps，12 左右是高峰，输入6k输出150",
    "gemma 2 27b 部署，输入6k输出150，平均每秒4个请求，高峰时12个左右",
]


@pytest.mark.parametrize("text", PEAK)
def test_peak_after_a_rate_is_a_rate(text: str):
    u = understand(text)
    assert u.updates.get("requests_per_s") == 12.0, u.updates
    assert "users" not in u.updates, u.updates


def test_people_at_peak_stay_people():
    u = understand("serve gemma 2 27b to 12 users at peak")
    assert u.updates.get("users") == 12 and "requests_per_s" not in u.updates, u.updates


# 3. Daily users x requests per person a day: the day's requests, sized at the busiest hour's rate.
DAILY = [
    "创业公司做法律问答，模型 Qwen2.5-32B，日活两万，每人每天大概问 10 次，每次输入 4k 输出 600 左右。",
    "qwen2.5 32b，每人每天问10次左右，日活2万，输入4k输出600",
    "qwen2.5 32b，每天2万人用，人均每天10次提问，输入4k输出600",
    "serve qwen2.5 32b, 20k daily active users, each asks about 10 questions a day, 4k in 600 out",
    "qwen2.5 32b: 10 queries per user per day, 20k DAU, prompts 4k, outputs 600",
    "qwen2.5 32b, 20k dau averaging 10 requests per user per day, prompts 4k, outputs 600",
]


@pytest.mark.parametrize("text", DAILY)
def test_requests_per_person_a_day_make_a_rate(text: str):
    u = understand(text)
    # 20,000 x 10 a day = 200,000, 2.31 a second on average, x3 at the busiest hour (rules.daily_requests_peak_factor)
    assert u.updates.get("requests_per_s") == pytest.approx(6.94, rel=0.01), u.updates
    assert "population" not in u.updates, u.updates
    assert any(key == "note.daily_asks_rate" for key, _ in u.notes), u.notes


def test_daily_users_alone_stay_a_population():
    u = understand("qwen2.5 32b, 20k daily users")
    assert u.updates.get("population") == 20000 and "requests_per_s" not in u.updates, u.updates


# 7. 'prompts 2k / outputs 300' and its forms: the prompt's length said is used (it was sized at 4,096).
PROMPTS = [
    "plan: full finetune llama 3.1 8b on 3B tokens, then serve it at 10 rps, prompts 2k / outputs 300. we rent",
    "先全参微调 llama 3.1 8b，3B token，然后部署，每秒10个请求，输入2k/输出300",
    "serve llama 3.1 8b at 10 rps, 2k prompts / 300 outputs",
    "serve llama 3.1 8b at 10 rps, outputs 300 / prompts 2k",
    "部署 llama 3.1 8b，每秒10个请求，输出300，输入2k",
]


@pytest.mark.parametrize("text", PROMPTS)
def test_prompt_length_said_is_used(text: str):
    u = understand(text)
    assert u.updates.get("prompt_tokens") == 2000 and u.updates.get("output_tokens") == 300, u.updates
    assert u.updates.get("requests_per_s") == 10.0, u.updates
