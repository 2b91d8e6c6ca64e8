"""'Rent A or buy B?' gets one answer (review s27: '创业公司，打算上线GLM-4.5-Air，日活大概五千，租云上H800划算还是自己买四张
4090 48G魔改卡？' ended with 'buy 4 × 4090 48GB' as the rent-or-buy verdict, the plan bought them, and then 'pick the
H800' as the comparison's verdict, 'the plan stays 4 × 4090').

Crossed here: rent/buy card pairs x phrasings (rent first or buy first, 'in the cloud', '自己买…还是上云租', 'is renting
… cheaper, or buying …') x English and Chinese. Each reply: the card said bought is weighed bought and the card said
rented is weighed rented, at the count that does the job (never one card that falls short); exactly one verdict;
the plan's headline goes the way it does; the purchase price of the setup is one figure wherever it is shown; and
the trade-off is said with the verdict (each setup's speed per user when they differ; the risks of a card warned
against, which rents first)."""

from __future__ import annotations

import re

import pytest

from gpu_advisor.knowledge import find_gpu
from tests.conversation import reply_once

# (case, English context, Chinese context, rent card, buy card, buy count, expected verdict code)
PAIRS = [
    ("glm-h800-4090mod", "We're a startup launching GLM-4.5-Air with about 5000 daily users",
     "创业公司，打算上线GLM-4.5-Air，日活大概五千", ("H800", "H800"), ("modded 4090 48GB", "4090 48G魔改卡"),
     "rtx-4090-48gb", "h800-sxm", 4, "rent_first"),
    ("qwen14-a100-4090", "Serving Qwen2.5-14B for my team of 10 people all day", "给团队10个人用Qwen2.5-14B，全天开着",
     ("A100", "A100"), ("RTX 4090", "4090"), "rtx-4090", "a100-80gb-sxm", 2, "buy"),
    ("qwen32-h100-l20", "Launching Qwen2.5-32B for 2000 daily users in China", "上线Qwen2.5-32B，日活两千",
     ("H100", "H100"), ("L20", "L20"), "l20", "h100-sxm", 2, "buy"),
    ("qwen72-h800-h20", "Launching Qwen2.5-72B in China for 2000 daily users", "上线Qwen2.5-72B，日活两千",
     ("H800", "H800"), ("H20", "H20"), "h20", "h800-sxm", 8, "rent"),
]
EN = [
    "{ctx}: rent {rent} or buy {n} {buy}?",
    "{ctx}. Should we rent {rent}s in the cloud or buy {n} {buy}s?",
    "{ctx}: buy {n}x {buy} or rent {rent}?",
    "{ctx}. Is renting {rent}s in the cloud cheaper, or buying {n} {buy} cards?",
]
ZH = [
    "{ctx}，租{rent}还是买{n}张{buy}？",
    "{ctx}，租云上{rent}划算还是自己买{n}张{buy}？",
    "{ctx}，自己买{n}张{buy}还是上云租{rent}？",
]
ZH_COUNT = {2: "两", 4: "四", 8: "八"}
CASES = [pytest.param(t.format(ctx=en, rent=r[0], buy=b[0], n=n), "en", buy, rent, code, id=f"{case}-en{i}")
         for case, en, _zh, r, b, buy, rent, n, code in PAIRS for i, t in enumerate(EN)] + \
        [pytest.param(t.format(ctx=zh, rent=r[1], buy=b[1], n=ZH_COUNT[n]), "zh", buy, rent, code, id=f"{case}-zh{i}")
         for case, _en, zh, r, b, buy, rent, n, code in PAIRS for i, t in enumerate(ZH)]
VERDICT = {"en": "**Verdict**", "zh": "**结论**"}
BUYS = {"en": "## Buy ", "zh": "## 购买 "}
RENTS = {"en": "## Rent ", "zh": "## 租用 "}
DOLLARS = re.compile(r"\$[\d,]+(?:\.\d+)?")


@pytest.fixture(scope="module")
def replies() -> dict[str, tuple[dict, str]]:
    return {}


@pytest.mark.parametrize(("text", "lang", "buy", "rent", "code"), CASES)
def test_one_verdict_that_the_headline_follows(text, lang, buy, rent, code, replies):
    data, reply = reply_once(text, replies)
    v = data["setup_buy_rent"]
    assert (v["buy"], v["rented"]) == (buy, rent)  # each card on the side it was said on
    assert v["verdict"] == code
    # exactly one verdict in the reply: the comparison under the plan points to it, never a second one
    assert reply.count(VERDICT[lang]) == 1, reply
    assert "stays with" not in reply and "仍然是" not in reply
    # the headline goes the way the verdict does, on the card and count it names
    headline = next(line for line in reply.splitlines() if line.startswith("## "))
    setup, rented = f"{v['buy_gpus']} × {v['buy_name']}", f"{v['rented_gpus']} × {v['rented_name']}"
    assert data["decision"]["action"] == v["code"]
    if v["code"] == "buy":
        assert headline.startswith(BUYS[lang]) and setup in headline
        assert (data["decision"]["gpu"], data["decision"]["gpus"]) == (buy, v["buy_gpus"])
    else:
        assert headline.startswith(RENTS[lang]) and rented in headline
        assert (data["decision"]["gpu"], data["decision"]["gpus"]) == (rent, v["rented_gpus"])
    verdict = next(line for line in reply.splitlines() if line.startswith(VERDICT[lang]))
    assert (rented if v["code"] == "rent" else setup) in verdict
    # nothing of the other language in the verdict
    if lang == "en":
        assert not re.search(r"[\u4e00-\u9fff]", verdict)
    else:
        assert "Verdict" not in verdict and " first" not in verdict


@pytest.mark.parametrize(("text", "lang", "buy", "rent", "code"), CASES)
def test_each_side_at_the_count_that_does_the_job_and_one_purchase_price(text, lang, buy, rent, code, replies):
    data, reply = reply_once(text, replies)
    v = data["setup_buy_rent"]
    rows = [line for line in reply.splitlines() if line.startswith("| ") and " × " in line]
    rented_rows = [r for r in rows if f"× {v['rented_name']} " in r or f"× {v['rented_name']}|" in r]
    # the rented card's rows are the count weighed, which does the job: no one-card strawman that falls short
    assert rented_rows and all(r.startswith(f"| {v['rented_gpus']} × ") for r in rented_rows), rented_rows
    assert all(" no " not in r and " 否 " not in r for r in rented_rows)
    # the purchase price of the setup: one figure in the rent-or-buy block and in the plan's table
    price = f"${v['cards_usd']:,.0f}"
    assert price in reply
    setup_rows = [r for r in rows if r.startswith(f"| {v['buy_gpus']} × {v['buy_name']}")]
    for r in setup_rows:
        assert all(x == price for x in DOLLARS.findall(r) if "," in x and float(x[1:].replace(",", "")) >= 1000), r
    # the price bought: the plan's own purchase price of those cards (tools.recommend), the PCs of desktop cards too
    card = find_gpu(buy)
    assert v["cards_usd"] >= card.buy_price_usd * v["buy_gpus"] * 0.999


@pytest.mark.parametrize(("text", "lang", "buy", "rent", "code"), CASES)
def test_the_trade_off_is_said_with_the_verdict(text, lang, buy, rent, code, replies):
    data, reply = reply_once(text, replies)
    v = data["setup_buy_rent"]
    verdict = next(line for line in reply.splitlines() if line.startswith(VERDICT[lang]))
    a, b = v.get("rent_tps"), v.get("buy_tps")
    assert a and b  # a service: each setup's speed per user weighed
    if round(a) != round(b):
        assert f"{max(a, b):,.0f}" in verdict and f"{min(a, b):,.0f}" in verdict
    if code == "rent_first":  # cheaper to own, on a card warned against for a service: rent first, own later
        assert v["cost_code"] == "buy" and "consumer" in v["risks"]
        assert v["payback_months"] is not None and f"{v['payback_months']:,.0f}" in verdict
        assert ("ECC" in verdict) and (("first" in verdict) if lang == "en" else ("先租" in verdict))
    else:
        assert v["cost_code"] == code


@pytest.mark.parametrize("text", [
    "上线Qwen2.5-32B给30个人同时用，自己买两张5090还是上云租H100？",
    "Serving Qwen2.5-32B to 30 users at once: rent H100s or buy 2 RTX 5090s?",
])
def test_a_count_to_buy_that_cannot_do_the_job_is_weighed_at_the_count_that_can(text, replies):
    data, reply = reply_once(text, replies)
    v = data["setup_buy_rent"]
    assert (v["buy"], v["short_gpus"]) == ("rtx-5090", 2)
    assert v["buy_gpus"] == 4  # the fewest 5090s that hold the model at that load
    assert reply.index("2 × NVIDIA GeForce RTX 5090") < reply.index("4 × NVIDIA GeForce RTX 5090")
    assert reply.count("**Verdict**") + reply.count("**结论**") == 1
    assert data["decision"]["gpus"] == (v["buy_gpus"] if v["code"] == "buy" else v["rented_gpus"])
