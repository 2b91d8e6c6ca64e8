"""Numbers that take their right role: a span with its half is its months, a box's monthly price is the
box's, a week's hours are a utilisation, a budget is a budget, a daily volume has its day (issue 21's first
class; reviews AG/AH/AI at 94d9033)."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand

HALF_YEARS = [
    ("租4张4090一个月大概多少钱？如果要用一年半，自己买卡装机是不是更划算？", 18),
    ("如果要用一年半，4张4090租还是买划算", 18),
    ("4张4090，用18个月的话租还是买", 18),
    ("4张4090租还是买，打算用1.5年", 18),
    ("4张4090如果用两年半呢，租还是买", 30),
    ("rent or buy 4x 4090, we'd use them for a year and a half", 18),
    ("we'd keep them one and a half years, rent or buy 4 4090s?", 18),
    ("buy or rent 4 4090s over 1.5 years", 18),
    ("is buying 4 4090s cheaper than renting if we use them for 18 months", 18),
    ("rent or buy 4x 4090 over two and a half years", 30),
    ("rent or buy 4x 4090 over 2 years", 24),
]


@pytest.mark.parametrize(("text", "months"), HALF_YEARS)
def test_a_span_with_its_half_is_its_months(text: str, months: int) -> None:
    assert understand(text).updates.get("horizon_months") == months


BOX_MONTHS = [  # (message, the box's month in USD said, in yuan or dollars)
    ("we're paying roughly 18k a month renting an 8x h100 box. if we keep this workload steady for 2 yrs is buying"
     " cheaper? colo + power would be maybe 2.5k/mo", 18000.0),
    ("we pay 18k every month to rent an 8x h100 box, buy cheaper over 2 years?", 18000.0),
    ("an 8x h100 box costs us 18k a month to rent, is buying cheaper over 2 years", 18000.0),
    ("we rent an 8x h100 server for about 18k/mo. buying cheaper over 2 years?", 18000.0),
    ("每月租一台8卡H100要12万，用两年的话买是不是更便宜", 120000.0),
    ("租一台8卡H100每月12万，用两年的话买是不是更便宜", 120000.0),
    ("我们现在每个月花12万租一台8卡H100服务器，打算用两年，买是不是更划算", 120000.0),
]


@pytest.mark.parametrize(("text", "said"), BOX_MONTHS)
def test_a_box_month_is_the_box_month(text: str, said: float) -> None:
    from gpu_advisor.knowledge import rules

    u = understand(text)
    usd = said * (rules().usd_per_cny if u.lang == "zh" else 1.0)
    machine = u.prices.get("rent_usd_per_month_machine")
    per_card = u.prices.get("rent_usd_per_month")
    assert "buy_usd" not in u.prices and "buy_usd_machine" not in u.prices
    assert (machine is not None and machine == pytest.approx(usd)) or \
        (per_card is not None and per_card == pytest.approx(usd / 8))
    assert u.prices.get("horizon_months") == 24


WEEK_HOURS = [  # (message, hours a week)
    ("花两万块买张4090玩大模型到底值不值？还是直接租云GPU更划算，我一般周末玩玩，一周也就十来个小时", 10),
    ("周末用一下，一周十来个小时，买4090还是租", 10),
    ("我周末用，每周10小时左右，4090值得买吗", 10),
    ("一个星期大概玩个十几小时吧，周末用，4090买还是租", 15),
    ("每周用10个小时左右，买4090还是租", 10),
    ("is a 4090 worth buying vs renting? i only use it at weekends, about 10 hours a week", 10),
    ("about 10 hours a week, mostly at weekends. buy a 4090 or rent?", 10),
    ("is a 4090 worth it or should i rent? weekends only, maybe 10 hrs a week", 10),
]


@pytest.mark.parametrize(("text", "hours"), WEEK_HOURS)
def test_hours_a_week_are_the_share_and_the_weekend_no_deadline(text: str, hours: int) -> None:
    u = understand(text)
    assert u.updates.get("utilisation") == pytest.approx(hours / 168, abs=0.002)
    assert "deadline_hours" not in u.updates


MONTHLY_BUDGETS = [  # a monthly budget with a request rate: the money's month, never runs a month nor a second job
    ("部署Qwen2.5-14B，预算每个月一万块以内，要求每秒能处理5个请求，平均输入2000 token输出500，用什么卡", 5.0),
    ("部署Qwen2.5-14B，每秒要处理5个请求，预算每月1万块以内，输入2000 token输出500", 5.0),
    ("用什么卡跑Qwen2.5-14B？每分钟要处理300个请求，每月预算1万以内", 5.0),
    ("deploy qwen2.5 14b, budget under 10k a month, 5 requests per second, 2000 in 500 out, which card", 5.0),
    ("deploy qwen2.5 14b, 5 requests per second, budget each month 10k max, which card", 5.0),
]


@pytest.mark.parametrize(("text", "rps"), MONTHLY_BUDGETS)
def test_a_monthly_budget_is_a_budget(text: str, rps: float) -> None:
    u = understand(text)
    assert u.updates.get("budget_usd_per_month")
    assert "runs_per_month" not in u.updates and u.second is None
    assert u.updates.get("phase") == "serve" and u.updates.get("requests_per_s") == pytest.approx(rps)


BUDGETS_NOT_CONTEXTS = [
    "we run a 4x A6000 box (48gb each, no nvlink) serving llama 3.1 70b awq for about 20 people. users are complaining"
    " its slow. should we buy another box or upgrade to something else? budget maybe 40k",
    "serving llama 3.1 70b for 20 people on our 4x a6000, budget probably 40k, buy another box?",
    "我们有4张A6000跑llama 3.1 70b awq，20个人用，太慢了，预算大概4万美元，再买一台还是升级",
]


@pytest.mark.parametrize("text", BUDGETS_NOT_CONTEXTS)
def test_a_budget_in_thousands_is_no_context(text: str) -> None:
    u = understand(text)
    assert u.updates.get("budget_usd") == 40000.0
    assert "context" not in u.updates


UNIT_PRICES = [
    "what's the cost per 1M output tokens if i self host llama 3.3 70b on rented h100s at decent load, vs just paying"
    " an api like together? at what volume does self hosting win",
    "self hosting llama 3.3 70b on h100s, what's the price per million output tokens vs an api?",
    "i just want the $/1M tokens comparison for llama 3.3 70b on h100",
    "自己在租的H100上部署llama 3.3 70b，每百万输出token多少钱？和调API比呢",
    "H100自建llama 3.3 70b，每百万token多少钱",
]


@pytest.mark.parametrize("text", UNIT_PRICES)
def test_a_price_per_million_tokens_is_a_unit_asked(text: str) -> None:
    u = understand(text)
    assert u.ask.get("per_token") is True
    assert all(u.updates.get(k) != 1_000_000 for k in ("output_tokens", "context", "prompt_tokens", "train_tokens"))
    assert (u.updates.get("context") or 0) < 1_000_000


DAILY_VOLUMES = [  # a batch volume said per day: one day's work, due within the day
    "每天要处理50万份合同，每份大概6000 token，要抽20个字段，输出500 token左右，模型用qwen2.5-32b，当天必须跑完，要几张H20？",
    "用qwen2.5-32b抽取合同字段，每天50万份，每份6000 token，输出500 token，要几张H20",
    "合同抽取，qwen2.5-32b，50万份合同每份6000 token输出500，当天必须处理完，H20要几张",
    "we need to generate about 2 billion tokens of synthetic data per day (output tokens, prompts are short ~200) with"
    " llama 3.1 70b instruct. cheapest rented setup that keeps up?",
    "batch job: 500k contracts a day, 6000 tokens each, 500 out, qwen2.5 32b, how many h20s",
    "with qwen2.5 32b we process 500k documents daily (6k tokens in, 500 out), must finish the same day. how many h20?",
]


@pytest.mark.parametrize("text", DAILY_VOLUMES)
def test_a_daily_volume_is_due_within_the_day(text: str) -> None:
    u = understand(text)
    assert u.updates.get("phase") == "batch"
    assert u.updates.get("deadline_hours") == 24.0
    if "当天必须处理完" not in text:  # 'due the same day' alone says one day, not every day
        assert u.updates.get("runs_per_month") == 30.0


def test_a_daily_volume_counts_the_cards_for_the_day() -> None:
    from tests.conversation import run_conversation

    reply = run_conversation(["每天要处理50万份合同，每份大概6000 token，要抽20个字段，输出500 token左右，模型用qwen2.5-32b，"
                              "当天必须跑完，要几张H20？"])[-1].content
    assert "24" in reply and "540" not in reply and "1 × NVIDIA H20" not in reply


def test_a_one_off_volume_has_no_day() -> None:
    u = understand("batch job: 500k contracts, 6000 tokens each, 500 out, qwen2.5 32b, how many h20s")
    assert "deadline_hours" not in u.updates


EXAMPLES_TIMES_LENGTH = [
    "want to lora finetune mistral 7b on ~50k support convos (avg 700 tokens), renting an a100 for it",
    "lora mistral 7b, 50k convos avg 700 tok, rent an a100",
    "lora fine-tune mistral 7b on 50,000 customer conversations averaging 700 tokens",
    "we have 50k chats, about 700 tokens each, lora mistral 7b",
    "lora finetune mistral 7b on 50k conversations x ~700 tokens",
    "想用lora微调mistral 7b，5万条对话，每条700 token左右，租A100",
    "5万条客服对话，平均每条700 token，lora微调mistral 7b",
]


@pytest.mark.parametrize("text", EXAMPLES_TIMES_LENGTH)
def test_examples_times_their_length_are_the_training_tokens(text: str) -> None:
    u = understand(text)
    assert u.updates.get("train_tokens") == 35_000_000
    assert u.updates.get("train_examples") == 50_000


def test_same_data_keeps_its_tokens_after_a_change_of_model() -> None:
    from tests.conversation import run_conversation

    replies = run_conversation(["want to lora finetune mistral 7b on ~50k support convos (avg 700 tokens), renting an a100",
                                "wait actually make it qwen2.5 14b, and full fine tune instead of lora. same data"])
    assert all("35M" in r.content and "20M" not in r.content for r in replies)
