"""Numbers and words about time take their own role (issue 21): how long the cards are kept is the rent-or-buy
horizon, in any order and spelling, in English and Chinese; time gone by is history."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import answer_to, payload

EN_YEARS = [(1, "1"), (2, "2"), (2, "two"), (3, "three"), (4, "4"), (5, "five")]
ZH_YEARS = [(1, "一"), (2, "两"), (2, "2"), (3, "三"), (4, "4"), (5, "五")]
EN_HORIZON = ["we'd use it for {n} years", "over {n} years", "keep them for {n} years", "amortised over {n} years",
              "for {n} yrs", "over a {n} year horizon", "{n} year depreciation"]
ZH_HORIZON = ["用{n}年", "打算用{n}年", "按{n}年折旧", "{n}年", "用上{n}年", "大概用{n}年"]
EN_ASK = ["rent or buy an H100 for serving llama 3.1 70b", "should we rent or buy 8 H100s", "rent or buy?",
          "serve qwen2.5 7b for 20 users, rent or buy"]
ZH_ASK = ["租还是买H100，跑qwen2.5-72b推理", "租还是买", "部署qwen2.5-7b给20个人用，租划算还是买划算", "自己买卡还是租卡"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_how_long_the_cards_are_kept_is_the_horizon_in_either_order(lang: str):
    years, horizons, asks = (EN_YEARS, EN_HORIZON, EN_ASK) if lang == "en" else (ZH_YEARS, ZH_HORIZON, ZH_ASK)
    sep = ", " if lang == "en" else "，"
    for (n, said), form, ask in itertools.product(years, horizons, asks):
        for text in (ask + sep + form.format(n=said), form.format(n=said) + sep + ask):
            u = understand(text)
            assert u.updates.get("horizon_months") == 12 * n, (text, u.updates)
            assert "rent_buy" in u.intents, text


@pytest.mark.parametrize(("text", "months"), [
    ("rent or buy, keep them 18 months", 18), ("rent or buy over 6 months", 6), ("租还是买，用18个月", 18),
    ("租还是买，用十八个月", 18), ("租还是买，用半年", 6),  # 半年 is read since session 14 (h-numbers: 一年半 is 18) ("rent or buy over ten years", 120),
])
def test_a_horizon_in_months(text: str, months: int | None):
    assert understand(text).updates.get("horizon_months") == months


@pytest.mark.parametrize("text", [
    "we've been running it for 2 years, rent or buy?", "rent or buy? we bought the last cards 3 years ago",
    "我们已经用了两年了，租还是买", "serve llama 3.1 8b for 20 users", "部署qwen2.5-7b给20个人用",
    "rent or buy? the team has 5 years of experience",
])
def test_time_gone_by_or_no_time_is_no_horizon(text: str):
    assert "horizon_months" not in understand(text).updates


def test_the_plans_rent_or_buy_is_over_the_horizon_said():
    answer = answer_to("rent or buy for serving qwen2.5 7b to 20 users, we'd use it for two years")
    rb = payload(answer)["results"]["recommend"]["rent_or_buy"]
    assert rb["horizon_months"] == 24
    assert "24 months" in answer.content


def test_the_horizon_said_in_chinese_is_said_back_and_used():
    answer = answer_to("租还是买H100，用两年，跑qwen2.5-72b推理")
    assert payload(answer)["results"]["recommend"]["rent_or_buy"]["horizon_months"] == 24
    assert "租还是买按 24 个月算" in answer.content and "36 个月" not in answer.content


# ---------------------------------------------------------------- training already done is history

EN_PAST = ["we trained our own {n}B model", "we've fine-tuned our own {n}B model", "we already trained a {n}B model",
           "I finetuned a {n}B model", "we pretrained our own {n}B from scratch", "our team trained a {n}B model"]
EN_SERVE = ["and want to serve it", "now we need to serve it to {u} users", "want to deploy it for {u} people"]
ZH_PAST = ["我们自己训了一个{n}B的模型", "我们微调了一个{n}B模型", "我们自己预训练了一个{n}B的模型", "公司训练好的{n}B模型",
           "我们训过一个{n}B的模型"]
ZH_SERVE = ["要部署", "想部署给{u}个人用", "现在要上线给{u}人用"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_model_trained_before_is_served_not_trained_again(lang: str):
    past, serve, sep = (EN_PAST, EN_SERVE, " ") if lang == "en" else (ZH_PAST, ZH_SERVE, "，")
    for form, then, (n, u) in itertools.product(past, serve, [(20, 30), (13, 50), (34, 200)]):
        text = form.format(n=n) + sep + then.format(u=u)
        got = understand(text)
        assert got.updates.get("phase") == "serve", (text, got.updates)
        assert got.updates.get("model") == f"{n}B", (text, got.updates)
        if "{u}" in then:  # a company's count of 100 or more is its people, a population (session 28, user_population)
            said = "population" if u >= 100 and "公司" in form else "users"
            assert got.updates.get(said) == u, (text, got.updates)
        assert ("note.own_model_sized", {"size": f"{n}B"}) in got.notes, (text, got.notes)


@pytest.mark.parametrize(("text", "phase"), [
    ("we trained a 7b last month, now we want to fine-tune llama 3.1 70b", "fine-tune"),
    ("fine-tune llama 3.1 8b and serve it to 20 users", "train-and-serve"),
    ("pretrain a 1B model from scratch on 20B tokens", "pretrain"),
    ("我们上个月训了一个7B，现在想微调qwen2.5-72b", "fine-tune"),
    ("a fine-tuned llama 3.1 8b for 20 users", "serve"),
])
def test_a_new_training_job_still_trains(text: str, phase: str):
    assert understand(text).updates.get("phase") == phase


def ask(text: str):
    """One message answered at once, as `gpu-advisor ask` does: every missing value a stated assumption."""
    from langchain_core.messages import HumanMessage

    from gpu_advisor.assistant.engine import engine_graph

    return engine_graph.invoke({"messages": [HumanMessage(text)], "oneshot": True})["messages"][-1]


def test_the_own_model_is_said_to_be_sized_by_its_parameter_count():
    answer = ask("we trained our own 20B model and want to serve it to 30 users")
    assert "Your own 20B model" in answer.content and "Fine-tuning" not in answer.content
    zh = ask("我们自己训了一个20B的模型，要部署给30个人用")
    assert "你们自己的 20B 模型" in zh.content and "微调" not in zh.content


# ---------------------------------------------------------------- a user count expected by a date

EN_GROWTH = ["actually users is like {n} by {when}", "users by {when} will be {n}", "so users are {n} by {when}",
             "update: users will be {n} by {when}", "actually, users is {n} by {when}", "users are like {n} by {when}"]
EN_WHEN = ["march", "q3", "end of june", "next year", "launch"]
ZH_GROWTH = ["到{when}用户会到{n}", "用户数到{when}会涨到{n}", "{when}用户会涨到{n}", "用户{when}会达到{n}", "到{when}用户数会增长到{n}"]
ZH_WHEN = ["3月", "三月", "年底", "明年", "下半年"]
EN_N = [(500, "500"), (300, "three hundred"), (2000, "2k"), (1500, "1,500")]
ZH_N = [(500, "500"), (300, "三百"), (2000, "两千"), (10000, "一万")]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_user_count_expected_by_a_date_is_the_users(lang: str):
    forms, whens, ns = (EN_GROWTH, EN_WHEN, EN_N) if lang == "en" else (ZH_GROWTH, ZH_WHEN, ZH_N)
    for form, when, (n, said) in itertools.product(forms, whens, ns):
        text = form.format(n=said, when=when)
        for pending in (None, "utilisation"):
            got = understand(text, pending)
            assert got.updates.get("users") == n, (text, pending, got.updates)
            assert "utilisation" not in got.updates and "precision" not in got.updates, (text, got.updates)


def test_a_quarter_is_a_date_and_in_q3_the_weight_format():
    assert "precision" not in understand("serve llama 3.1 8b for 300 users by q3").updates
    assert understand("serve llama 3.1 8b in q3").updates.get("precision") == "q3_k_m"


def test_the_users_expected_by_march_replace_the_users_said_before():
    from tests.conversation import run_conversation

    *_, answer = run_conversation(["serve llama 3.1 8b for 50 users", "working hours", "actually users is like 500 by march"])
    assert "500 users" in answer.content


# ---------------------------------------------------------------- dates with no calendar

JOBS = {"en": ["fine-tune llama 3.1 8b on 1B tokens", "summarise 1 million documents with qwen2.5 7b"],
        "zh": ["微调qwen2.5-7b，1B token", "用qwen2.5-7b总结一百万篇文档"]}
WEEKEND = {"en": [("this weekend", 60), ("over this weekend", 60), ("by the weekend", 72), ("next weekend", 228)],
           "zh": [("这周末", 60), ("这个周末", 60), ("周末前", 72), ("下周末", 228)]}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_weekend_is_when_the_job_is_due_not_how_busy_the_cards_are(lang: str):
    sep = ", " if lang == "en" else "，"
    for job, (words, hours) in itertools.product(JOBS[lang], WEEKEND[lang]):
        for text in (job + sep + words, words + sep + job):
            got = understand(text)
            assert got.updates.get("deadline_hours") == hours, (text, got.updates)
            assert "utilisation" not in got.updates, (text, got.updates)


@pytest.mark.parametrize("text", ["serve llama 3.1 8b on weekends", "serve llama 3.1 8b, busy only on the weekend",
                                  "部署qwen2.5-7b，只在周末用"])
def test_busy_on_weekends_is_still_how_busy(text: str):
    assert understand(text).updates.get("utilisation") == 0.29


@pytest.mark.parametrize(("words", "hours"), [("by end of month", 730), ("by the end of the month", 730),
                                              ("by next month", 730), ("before the end of the quarter", 1095)])
def test_a_calendar_date_says_the_hours_it_was_taken_as(words: str, hours: int):
    for job in JOBS["en"]:
        got = understand(f"{job} {words}")
        assert got.updates.get("deadline_hours") == hours, (job, words, got.updates)
        assert ("reply.deadline_assumed", {"words": words, "hours": f"{hours:,}"}) in got.notes, got.notes


def test_a_weekday_deadline_is_said_back_in_the_answer():
    for text, said in (("fine-tune llama 3.1 8b on 1B tokens by next friday", 'I read "next Friday" as 5 to 11 days from now (I have no calendar) and took the short end, 120 h'),
                       ("微调qwen2.5-7b，1B token，下周五前", "我把“下周五”理解为从现在起 5 到 11 天（我不知道今天是星期几），按最短的 120 小时算"),
                       ("微调qwen2.5-7b，1B token，周五前", "我把“周五”理解为从现在起 1 到 7 天（我不知道今天是星期几），按最短的 24 小时算"),
                       ("fine-tune llama 3.1 8b on 1B tokens by end of month", 'I read "by end of month" as about 730 hours')):
        assert said in ask(text).content, text


# ---------------------------------------------------------------- a product used today is no model to size

NOW = {"en": ["we're on {p}", "we use {p} today", "currently using {p}", "we're switching from {p}",
              "we are paying for {p}"],
       "zh": ["我们现在用{p}", "目前在用{p}", "公司用的是{p}", "我们一直用{p}"]}
WANT = {"en": [("want to serve llama 3.1 8b for 20 users", "llama-3.1-8b", 20),
               ("serve qwen2.5 7b for 50 people", "qwen2.5-7b", 50)],
        "zh": [("想自己部署qwen2.5-7b给20人用", "qwen2.5-7b", 20), ("想私有化部署glm-4-9b，50个人用", "glm-4-9b", 50)]}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_product_used_today_is_said_back_and_the_model_named_is_sized(lang: str):
    sep = ", " if lang == "en" else "，"
    for now, (want, model, users), product in itertools.product(NOW[lang], WANT[lang], ["Kimi", "Kimi Chat", "kimi"]):
        text = now.format(p=product) + sep + want
        got = understand(text)
        assert got.updates.get("model") == model and got.updates.get("users") == users, (text, got.updates)
        assert got.unknown_model is None and "utilisation" not in got.updates, (text, got.unknown_model, got.updates)
        assert ("note.product_now", {"name": product.split()[0]}) in got.notes, (text, got.notes)  # "chat" is no name


def test_a_product_named_alone_is_still_an_unknown_model():
    assert understand("serve kimi chat for 20 users").unknown_model is not None


# ---------------------------------------------------------------- two prices said "respectively"

RESPECTIVELY = {
    "en": ["{a} and {b} at ${x} and ${y}/hr respectively", "the {a} and the {b} are ${x} and ${y} an hour respectively"],
    "zh": ["{a}和{b}分别是¥{x}和¥{y}每卡时", "{a}、{b}分别{x}元和{y}元每卡每小时", "{a}和{b}的报价分别是{x}块和{y}块一卡时"],
}
PAIRS = [("A100", "a100-80gb-sxm", "H100", "h100-sxm"), ("H100", "h100-sxm", "L40S", "l40s")]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_prices_said_respectively_go_to_their_own_cards(lang: str):
    from gpu_advisor.knowledge import rules

    job, sep = ("serve qwen2.5 32b for 50 users", ", ") if lang == "en" else ("部署qwen2.5-32b给50人用", "，")
    rate = 1.0 if lang == "en" else rules().usd_per_cny
    for form, (a, a_id, b, b_id), (x, y) in itertools.product(RESPECTIVELY[lang], PAIRS, [(12, 25), (2, 3)]):
        said = form.format(a=a, b=b, x=x, y=y)
        for text in (job + sep + said, said + sep + job):
            got = understand(text)
            quotes = {q["gpu"]: q["usd_per_gpu_hour"] for q in got.quotes}
            assert quotes == {a_id: round(x * rate, 4), b_id: round(y * rate, 4)}, (text, quotes)
            assert "budget_usd" not in got.updates and got.updates.get("users") == 50, (text, got.updates)
