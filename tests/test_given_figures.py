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


# 4. A machine's price 'per 8-GPU server' for 16 cards prices two servers; 'colo+power' holds the power.
MACHINES = [
    "buy vs rent question. we'd need 16x H100 for inference running 24/7 for 3 yrs. vendor quote is ~280k usd per "
    "8-GPU server, colo+power maybe 3k/month per server. alternative is a 3 yr reserved contract at 2.10 per gpu-hour. "
    "which is cheaper and by how much?",
    "rent or buy 16x H100 for 3 years 24/7: reserved at 2.10 per gpu-hour, or buy at 280k usd per 8-gpu server with "
    "colo+power 3k/month per server?",
    "买还是租：要16张H100跑推理，三年7x24，整机报价每台8卡28万美元，托管加电费每台每月3千美元，三年包租每卡每小时2.1美元，哪个便宜，差多少",
]


@pytest.mark.parametrize("text", MACHINES)
def test_machine_size_and_power_in_hosting_are_read(text: str):
    u = understand(text)
    assert u.prices.get("buy_usd_machine") == 280000 and u.prices.get("machine_gpus") == 8, u.prices
    assert u.prices.get("hosting_with_power") == 1.0, u.prices
    assert u.counts.get("h100-sxm") == 16, u.counts
    assert [q.get("buy_usd_per_gpu") for q in u.quotes if q.get("gpu") == "h100-sxm"] == [35000.0], u.quotes


def _terms(reply) -> dict[str, float]:
    results = reply.additional_kwargs["gpu_advisor"]["results"]["rent_or_buy"]
    return {t["key"]: t["value"] for t in results["terms"]}


@pytest.mark.parametrize("text", [MACHINES[0], MACHINES[2]])
def test_two_servers_priced_and_no_power_added(text: str):
    from tests.conversation import run_conversation

    terms = _terms(run_conversation([text])[-1])
    assert terms["rent_total_usd"] == pytest.approx(883008, rel=0.001)  # 2.10 x 16 x 730 x 36
    assert terms["buy_total_usd"] == pytest.approx(776000, rel=0.001)  # 2 x 280k + 2 x 3k x 36, no power on top


# 5. A rent per card-hour the user says is the rent used (it was replaced by the catalog's).
RENTS = [
    ("想算下买还是租：8 张 H20 的整机报价大概 110 万人民币，云上租 H20 大概 15 块钱一卡一小时。用三年，7x24 基本满载跑推理，电费一块钱一度。"
     "哪个划算，差多少？", 2.1),
    ("buy or rent 8x H20 for 3 years 24/7: the whole 8-card server is quoted at 154k usd, renting an H20 is about "
     "2.10 per card-hour, power 0.14 per kwh. which is cheaper and by how much?", 2.1),
]


@pytest.mark.parametrize(("text", "rent"), RENTS)
def test_rent_said_is_the_rent_used(text: str, rent: float):
    from tests.conversation import run_conversation

    terms = _terms(run_conversation([text])[-1])
    assert terms["rent_total_usd"] == pytest.approx(rent * 8 * 730 * 36, rel=0.002), terms


# 6. Prices said for cards are their prices (a total for two), not a budget, with the card's figures in brackets too.
CARD_PRICES = [
    "is a used rtx a6000 (48gb) for 3500 bucks a better buy than two used 3090s for 1600 total? i want to qlora 32b "
    "models and chat with 70b at q4",
    "is a used rtx a6000 for 3500 bucks a better buy than two used 3090s for 1600 total?",
    "two used 3090s for 1600 total or a used rtx a6000 (48gb) at 3500?",
    "二手A6000（48G）3500美元，和两张二手3090一共1600美元，哪个更值",
    "两张二手3090一共1600美元，还是二手A6000 (48G) 3500美元？",
]


@pytest.mark.parametrize("text", CARD_PRICES)
def test_card_prices_are_prices_not_a_budget(text: str):
    u = understand(text)
    prices = {q["gpu"]: q.get("buy_usd_per_gpu") for q in u.quotes}
    assert prices == {"rtx-a6000": 3500.0, "rtx-3090": 800.0}, u.quotes
    assert "budget_usd" not in u.updates, u.updates
