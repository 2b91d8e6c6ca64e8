"""'A or B?' gets a head-on verdict on the user's own job (review Q2 05, 20; Q3 C10): two cards to buy named with
the models to run are each tried with every model on one card, and the verdict names the card that runs them all, with
both purchase prices (assistant/card_job.py); two models weighed on speed or memory get the verdict on the dimension
asked, with both figures on one card, the user's when they own one, kept when the next turn names it
(assistant/choice_dims.py). Generated: card pairs x joiners x model sets, model pairs x dimensions, both languages."""

from __future__ import annotations

import itertools
import re

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import find_gpu, used_prices
from tests.conversation import payload, run_conversation

# (card words, card words, the card that runs every model on one card, the other's id)
CARD_PAIRS = [("3090", "4070 ti super", "rtx-3090", "rtx-4070-ti-super"),
              ("4060 ti 16gb", "3090", "rtx-3090", "rtx-4060-ti-16gb")]
# (models as typed, the model the smaller card cannot hold, in the words the fit tool names it)
MODEL_SETS = [("llama 3.1 8b", "gemma 3 27b", "Gemma 3 27B"), ("qwen2.5-32b", "llama 3.1 8b", "Qwen2.5 32B")]
CARD_TEMPLATES = {
    "en": ["should i buy a used {a} or a new {b} for running local llms? {m1} and maybe {m2}",
           "{a} vs {b}, which to buy for {m1} and {m2} at home",
           "which should i buy, the {b} or the {a}? i want to run {m1} and {m2} locally"],
    "zh": ["买{a}还是{b}好？跑{m1}和{m2}", "{a}和{b}哪个好？本地跑{m1}和{m2}", "{b}或者{a}，买哪个跑{m1}和{m2}"],
}


def _card_cases() -> list[tuple[str, str, str, str, str]]:
    out = []
    for (a, b, pick, other), (m1, m2, big), lang in itertools.product(CARD_PAIRS, MODEL_SETS, ("en", "zh")):
        for template in CARD_TEMPLATES[lang]:
            out.append((template.format(a=a, b=b, m1=m1, m2=m2), lang, pick, other, big))
    return out


CARD_CASES = _card_cases()


def _compare(reply) -> dict:
    data = payload(reply)
    return next(a for a in data.get("also") or [] if a.get("code") == "compare_cards")


@pytest.mark.parametrize(("text", "lang", "pick", "other", "big"), CARD_CASES, ids=[c[0] for c in CARD_CASES])
def test_two_cards_with_models_named_are_read_as_the_cards_choice(text, lang, pick, other, big):
    u = understand(text)
    assert "weigh" not in u.intents and "models" not in u.ask  # not the models on the first card
    assert len(u.ask["job_models"]) == 2 and {pick, other} <= set(u.cards)
    assert u.ask["job"] == "local" and u.updates["preference"] == "buy"


@pytest.mark.parametrize(("text", "lang", "pick", "other", "big"), CARD_CASES[::2], ids=[c[0] for c in CARD_CASES[::2]])
def test_the_verdict_names_the_card_that_runs_every_model_with_purchase_prices(text, lang, pick, other, big):
    reply = run_conversation([text])[-1]
    also = _compare(reply)
    v = also["verdict"]
    assert v["code"] == "holds_all" and v["pick"] == pick and v["other"] == other and v["missing"] == [big]
    # h-used (AQ 8, AR 14): a card said used is priced at its sourced used price, the other at its new price
    said = re.search(r"used (\S+)", text)
    # (h-rank4: a card sold used only, the 3090, is priced used whatever was said: its new price buys nothing)
    sold_used = {g for g, p in used_prices().items() if p.used_only}
    want = {g: (used_prices()[g].usd if (said and said.group(1) in g) or g in sold_used else find_gpu(g).buy_price_usd)
            for g in (pick, other)}
    assert v["price_kind"] == "buy" and v["prices"] == want
    # both sides sized: every model on one card of each, by the fit tool
    assert len(also["job_fits"]) == 2
    for row in also["job_fits"]:
        assert set(row["cards"]) == {pick, other} and all(x["per_gpu_gb"] > 0 for x in row["cards"].values())
        assert row["cards"][pick]["fits"] and row["cards"][other]["fits"] == (row["model"] != big)
    last = reply.content.strip().splitlines()[-1]
    assert last.startswith("**Verdict**" if lang == "en" else "**结论**") and find_gpu(pick).name in last
    assert big in last


@pytest.mark.parametrize(("text", "lang", "held"), [
    ("should i get a 4090 or a 5090 for qwen2.5 7b and llama 3.1 8b at home?", "en", "both"),
    ("4090还是5090好？在家跑qwen2.5 7b和llama 3.1 8b", "zh", "both"),
    ("should i buy a 4090 or a 5090 for qwen2.5 32b and llama 3.3 70b at home?", "en", "neither"),
    ("买4090还是5090好？本地跑qwen2.5 32b和llama 3.3 70b", "zh", "neither"),
])
def test_when_both_or_neither_hold_every_model_the_figures_decide_on_purchase_prices(text, lang, held):
    reply = run_conversation([text])[-1]
    v = _compare(reply)["verdict"]
    assert v["models_held"] == held and v["job"] == "local"
    assert v["pick"] == "rtx-5090"  # faster (both) or more memory (neither)
    # h-used: in China the 4090 is at its street price and the 5090's is unknown (US list only): no buy price to weigh
    assert v["price_kind"] == ("buy" if lang == "en" else "rent") and v["cheaper"] == "rtx-4090"


# ---- models weighed on the dimension asked
MODEL_PAIRS = [("gemma 3 27b", "qwen3-30b-a3b"), ("qwen3-32b", "qwen3-30b-a3b"), ("qwen3-30b-a3b", "qwen3-32b")]
# The verdict on each dimension, by the pair's first model: the MoE (3B active) writes several times faster; it
# holds all 30.5B, about Gemma 3 27B's memory (None: about the same), less than Qwen3 32B (a larger KV cache too).
EXPECT = {"gemma 3 27b": {"speed": "qwen3-30b-a3b", "memory": None},
          "qwen3-32b": {"speed": "qwen3-30b-a3b", "memory": "qwen3-30b-a3b"},
          "qwen3-30b-a3b": {"speed": "qwen3-30b-a3b", "memory": "qwen3-30b-a3b"}}
DIM_WORDS = {"en": {("speed",): "which is faster", ("memory",): "which uses less memory",
                    ("memory", "speed"): "which needs less vram and which is faster"},
             "zh": {("speed",): "哪个跑得快", ("memory",): "哪个更省显存", ("memory", "speed"): "哪个更省显存？速度哪个快"}}
ON_CARD = {"en": "{a} or {b} on my 4090, {dims}?", "zh": "{a}和{b}，在我的4090上{dims}"}
NO_CARD = {"en": "{a} or {b} for serving, {dims}?", "zh": "{a}和{b}部署推理，{dims}"}


def _dim_cases(templates):
    return [(templates[lang].format(a=a, b=b, dims=DIM_WORDS[lang][dims]), lang, dims, EXPECT[a])
            for (a, b), lang, dims in itertools.product(MODEL_PAIRS, ("en", "zh"), DIM_WORDS["en"])]


DIM_CASES = _dim_cases(ON_CARD)


@pytest.mark.parametrize(("text", "lang", "dims", "expect"), DIM_CASES, ids=[c[0] for c in DIM_CASES])
def test_the_dimension_asked_is_read(text, lang, dims, expect):
    assert sorted(understand(text).ask["dims"]) == sorted(dims)


@pytest.mark.parametrize(("text", "lang", "dims", "expect"), DIM_CASES, ids=[c[0] for c in DIM_CASES])
def test_models_on_the_users_card_get_the_verdict_on_the_dimension_asked(text, lang, dims, expect):
    reply = run_conversation([text])[-1]
    results = payload(reply)["results"]
    verdicts = results["dims"]
    assert set(verdicts) == set(dims)
    for dim, v in verdicts.items():
        assert v["pick"] == expect[dim] and v["a"] and v["b"]
        assert v["first"] == "qwen3-30b-a3b" or dim == "memory"
        assert (v["a"] > v["b"]) if dim == "speed" else (v["a"] <= v["b"])
    if "speed" in dims:
        assert verdicts["speed"]["a"] > 3 * verdicts["speed"]["b"] and verdicts["speed"]["moe"]["active_b"] < 4
    heads = [x for x in reply.content.splitlines() if x.startswith(("**Verdict**", "**结论**"))]
    assert len(heads) == len(dims)
    assert all(("Qwen3 30B-A3B" in h) for h, d in zip(heads, dims, strict=True) if expect[d])


NO_CARD_CASES = _dim_cases(NO_CARD)[6:]  # the pairs with two Qwen3 models


@pytest.mark.parametrize(("text", "lang", "dims", "expect"), NO_CARD_CASES, ids=[c[0] for c in NO_CARD_CASES])
def test_models_with_no_card_are_set_side_by_side_on_one_card_then_on_the_card_said(text, lang, dims, expect):
    replies = run_conversation([text, "we have one l40s" if lang == "en" else "我们就一张L40S"])
    for reply, card in zip(replies, (None, "l40s"), strict=True):
        choice = payload(reply)["model_choice"]
        on = choice["on_card"]
        assert set(on["verdicts"]) == set(dims) and len(on["rows"]) == 2
        assert len({r["gpus"] for r in on["rows"]}) >= 1 and all(r["tps"] and r["mem_bytes"] for r in on["rows"])
        assert all(v["pick"] == "qwen3-30b-a3b" for v in on["verdicts"].values())
        assert choice["pick"] == "qwen3-30b-a3b"
        if card:
            assert on["card"] == card and on["owned"]
            assert ("an hour" not in reply.content.split("##")[0]) and ("每小时" not in reply.content.split("##")[0])


# ---- buy one card or keep renting
BUY_RENT = [
    ("worth buying a 5090 or keep renting? finetune mistral 7b twice a month, ~3 hrs on a rented a100", "en",
     "rtx-5090", "a100-80gb-sxm", 3.0, 2.0),
    ("should i buy a 4090 or keep renting? i fine-tune llama 3.1 8b 2 times a month, each run 5 hours on a rented h100",
     "en", "rtx-4090", "h100-sxm", 5.0, 2.0),
    ("买一张5090还是继续租？每月微调两次mistral 7b，每次在租的a100上跑3小时", "zh", "rtx-5090", "a100-80gb-sxm", 3.0, 2.0),
    ("买4090还是接着租？每个月微调三次llama 3.1 8b，在租的h100上每次4小时", "zh", "rtx-4090", "h100-sxm", 4.0, 3.0),
]


@pytest.mark.parametrize(("text", "lang", "buy", "rented", "hours", "runs"), BUY_RENT, ids=[c[0] for c in BUY_RENT])
def test_buy_or_keep_renting_is_answered_with_a_month_of_rent_against_the_purchase(text, lang, buy, rented, hours, runs):
    u = understand(text)
    # one consumer card is bought alone, not as a whole server (36efa4a: 'buy an H20 server or rent A800s')
    assert u.ask["buy_or_rent"] == {"buy": buy, "rented": rented, "hours": hours, "server": False}
    assert u.updates["runs_per_month"] == runs and "preference" not in u.updates
    reply = run_conversation([text])[-1]
    data = payload(reply)
    assert data["kind"] == "answer"  # answered, the method not asked first
    v = data["buy_or_rent"]
    assert v["buy"] == buy and v["rented"] == rented and v["hours"] == hours and v["runs_per_month"] == runs
    assert v["rent_usd_per_month"] == pytest.approx(runs * hours * v["usd_per_hour"])
    assert v["payback_months"] == pytest.approx(find_gpu(buy).buy_price_usd / v["rent_usd_per_month"])
    assert v["code"] == "rent"  # a few hours a month never pays for a card within the horizon
    assert v["fits"] == {"full": False, "lora": True, "qlora": True}  # a 7-8B: LoRA on one consumer card, not full
    assert reply.content.startswith("**Buy the" if lang == "en" else "**买 ")


# ---- people inside a company are a head-count; a purchase ranks on what buying costs
@pytest.mark.parametrize("text", ["公司预算10万人民币买机器，部署qwen3-32b给内部50人用，买4090还是L20好",
                                  "部署qwen3-32b给公司内部50人用，预算10万买4090还是L20"])
def test_staff_inside_the_company_are_not_all_at_once_and_the_buy_verdict_names_count_and_price(text):
    u = understand(text)
    assert u.updates["population"] == 50 and "users" not in u.updates
    reply = run_conversation([text])[-1]
    data = payload(reply)
    also = next(a for a in data["also"] if a["code"] == "compare_cards")
    assert also["verdict"]["code"] == "only" and also["verdict"]["pick"] == "rtx-4090"
    best = data["results"]["recommend"]["best"]
    assert best["gpu"] == "rtx-4090" and best["purchase_usd"] <= 100_000 * data["results"]["recommend"]["usd_per_cny"] + 1
    last = reply.content.strip().splitlines()[-1]
    assert f"{best['gpus']} × " in last and "购买" in last
    assert "购买价" in reply.content  # the table prices what buying costs


# ---- a job in two parts: each part weighed, one pick
@pytest.mark.parametrize(("text", "lang"), [
    ("macbook m4 pro 48gb vs a desktop with a 4090, for running models + small finetunes. budget 3k usd", "en"),
    ("m4 pro 48gb macbook or 4090 desktop? running models locally and some lora finetuning", "en"),
    ("macbook m4 pro 48gb和4090台式机哪个好？本地跑模型+偶尔微调", "zh"),
])
def test_a_job_in_two_parts_gets_a_verdict_per_part_and_one_pick(text, lang):
    u = understand(text)
    assert u.ask["jobs"] == ["local", "train"]
    reply = run_conversation([text])[-1]
    v = payload(reply)["results"]["verdict"]
    assert v["code"] == "mixed" and v["pick"] == "rtx-4090"
    assert v["parts"]["train"]["figure"] == "compute" and v["parts"]["train"]["pick"] == "rtx-4090"
    assert v["parts"]["train"]["ratio"] >= 2
    assert set(v["parts"]) == {"local", "train"}


@pytest.mark.parametrize("text", ["离线翻译 5000 万 token，Qwen3-32B 还是 Qwen3-30B-A3B 更快更省钱",
                                  "offline translation of 50M tokens, qwen3-32b or qwen3-30b-a3b, which is faster and cheaper"])
def test_a_job_that_ends_is_faster_on_its_hours_and_cost_still_decides_the_pick(text):
    choice = payload(run_conversation([text])[-1])["model_choice"]
    v = choice["on_card"]["verdicts"]["speed"]
    assert v["figure"] == "hours" and v["pick"] == "qwen3-30b-a3b" and v["a"] < v["b"]
    assert choice["basis"] == "run" and choice["pick"] == "qwen3-30b-a3b"  # cost asked too: the cost verdict stays
