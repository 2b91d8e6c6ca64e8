"""Money said as people say it is money of the right size and role (session 15, round B, 'money')."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand

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
