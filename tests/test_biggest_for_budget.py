"""'What's the biggest model i can run locally on a $3000 budget' with no card and no model named (issue 21, h-budget):
answered at once with the rigs the budget buys (one-off) or rents (a month), each with the largest catalog model it
holds (tools.budget_rigs over tools.largest), in the user's language, with no phase or model question. A budget beside
a model already known stays the plan's question (assistant/asked_more.py); a card named, the card's (largest.py)."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest

from gpu_advisor.knowledge import rules
from gpu_advisor.tools.cost import HOURS_PER_MONTH, price_quote
from gpu_advisor.tools.largest import largest
from gpu_advisor.tools.recommend import Workload
from tests.conversation import run_conversation
from tests.test_no_english_in_chinese import english_runs

CJK = re.compile(r"[\u3400-\u9fff]")

# (language, the budget as said, its dollars): '3k' and '2万' each with a budget word, as people say them
AMOUNTS_EN = [("$3000", 3000.0), ("3k", 3000.0), ("3000 dollars", 3000.0)]
AMOUNTS_ZH = [("3000美元", 3000.0), ("两万块", 20000 * rules().usd_per_cny), ("2万", 20000 * rules().usd_per_cny)]
ASK_EN = {  # several orders: the budget first, last, in the middle
    "serve": ["what's the biggest model i can run locally on a {amt} budget", "my budget is {amt}, what's the largest "
              "model I can run locally?", "with a budget of {amt}, what is the biggest llm i could run at home?"],
    "train": ["what's the biggest model i can fine-tune locally on a {amt} budget", "my budget is {amt}, what's the "
              "largest model I can fine-tune?"],
}
ASK_ZH = {
    "serve": ["{amt}预算，本地最大能跑多大的模型", "预算{amt}，本地最大能跑多大的模型？", "我有{amt}的预算，最大能跑什么模型"],
    "train": ["{amt}预算，本地最大能微调多大的模型", "预算{amt}，最大能微调多大的模型？"],
}
ONE_OFF = [(lang, job, ask.format(amt=said), usd)
           for lang, asks, amounts in (("en", ASK_EN, AMOUNTS_EN), ("zh", ASK_ZH, AMOUNTS_ZH))
           for job, amt_ask in asks.items() for ask, (said, usd) in itertools.product(amt_ask, amounts)]


def _budget_answer(reply: Any) -> dict[str, Any]:
    data = reply.additional_kwargs["gpu_advisor"]
    assert data["kind"] == "info" and data.get("topic") == "budget_largest", reply.content[:300]
    assert not data.get("choices") and not data.get("slot"), "no question asked"  # no phase, no model question
    return data["results"]["budget_largest"]


def _in_language(text: str, lang: str) -> None:
    if lang == "zh":
        assert CJK.search(text) and not english_runs(text), english_runs(text)
    else:
        assert not CJK.search(text), text


def _expected_top(gpu: str, n: int, trains: bool, region: str) -> float:
    """The largest catalog model `n` × `gpu` holds, sized here with tools.largest directly (4-bit GGUF, 8k, one user;
    or QLoRA)."""
    w = Workload(phase="fine-tune" if trains else "serve", model="llama-3.1-8b", users=1, region=region)
    r = largest(w, gpu, n, method="qlora" if trains else None, precision=None if trains else "q4_k_m")
    return max(e.params_b for e in r.examples)


@pytest.mark.parametrize(("lang", "job", "text", "usd"), ONE_OFF)
def test_a_one_off_budget_is_answered_with_the_rigs_it_buys(lang: str, job: str, text: str, usd: float) -> None:
    reply = run_conversation([text])[-1]
    found = _budget_answer(reply)
    _in_language(str(reply.content), lang)
    assert not found["monthly"] and found["budget_usd"] == pytest.approx(usd, abs=1)
    assert found["trains"] == (job == "train") and found["has_host"]
    first, rigs = found["rigs"][0], found["rigs"]
    # two RTX 3090s, priced used (no longer sold new), hold the largest model for the money
    assert (first["gpu"], first["gpus"], first["used"]) == ("rtx-3090", 2, True)
    assert first["usd"] == 1600
    region = "china" if lang == "zh" else "global"
    assert first["params_b"] == _expected_top("rtx-3090", 2, job == "train", region)
    assert first["params_b"] >= (46 if job == "train" else 70)
    assert all(r["usd"] <= usd + 0.01 for r in rigs)
    assert [r["params_b"] for r in rigs] == sorted((r["params_b"] for r in rigs), reverse=True)
    assert any(r["whole_computer"] for r in rigs), "the Mac the budget buys is shown beside the cards"
    assert ("rtx-5090", 1) in {(r["gpu"], r["gpus"]) for r in rigs}
    if job == "serve":
        assert first["precision"] == "q4_k_m" and first["decode_tokens_per_s"] > 0
        assert f"{first['decode_tokens_per_s']:,.0f}" in reply.content


MONTHLY = [("en", "$300 a month, what's the biggest model I can run?"),
           ("en", "what's the biggest model i can run with a budget of $300 per month?"),
           ("zh", "每月300美元，最大能跑多大的模型"),
           ("zh", "预算每月300美元，最大能跑什么模型？")]


@pytest.mark.parametrize(("lang", "text"), MONTHLY)
@pytest.mark.parametrize("train", [False, True])
def test_a_monthly_budget_rents_the_cards_whose_month_fits(lang: str, text: str, train: bool) -> None:
    if train:
        text = text.replace("run", "fine-tune") if lang == "en" else text.replace("跑", "微调")
    reply = run_conversation([text])[-1]
    found = _budget_answer(reply)
    _in_language(str(reply.content), lang)
    assert found["monthly"] and found["budget_usd"] == 300 and found["hours_per_month"] == HOURS_PER_MONTH
    assert found["trains"] == train
    region = "china" if lang == "zh" else "global"
    for r in found["rigs"]:
        rate = price_quote(r["gpu"], region).usd_per_gpu_hour_typical
        assert r["usd"] == pytest.approx(r["gpus"] * rate * HOURS_PER_MONTH, abs=0.01) and r["usd"] <= 300
        assert r["gpus"] * 2 * rate * HOURS_PER_MONTH > 300 or r["gpus"] == 8  # the most cards the month pays for
    assert [r["params_b"] for r in found["rigs"]] == sorted((r["params_b"] for r in found["rigs"]), reverse=True)
    if lang == "en":  # a 3090 rents for $0.18 an hour: two of them for $263 a month hold the largest model
        first = found["rigs"][0]
        assert (first["gpu"], first["gpus"]) == ("rtx-3090", 2)
        assert first["params_b"] == _expected_top("rtx-3090", 2, train, region)


@pytest.mark.parametrize(("lang", "first", "again"), [
    ("en", "$300 a month, what's the biggest model I can run?", "only 4 hours a day"),
    ("zh", "每月300美元，最大能跑多大的模型", "每天只用4小时")])
def test_the_hours_said_make_the_month_rent_more_cards(lang: str, first: str, again: str) -> None:
    before, after = (_budget_answer(r) for r in run_conversation([first, again]))
    assert after["hours_per_month"] == pytest.approx(HOURS_PER_MONTH * 4 / 24, abs=0.2)
    assert after["rigs"][0]["params_b"] > before["rigs"][0]["params_b"]


@pytest.mark.parametrize("text", ["biggest model i can run on a $3000 budget, used is fine",
                                  "3000美元预算，二手也行，本地最大能跑多大的模型"])
def test_used_said_prices_every_card_with_a_used_price_used(text: str) -> None:
    found = _budget_answer(run_conversation([text])[-1])
    assert found["used_said"]
    rows = {r["gpu"]: r for r in found["rigs"]}
    assert rows["rtx-4060-ti-16gb"]["used"] and rows["rtx-4060-ti-16gb"]["usd"] == 650  # 2 × $325 used
    assert not rows["rtx-5090"]["used"]  # no used price on record: new


@pytest.mark.parametrize("text", ["biggest model i can run on a $3000 budget, I need a whole pc",
                                  "3000美元预算，要配一台整机，本地最大能跑多大的模型"])
def test_a_whole_pc_said_is_bought_inside_the_budget(text: str) -> None:
    found = _budget_answer(run_conversation([text])[-1])
    pc = rules().host_systems["consumer"].usd
    assert not found["has_host"]
    cards = [r for r in found["rigs"] if not r["whole_computer"]]
    assert cards and all(r["host_usd"] == pc and r["usd"] <= 3000 for r in cards)
    assert ("rtx-3090", 2) not in {(r["gpu"], r["gpus"]) for r in cards}  # $1,600 + the PC is over $3,000


def test_without_a_pc_said_the_cards_go_into_the_users_own_and_that_is_said() -> None:
    reply = run_conversation(["what's the biggest model i can run locally on a $3000 budget"])[-1]
    found = _budget_answer(reply)
    assert all(r["host_usd"] is None for r in found["rigs"])
    assert "a PC you already have" in reply.content and "4-bit" in reply.content and "8,192" in reply.content


@pytest.mark.parametrize(("lang", "text", "precision"), [
    ("en", "what's the biggest model i can run on a $3000 budget at q8", {"q8_0"}),
    ("zh", "预算3000美元，最大能跑多大的模型，q8", {"q8_0"})])
def test_a_format_said_is_the_format_sized(lang: str, text: str, precision: set[str]) -> None:
    found = _budget_answer(run_conversation([text])[-1])
    assert found["precision"] == "q8_0"
    assert {r["precision"] for r in found["rigs"]} <= precision | {"int8"}
    four = _expected_top("rtx-3090", 2, False, "china" if lang == "zh" else "global")
    assert found["rigs"][0]["params_b"] < four  # 8-bit holds a smaller model than 4-bit on the same cards


@pytest.mark.parametrize(("first", "follow", "check"), [
    ("what's the biggest model i can run locally on a $3000 budget", "used is fine", lambda f: f["used_said"]),
    ("what's the biggest model i can run locally on a $3000 budget", "I need a whole PC", lambda f: not f["has_host"]),
    ("3000美元预算，本地最大能跑多大的模型", "用来微调", lambda f: f["trains"]),
    ("3000美元预算，本地最大能跑多大的模型", "换成int8呢", lambda f: f["precision"] in ("int8", "q8_0"))])
def test_a_follow_up_that_changes_a_term_answers_again(first: str, follow: str, check: Any) -> None:
    replies = run_conversation([first, follow])
    assert check(_budget_answer(replies[-1])), replies[-1].content[:300]


@pytest.mark.parametrize(("budget", "ask"), [("$3000 budget", "what's the biggest model I can run?"),
                                             ("预算3000美元", "最大能跑多大的模型？")])
def test_the_question_after_a_budget_said_alone_is_the_budgets(budget: str, ask: str) -> None:
    found = _budget_answer(run_conversation([budget, ask])[-1])
    assert (found["rigs"][0]["gpu"], found["rigs"][0]["gpus"]) == ("rtx-3090", 2)


@pytest.mark.parametrize("turns", [
    ["serve llama 3.1 70b for 20 users", "budget is $3000 a month, what's the biggest model we can serve for that money?"],
    ["startup, budget is 25k/month for gpus. can we serve deepseek v3 at ~2 req/s, 4k token prompts, 800 token "
     "answers? if not, whats the biggest model we can serve for that money at the same load"],
    ["部署qwen2.5-72b给20个人用，工作时间", "每月预算3000美元，这笔钱最大能跑多大的模型？"]])
def test_a_budget_beside_a_model_stays_the_plans_question(turns: list[str]) -> None:
    reply = run_conversation(turns)[-1]
    data = reply.additional_kwargs["gpu_advisor"]
    assert data.get("topic") != "budget_largest"
    assert any(d["code"] == "biggest_model" for d in data.get("asked_more") or []), reply.content[:300]


@pytest.mark.parametrize("text", ["largest model i can run on 2x 4090", "largest model i can run on a 4090",
                                  "两张4090最大能跑多大的模型"])
def test_a_card_named_stays_the_cards_question(text: str) -> None:
    data = run_conversation([text])[-1].additional_kwargs["gpu_advisor"]
    assert data.get("topic") == "largest"


@pytest.mark.parametrize("text", ["what's the biggest model i can run locally on a $3000 budget",
                                  "2万块预算，本地最大能微调多大的模型", "每月300美元，最大能跑多大的模型",
                                  "biggest model i can run on a $3000 budget, I need a whole pc"])
def test_every_figure_shown_comes_from_the_tools_result(text: str) -> None:
    from gpu_advisor.assistant.engine import describe
    from gpu_advisor.knowledge import find_gpu
    from tests.conversation import unexplained_numbers

    reply = run_conversation([text])[-1]
    results = reply.additional_kwargs["gpu_advisor"]["results"]
    lang = "zh" if CJK.search(text) else "en"
    body = str(reply.content)
    for r in results["budget_largest"]["rigs"]:  # names carry digits of their own ('Qwen2.5 72B', 'M3 Pro (18-core')
        for name in (find_gpu(r["gpu"]).name, *(describe("model", m, lang) for m in (r["model"], r["dense_model"]) if m)):
            body = body.replace(name, " ")
    body = re.sub(r"(\d)B\b", r"\1 B", body)  # '46.7B': the size, read whole
    assert not unexplained_numbers(body, results), unexplained_numbers(body, results)


@pytest.mark.parametrize(("text", "usd", "first"), [
    ("biggest model i can run locally on a $800 budget", 800, ("rtx-3090", 1)),
    ("what's the largest model I can run with a $800 budget?", 800, ("rtx-3090", 1)),
    ("what can I run with a $100 budget", 100, None)])
def test_an_article_before_a_dollar_amount_is_no_card(text: str, usd: float, first: tuple[str, int] | None) -> None:
    """'on a $800 budget' is money, not the A800 ('a $100': not the A100)."""
    reply = run_conversation([text])[-1]
    found = _budget_answer(reply)
    assert found["budget_usd"] == usd
    assert ((found["rigs"][0]["gpu"], found["rigs"][0]["gpus"]) if found["rigs"] else None) == first
    assert "A800" not in reply.content and "A100" not in reply.content
