"""Home users and hobbyists buy a card (h-home): 'at home', 'for myself', 'hobby', '家里', '自己玩', '个人电脑' read
as one person's own job, which buys a consumer card for the computer they have, never rents a data-centre one;
'used is fine' / '二手也行' prices the cards at the sourced used price on record (knowledge/data/used_prices.yaml),
shown as used; a one-off budget keeps the card bought within it; two models named: the smaller runs on the card
sized for the larger, said."""
from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import find_gpu, used_prices
from tests.conversation import payload, run_states

EN = [
    "I want a GPU at home to run {model} for myself, budget around {usd} dollars, used is fine",
    "hobby project: run {model} on my own pc at home, used cards are ok, max ${usd}",
    "for myself, chatting with {model} at home. what card should I buy? happy to buy used. ${usd} budget",
    "used is fine. {model} at home, just me, around {usd} usd",
    "personal use, {model}, which card for my pc? second-hand is fine, ${usd} max",
    "{model} to chat with in my home lab, budget ${usd}, don't mind used",
    "just me tinkering on my gaming pc: serve {model}, used or new, under ${usd}",
    "for my own pc at home: {model}, budget {usd} usd, buying used is ok",
]
ZH = [
    "家里想跑个{model}自己玩，二手也行，预算{cny}元，用什么卡",
    "个人电脑跑{model}，二手也行，预算{cny}元",
    "自己玩{model}，二手的也可以，预算{cny}块，买什么显卡",
    "在家部署{model}自己用，可以接受二手，预算{cny}",
    "{model}，家用，二手没问题，预算{cny}元，买什么卡好",
    "二手也行，家里跑{model}，预算{cny}以内",
    "自己折腾{model}，家里电脑，二手没问题，预算{cny}元，显卡怎么选",
    "想在家里跑{model}，个人使用，预算{cny}元，二手卡也行",
]
# (name said, budget in dollars, budget in yuan)
MODELS = [("Llama 3.1 8B", 1000, 7000), ("Qwen2.5 14B", 1000, 7000), ("Qwen2.5 32B", 1500, 10000)]
CASES = [(lang, frame, model) for lang, frames in (("en", EN), ("zh", ZH)) for frame, model in itertools.product(frames, MODELS)]


@pytest.mark.parametrize("lang, frame, model", CASES)
def test_a_home_user_buys_a_consumer_card_used_within_the_budget(lang, frame, model):
    name, usd, cny = model
    text = frame.format(model=name, usd=usd, cny=cny)
    state = run_states([text])[0]
    reply = state["messages"][-1]
    d = payload(reply)["decision"]
    assert d["action"] == "buy", (text, reply.content[:300])
    assert d["fits"] is True and d["meets"]["budget"] is True, (text, reply.content[:600])
    assert find_gpu(d["gpu"]).segment == "consumer", (text, d)
    first = reply.content.splitlines()[0]
    assert first.startswith("## Buy " if lang == "en" else "## 购买 "), (text, first)
    if d["gpu"] in used_prices():  # priced used, and said so in the table and the note under it
        assert (" used |" if lang == "en" else "（二手） |") in reply.content, (text, reply.content)
        assert "2026-" in reply.content, text  # the used price's date
    budget = usd if lang == "en" else None
    if budget is not None:
        assert f"${budget:,}" in reply.content


@pytest.mark.parametrize("text", [
    "I want a GPU at home to run Qwen2.5 14B for myself, budget around 1000 dollars, used is fine",
    "家里想跑个Qwen2.5 14B自己玩，二手也行，预算7000元",
])
def test_a_used_3090_is_the_14b_buy_at_its_used_price(text):
    d = payload(run_states([text])[0]["messages"][-1])["decision"]
    assert d["gpu"] == "rtx-3090" and d["gpus"] == 1 and d["action"] == "buy", d


HOME = ["I want a GPU at home to run Qwen2.5 14B", "qwen2.5 14b for myself, which gpu should I get",
        "hobby: run llama 3.1 8b at home", "家里想跑个Qwen2.5 14B自己玩，用什么卡", "个人电脑跑qwen2.5 7b，买什么卡",
        "自己玩llama 3.1 8b，用啥显卡", "tinkering at home with qwen2.5 14b, what should i serve it on",
        "在家跑qwen2.5 14b，家用"]


@pytest.mark.parametrize("text", HOME)
def test_home_words_read_as_one_person_buying(text):
    u = understand(text)
    assert u.updates.get("personal") is True and u.updates.get("preference") == "buy", (text, u.updates)


@pytest.mark.parametrize("text", [
    "I want a GPU at home to run Qwen2.5 14B but I'd rather rent", "家里想跑Qwen2.5 14B，在autodl上租",
    "qwen2.5 14b just me, on runpod", "run llama 3.1 8b on my laptop, just me", "我的mac上跑qwen2.5 7b，自己用",
    "I just want to prove the pipeline: QLoRA on a 7B model, just me, a few hours a week",
    "家里有两张3090，自己玩qwen2.5 32b",
])
def test_renting_said_a_laptop_a_training_run_or_cards_owned_buy_nothing(text):
    assert understand(text).updates.get("preference") != "buy", (text, understand(text).updates)


@pytest.mark.parametrize("text, used", [
    ("used is fine", True), ("happy to buy used", True), ("i don't mind a used card", True), ("used or new", True),
    ("second-hand is fine", True), ("二手也行", True), ("二手的也可以", True), ("可以接受二手", True),
    ("二手没问题", True), ("a new card please", None), ("两张二手3090跑70b", None), ("used is not fine", None),
])
def test_used_accepted_is_read_both_languages(text, used):
    assert understand(f"qwen2.5 14b at home, {text}").updates.get("used_ok") is used, text


def test_every_used_price_has_a_source_a_date_and_a_consumer_card_cheaper_than_new():
    for gpu_id, p in used_prices().items():
        g = find_gpu(gpu_id)
        assert p.source.startswith("http") and p.as_of.year >= 2026, gpu_id
        assert g.segment == "consumer" and g.buy_price_usd and p.usd < g.buy_price_usd, gpu_id


@pytest.mark.parametrize("text, zh", [
    ("I want a GPU at home to run Llama 3.1 8B and maybe Qwen 14B for myself, budget around 1000 dollars, used is fine", False),
    ("家里想跑qwen3 14b，顺便试试llama 3.1 8b，自己玩，二手也行", True),
])
def test_two_models_for_one_person_size_the_larger_and_say_the_smaller_runs_too(text, zh):
    reply = run_states([text])[0]["messages"][-1]
    d = payload(reply)["decision"]
    assert d["model"] == "qwen3-14b" and d["action"] == "buy", d
    assert ("也能跑它" if zh else "runs it as well") in reply.content, reply.content[:400]


def test_a_whole_new_pc_is_priced_with_the_card():
    u = understand("just me, I want to buy a whole new pc to chat with qwen2.5 14b, budget $2500")
    assert u.updates.get("has_host") is False and u.updates.get("preference") == "buy", u.updates
