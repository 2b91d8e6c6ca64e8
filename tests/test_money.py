"""Money said as people say it is money of the right size and role (session 15, round B, 'money'); money questions
answered on one basis (session 18, round G: review BE 8, BE 18, BF 12, BF 7)."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import payload, run_conversation

USD_8K = [
    "budget around 8 grand usd",
    "budget around 8 grand",
    "we have around 8k bucks",
    "8 thousand dollars budget",
    "budget $8k",
    "预算8K美元",
    "预算大概8k美金",
    "we can spend eight grand",
    "8 grand is our budget",
]
CNY_15K = [
    "预算一万五左右人民币",
    "预算1.5万",
    "一万五的预算",
    "budget of 15k rmb",
    "一万五人民币的预算",
    "预算大概一万五人民币左右",
    "15k rmb budget",
]
JOBS = [
    ("{money}, qlora on a 70b model, one rtx 6000 ada or two 4090s?", "en"),
    ("one rtx 6000 ada or two 4090s for qlora on 70b? {money}", "en"),
    ("个人玩家，{money}，想自己攒机跑 32B 的模型，买二手 3090 两张还是一张 4090 好？", "zh"),
    ("买二手3090两张还是一张4090好？跑 qwq-32b，{money}", "zh"),
]


def _once(u) -> str | None:
    return next((v["amount"] for k, v in u.notes if k == "note.budget_once"), None)


@pytest.mark.parametrize("money", USD_8K)
@pytest.mark.parametrize("job", JOBS)
def test_eight_grand_is_8000_dollars(money: str, job: tuple[str, str]) -> None:
    u = understand(job[0].format(money=money))
    assert u.updates.get("budget_usd") == 8000
    assert "users" not in u.updates


@pytest.mark.parametrize("money", CNY_15K)
@pytest.mark.parametrize("job", JOBS)
def test_fifteen_thousand_yuan_is_a_budget_never_users(money: str, job: tuple[str, str]) -> None:
    u = understand(job[0].format(money=money))
    assert u.updates.get("budget_usd") == pytest.approx(15000 * 0.14)
    assert "users" not in u.updates and "concurrency" not in u.updates


@pytest.mark.parametrize("text", ["budget is a grand total of 5 grand", "a grand total of 40 users, budget 5 grand"])
def test_grand_total_is_no_money(text: str) -> None:
    u = understand(text)
    assert u.updates.get("budget_usd") == 5000


@pytest.mark.parametrize("text, users", [("200 users, budget 15k rmb", 200), ("预算1.5万，40个人同时用", 40),
                                          ("40 users at once, we can spend 8 grand", 40)])
def test_people_said_beside_money_stay_people(text: str, users: int) -> None:
    assert understand(text).updates.get("users") == users


@pytest.mark.parametrize("text", ["budget 15000 people 民币", "预算15000人 民币"])
def test_a_user_count_read_beside_money_is_refused(text: str) -> None:
    from gpu_advisor.assistant.reading.message import Understanding, prepare
    from gpu_advisor.assistant.reading.money_said import refuse_money_people

    m = prepare(text, None)
    u = Understanding(updates={"users": 15000})
    refuse_money_people(m, u)
    assert "users" not in u.updates


ITEM_PRICES = [
    ("刚收了两张二手3090还没装机，打算加个nvlink桥，跑llama3.3 70b的q4量化，双卡大概多少token/s？桥要七八百块", "zh"),
    ("桥要七八百块，nvlink有没有必要？刚收了两张二手3090，跑llama3.3 70b q4", "zh"),
    ("前几天淘了两张二手3090，跑llama3.3 70b q4，nvlink桥大概750块值不值", "zh"),
    ("I just got two used 3090s, running llama 3.3 70b q4, is nvlink worth it? the bridge is like $80", "en"),
    ("the nvlink bridge costs about $80. I just picked up two used 3090s for llama 3.3 70b q4, how many tok/s?", "en"),
    ("we snagged two 3090s, thinking of $80 for an nvlink bridge, llama 3.3 70b q4, how many tok/s?", "en"),
]


@pytest.mark.parametrize("text, lang", ITEM_PRICES)
def test_a_part_priced_in_passing_is_no_budget_and_the_cards_are_owned(text: str, lang: str) -> None:
    u = understand(text)
    assert u.lang == lang
    assert "budget_usd" not in u.updates and "budget_usd_per_month" not in u.updates
    assert u.updates.get("owned") == ["2x rtx-3090"]


@pytest.mark.parametrize("text, usd", [("budget $3000, plus $150 for a new psu, 70b q4 on two 3090s", 3000),
                                       ("预算2万，电源要800块，跑70b", 20000 * 0.14),
                                       ("the psu is $150 and our budget is $3k for llama 70b", 3000)])
def test_the_budget_beside_a_part_price_is_the_budget(text: str, usd: float) -> None:
    assert understand(text).updates.get("budget_usd") == pytest.approx(usd)


@pytest.mark.parametrize("text, preference", [
    ("刚收了两张二手3090还没装机，跑llama3.3 70b q4。nvlink到底有没有必要买，桥要七八百块", None),
    ("nvlink桥有必要买吗？刚收了两张二手3090，跑llama3.3 70b q4", None),
    ("I have two 3090s for llama 70b q4. should I buy an nvlink bridge?", None),
    ("I have two 3090s for llama 70b q4. is it worth buying the bridge for $80?", None),
    ("想买两张4090跑70b，nvlink桥要买吗", "buy"),
    ("we want to buy 2 4090s for 70b, and a bridge too", "buy"),
])
def test_buying_a_part_is_no_preference_to_buy_cards(text: str, preference: str | None) -> None:
    assert understand(text).updates.get("preference") == preference


# --- BE 8: buy one setup or rent another card for a service: billed around the clock unless it is switched off
SERVICE_SETUP = [
    "预算两百万人民币左右，内部跑 Llama-3.3-70B 推理，至少用三年，同时五六十个人。是买一台8卡H20划算，还是直接租云上H100划算？",
    "预算两百万人民币左右，要给公司内部跑 Llama-3.3-70B 的推理服务，至少用三年，内部大概同时五六十个人在用。"
    "是买一台8卡H20划算，还是直接租云上H100划算？",
    "买一台8卡H20还是租云上的H100划算？公司内部50个人同时用Llama 3.3 70B，打算用三年，预算200万左右",
    "Budget about $300k. We want to serve Llama 3.3 70B internally to 50-60 people at once for at least 3 years. "
    "Is buying one 8x H20 server better value, or renting H100s in the cloud?",
    "serving llama 3.3 70b to ~50 concurrent staff for 3 years: buy an 8x h20 server or rent h100s in the cloud?",
]


def _weighed(turns: list[str]) -> dict:
    """The answer's payload; a question about how busy answered 'not sure' (the default kept)."""
    replies = run_conversation(turns)
    if payload(replies[-1]).get("kind") == "question":
        replies = run_conversation([*turns, "不确定" if any("\u4e00" <= c <= "\u9fff" for c in turns[0]) else "not sure"])
    data = payload(replies[-1])
    assert "setup_buy_rent" in data, replies[-1].content[:400]
    return data


@pytest.mark.parametrize("turn", SERVICE_SETUP)
def test_a_service_for_people_is_rented_around_the_clock_so_the_box_is_bought(turn):
    data = _weighed([turn])
    v = data["setup_buy_rent"]
    assert (v["buy"], v["buy_gpus"]) == ("h20", 8)
    assert v["rented"] == "h100-sxm" and v["rented_gpus"] == 4  # the H100 count the job needs
    assert v["utilisation"] == pytest.approx(1.0) and v["around_the_clock"]  # billed every hour it is up
    assert v["busy"] == pytest.approx(0.24)
    assert v["code"] == "buy" and v["buy_total_usd"] < v["rent_total_usd"]
    assert (data["decision"]["action"], data["decision"]["gpu"]) == ("buy", "h20")


@pytest.mark.parametrize("turn", [
    "内部跑 Llama-3.3-70B 推理，同时五六十个人，用三年，晚上关机，只在工作时间开。买一台8卡H20还是租云上H100？",
    "we serve llama 3.3 70b to 50 people at once, 3 years, only in working hours and shut down at night. "
    "buy an 8x h20 server or rent h100s?",
])
def test_a_service_switched_off_at_night_is_rented_for_its_hours(turn):
    v = _weighed([turn])["setup_buy_rent"]
    assert v["rented"] == "h100-sxm" and v["rented_gpus"] == 4
    assert v["utilisation"] < 0.5 and not v["around_the_clock"]
    assert v["code"] == "rent"


def test_the_card_comparison_after_it_is_like_for_like():
    """The closing comparison weighs the H100s the job needs, never one H100 that cannot hold the model."""
    reply = run_conversation([SERVICE_SETUP[0]])[0]
    compared = next(a for a in payload(reply)["also"] if a["code"] == "compare_cards")
    rows = {(o["gpu"], o["gpus"]) for o in compared["options"]}
    assert ("h100-sxm", 1) not in rows and ("h100-sxm", 4) in rows
    assert "两块卡里只有它能完成" not in reply.content


# --- BE 18: the price of a named server, asked with no job: answered at once, no model asked, no preference kept
SERVER_PRICE = [
    (["问下行情，现在国内租一台8卡H800大概一个月多少钱？跟直接买一台比，用满两年哪个划算"], "h800-sxm", 24, 1.0),
    (["现在租一台8卡H800一个月要多少钱？和直接买一台比，两年满负荷跑哪个划算"], "h800-sxm", 24, 1.0),
    (["8卡H100的服务器租一个月多少钱，买一台又要多少钱？用三年"], "h100-sxm", 36, None),
    (["what does renting an 8x H100 box cost per month vs buying one, running flat out for 2 years?"], "h100-sxm", 24, 1.0),
    (["how much to rent an 8x h100 server per month, and how much to buy one? we'd run it 24/7 for 2 years"],
     "h100-sxm", 24, 1.0),
    (["buying vs renting an 8x H200 node: what's the monthly rent and the purchase price? 3 years, fully loaded"],
     "h200", 36, 1.0),
]


@pytest.mark.parametrize(("turns", "gpu", "months", "use"), SERVER_PRICE)
def test_a_server_price_question_is_answered_at_once_with_rent_buy_and_the_comparison(turns, gpu, months, use):
    reply = run_conversation(turns)[-1]
    data = payload(reply)
    assert data["kind"] == "info" and data.get("topic") == "server_price", reply.content[:300]
    v = data["results"]["server_price"]
    assert (v["gpu"], v["gpus"], v["months"]) == (gpu, 8, months)
    if use is not None:
        assert v["utilisation"] == pytest.approx(use)
    assert data["results"]["rent_usd_per_month"] > 0 and v["buy_total_usd"] > 0
    profile = data.get("profile") or {}
    assert profile.get("preference") is None and profile.get("model") is None
    assert not data.get("choices")  # no question about a model or a job


def test_the_price_asked_again_after_questions_is_answered_not_a_job_invented():
    turns = ["问下行情，现在国内租一台8卡H800大概一个月多少钱？跟直接买一台比，用满两年哪个划算",
             "没有固定模型，就是问个价格，机器会一直满负荷跑各种训练任务", "全参吧。你先把租金和买价告诉我就行"]
    for reply in run_conversation(turns):
        data = payload(reply)
        assert data.get("topic") == "server_price"
        v = data["results"]["server_price"]
        assert (v["gpu"], v["utilisation"], v["months"]) == ("h800-sxm", 1.0, 24)
        assert v["cheaper"] == "rent"  # ¥10.5/card-hour all month for 24 months is under the server's price


# --- BF 12: a budget's period put right, the runs a month and the hours a week kept
LORA_TEAM = [
    ("预算50万人民币左右，小团队做7B模型的lora微调，每个月大概跑十来次实验，每次数据2万条左右。买卡还是租云上？", 500000 * 0.14),
    ("小团队做7B模型的lora微调，每个月大概跑10次实验，每次数据2万条左右，预算50万左右。买卡还是租云上？", 500000 * 0.14),
    ("budget about $70k. small team doing lora fine-tunes of a 7b model, around 10 experiments a month, ~20k samples "
     "each. buy cards or rent cloud?", 70000),
    ("lora fine-tuning a 7b model, about 10 runs a month with 20k samples each; our budget is roughly $70k. buy or "
     "rent?", 70000),
]
CORRECTIONS = [
    "每周几小时吧，不会一直跑。另外50万是一次性的总预算，不是每个月",
    "另外预算是一次性的总预算，不是每个月。每周也就几小时，不会一直跑",
    "a few hours a week, not 24/7. and the budget is a one-time budget, not monthly",
    "it's a one-off budget, not per month; we only run a few hours a week",
]


@pytest.mark.parametrize(("first", "usd"), LORA_TEAM)
@pytest.mark.parametrize("fix", CORRECTIONS)
def test_a_one_off_budget_put_right_keeps_the_runs_and_the_hours(first, usd, fix):
    replies = run_conversation([first, fix])
    profile = payload(replies[-1])["profile"]
    assert profile.get("budget_usd") == pytest.approx(usd) and not profile.get("budget_usd_per_month")
    assert profile.get("runs_per_month") == 10
    assert profile.get("utilisation") is not None and profile["utilisation"] < 0.2
    assert profile.get("phase") == "fine-tune" and profile.get("method") == "lora"
    assert payload(replies[-1])["decision"]["action"] == "rent"


@pytest.mark.parametrize(("first", "fix", "usd"), [
    ("budget $5k a month. lora fine-tune llama 3.1 8b, 10 runs a month. rent or buy?",
     "actually it's a one-off budget, not per month", 5000),
    ("每月预算3万，lora微调qwen2.5-7b，每个月跑10次，租还是买？", "不对，3万是总预算，不是每个月", 30000 * 0.14),
    ("每月预算3万，lora微调qwen2.5-7b，每个月跑10次，租还是买？", "是一次性的预算", 30000 * 0.14),
])
def test_a_monthly_budget_said_to_be_one_off_is_the_same_amount_once(first, fix, usd):
    profile = payload(run_conversation([first, fix])[-1])["profile"]
    assert profile.get("budget_usd") == pytest.approx(usd) and not profile.get("budget_usd_per_month")
    assert profile.get("runs_per_month") == 10


# --- BF 7: a box being weighed for purchase is not owned; its break-even is answered first
WEIGHED_BOX = [
    ("we're debating buying an 8x H100 box vs just renting. we'd use it for fine-tuning experiments, mostly 8B-13B "
     "models, maybe 60% of the time. horizon 18 months. what's the break even", 18),
    ("we are considering buying an 8x h100 server or renting. fine-tuning 8b-13b models about 60% of the time over "
     "18 months: where is the break even?", 18),
    ("thinking of buying a box with 8x H100 instead of renting; fine-tuning mostly 13b, ~60% busy, 2 years. "
     "break-even?", 24),
    ("我们在考虑买一台8卡H100还是直接租，主要做8B-13B的微调实验，大概60%的时间在用，按18个月算，盈亏平衡点在哪", 18),
    ("打算买一台8卡H100服务器，还是租划算？微调13B左右的模型，60%的时间在跑，用两年，多久回本", 24),
]


@pytest.mark.parametrize(("turn", "months"), WEIGHED_BOX)
def test_a_box_weighed_for_purchase_is_not_owned_and_its_break_even_comes_first(turn, months):
    reply = run_conversation([turn])[-1]
    data = payload(reply)
    assert not (data.get("profile") or {}).get("owned")
    assert data.get("topic") == "server_price", reply.content[:300]
    v = data["results"]["server_price"]
    assert (v["gpu"], v["gpus"], v["months"]) == ("h100-sxm", 8, months)
    assert v["utilisation"] == pytest.approx(0.6)
    assert data["results"]["rent_or_buy"]["break_even_utilisation"] is not None
    assert "per million" not in reply.content and "百万" not in reply.content  # no unasked cost-per-token list


@pytest.mark.parametrize("turn", [
    "we already have an 8x H100 box; we're debating whether renting more is cheaper. fine-tune 13b",
    "我们已经有一台8卡H100，微调13B，够不够",
])
def test_a_box_they_have_stays_owned(turn):
    assert understand(turn).updates.get("owned")
