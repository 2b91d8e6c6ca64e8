"""A purchase being weighed is not hardware owned; frequencies and horizons are read as said (reviews AY 13, AZ 19,
AY 20, AZ 10; brief s17 buy).

'想买张卡…二手3090还是4060ti 16G？', 'Mac Studio 和两张二手3090 哪个好', 'should we buy a 3090 or a 4060 Ti': the cards
are candidates to buy, never 'yours' unless the user says they have them; 'every week' is about 4.3 runs a month,
'算三年' 36 months, '一年到头都要跑' busy around the clock."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states

PAIRS = [("3090", "4060ti 16G", "rtx-3090", "rtx-4060-ti-16gb"),
         ("4090", "5090", "rtx-4090", "rtx-5090"),
         ("4070 ti super", "3090", "rtx-4070-ti-super", "rtx-3090")]

ZH_BUY = ["想买张卡在家玩llm，{a}还是{b}？主要跑14B以内的模型",
          "在家跑14B的模型，想买 {a} 还是 {b} 好？",
          "预算一万左右，想入手一张卡在家里跑14B，二手{a}还是{b}？",
          "打算自己组装一台机器在家跑14B，{a}和{b}哪个好？"]
EN_BUY = ["want to buy a card to run 14B models at home, {a} or {b}?",
          "for 14B models at home, should I buy a {a} or a {b}?",
          "budget around 1500 usd, thinking of getting a used {a} or a {b} for running 14B locally",
          "building a machine at home for 14B llms: {a} vs {b}, which one?"]


@pytest.mark.parametrize("a,b,ida,idb", PAIRS)
@pytest.mark.parametrize("phrase", ZH_BUY + EN_BUY)
def test_cards_weighed_to_buy_are_not_owned(phrase: str, a: str, b: str, ida: str, idb: str) -> None:
    u = understand(phrase.format(a=a, b=b))
    assert not u.updates.get("owned"), u.updates
    named = set(u.compare_gpus) | {c.partition("x ")[2] or c for c in u.updates.get("only") or []}
    assert {ida, idb} <= named, (u.compare_gpus, u.updates)


@pytest.mark.parametrize("text,owned", [
    ("我有一张3090，想买张卡，4090还是5090？", "1x rtx-3090"),
    ("I have a 3090 at home, should I buy a 4090 or a 5090 for 70B?", "1x rtx-3090"),
    ("手上已经有两张3090了，想再买4090还是5090？", "2x rtx-3090"),
    ("去年买了两张3090，现在再加一张4090还是5090？", "2x rtx-3090"),
    ("we bought two 3090s last year, should we add a 4090 or a 5090?", "2x rtx-3090"),
    ("I already have a 3060, should I buy a used 3090 or a new 4060 ti 16gb for 14B?", "1x rtx-3060-12gb"),
])
def test_a_card_said_to_be_had_stays_owned_beside_the_choice(text: str, owned: str) -> None:
    u = understand(text)
    assert u.updates.get("owned") == [owned], u.updates


MAC_OR_3090 = ["我想在家里跑 Llama 3.1 70B 聊天，就我一个人用，Mac Studio M2 Ultra 192G 和两张二手3090 哪个好？",
               "Mac Studio M2 Ultra 192G 和两张二手3090 哪个跑 Llama 3.1 70B 好？我在家自己用",
               "for Llama 3.1 70B chat at home, just me: a mac studio m2 ultra 192gb or two used 3090s?",
               "two used 3090s or a Mac Studio M2 Ultra 192GB for running Llama 3.1 70B at home by myself, which is better?"]


@pytest.mark.parametrize("text", MAC_OR_3090)
def test_mac_or_two_used_3090s_owns_neither(text: str) -> None:
    u = understand(text)
    assert not u.updates.get("owned"), u.updates
    assert {"apple-m2-ultra-192gb", "rtx-3090"} <= set(u.compare_gpus)


@pytest.mark.parametrize("text", [MAC_OR_3090[0], MAC_OR_3090[2]])
def test_mac_or_two_used_3090s_sizes_two_3090s_and_picks_them(text: str) -> None:
    state = run_states([text])[-1]
    options = {o["gpu"]: o for o in state["results"]["options"]}
    assert not state["profile"].get("owned")
    assert options["rtx-3090"]["gpus"] == 2 and not options["rtx-3090"]["owned"]
    assert not options["apple-m2-ultra-192gb"]["owned"]
    assert state["results"]["asked"] == "rtx-3090"


def test_one_card_to_buy_used_3090_or_4060ti_answers_the_3090() -> None:
    text = "想买张卡在家玩llm，预算一万五左右，4090太贵了，二手3090还是4060ti 16G？主要跑14B以内的模型，偶尔lora一下"
    state = run_states([text])[-1]
    assert not state["profile"].get("owned")
    assert all(not o["owned"] for o in state["results"]["options"])
    assert state["results"]["asked"] == "rtx-3090"


@pytest.mark.parametrize("text,runs", [
    ("should we buy two 4090s or just rent an H100 for fine-tuning Llama 3.1 8B with LoRA every week", 4.3),
    ("we fine-tune llama 3.1 8b with lora weekly, 100k samples each time, buy or rent?", 4.3),
    ("LoRA of llama 3.1 8b twice a week, 100k samples", 8.6),
    ("we retrain our qwen2.5 7b lora every day on new data", 30.0),
    ("training a qlora of qwen2.5 7b once a month, rent or buy?", 1.0),
    ("我们每周都要lora一次 llama 3.1 8b，买两张4090还是租H100？", 4.3),
    ("每天都要微调一次 qwen2.5 7b 的 lora", 30.0),
    ("每周两次 lora 微调 llama 3.1 8b，10万条样本", 8.6),
])
def test_runs_per_month_read_as_said(text: str, runs: float) -> None:
    assert understand(text).updates.get("runs_per_month") == runs


@pytest.mark.parametrize("text,months", [
    ("长期看的话，我们一年到头都要跑Qwen2.5-32B的推理，大概并发40，是直接买H20服务器划算还是租A800划算？算三年", 36),
    ("我们一年到头都要跑Qwen2.5-32B推理，并发40，买H20还是租A800？按两年算", 24),
    ("Qwen2.5-32B推理全年无休，并发40，买还是租，算3年", 36),
    ("we serve qwen2.5-32b 24/7 to 40 concurrent users, buy H20s or rent A800s? over 3 years", 36),
    ("serving qwen2.5-32b around the clock, 40 concurrent, rent or buy, 2 years", 24),
])
def test_year_round_is_busy_all_day_and_the_horizon_is_the_one_said(text: str, months: int) -> None:
    u = understand(text)
    assert u.updates.get("utilisation") == 1.0, u.updates
    assert u.updates.get("horizon_months") == months, u.updates


def test_year_round_rent_or_buy_covers_three_years_at_full_use() -> None:
    text = "长期看的话，我们一年到头都要跑Qwen2.5-32B的推理，大概并发40，是直接买H20服务器划算还是租A800划算？算三年"
    state = run_states([text])[-1]
    assert state["profile"]["utilisation"] == 1.0
    assert state["results"]["inputs"]["horizon_months"] == 36


BUILD = ["预算50万人民币，想自己搭一台机器跑deepseek v3 推理，内部20个人用，买啥？",
         "想组装一台机器跑 deepseek v3，公司内部20人用，预算50万，配什么卡？",
         "budget 500k CNY, we want to build a machine to run deepseek v3 for 20 internal users, what should we buy?",
         "we'd like to buy one server for deepseek v3 inference, 20 staff, budget 70k usd"]


@pytest.mark.parametrize("text", BUILD)
def test_a_machine_to_build_is_bought_not_an_owned_server(text: str) -> None:
    u = understand(text)
    assert not u.updates.get("owned")
    assert not [k for k, _v in u.notes if k == "note.servers_without_cards"], u.notes
    assert u.updates.get("preference") == "buy", u.updates


def test_a_server_said_owned_with_no_card_still_asks_for_its_cards() -> None:
    u = understand("我们有一台服务器，跑deepseek v3")
    assert [k for k, _v in u.notes if k == "note.servers_without_cards"]


def test_build_for_full_v3_within_budget_says_none_fits_and_rents_nothing() -> None:
    state = run_states([BUILD[0]])[-1]
    assert state["profile"]["preference"] == "buy"
    assert not state["profile"].get("owned")
    assert all(not o["owned"] for o in state["results"]["options"])


@pytest.mark.parametrize("text,server", [
    ("长期看的话，我们一年到头都要跑Qwen2.5-32B的推理，大概并发40，是直接买H20服务器划算还是租A800划算？算三年", True),
    ("we serve qwen2.5-32b 24/7 to 40 concurrent users, is buying an H20 server or renting A800s cheaper over 3 years?",
     True),
    ("Qwen2.5-32B推理全年无休，并发40，买H20还是租A800划算？算三年", False),
])
def test_a_card_bought_as_a_server_is_marked(text: str, server: bool) -> None:
    spec = understand(text).ask.get("buy_or_rent") or {}
    assert spec.get("buy") == "h20" and bool(spec.get("server")) is server, spec


@pytest.mark.parametrize("text", [
    "长期看的话，我们一年到头都要跑Qwen2.5-32B的推理，大概并发40，是直接买H20服务器划算还是租A800划算？算三年",
    "we serve qwen2.5-32b 24/7 to 40 concurrent users, is buying an H20 server or renting A800s cheaper over 3 years?",
])
def test_an_h20_server_bought_whole_against_two_a800s_rented_over_three_years(text: str) -> None:
    reply = str(run_states([text])[-1]["messages"][-1].content)
    head = reply.split("##")[0]
    assert "8 × NVIDIA H20" in head and "2 × NVIDIA A800" in head, head
    assert "36" in head
    assert ("租用 2 × NVIDIA A800" in reply) or ("Rent 2 × NVIDIA A800" in reply)
