"""One decision per answer (round F, verdict2): a service's buy-or-rent verdict, the plan heading and the plan's
card agree; a purchase in China never plans on a grey card when an officially sold one was named; a comparison's
verdict picks the card its own figures make cheaper, the card the plan heads; a speed comparison is like for like.
Asserted from the structured payload, EN and ZH, several phrasings, cards and loads."""
from __future__ import annotations

from typing import Any

import pytest

from tests.conversation import payload, run_conversation


def _heading(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("## "))


def _grey(gpu_id: str) -> bool:
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.knowledge.china_channel import officially_sold

    return not officially_sold(find_gpu(gpu_id))


# a China company weighing a grey card bought against an official card rented, with a load
GREY_RB = [
    "our company in beijing has about 500k RMB to spend. we want qwen2.5 32b for ~200 employees, maybe 30 using it "
    "at the same moment. buy a box of 4090s or just rent H20 by the hour? we'd use it mostly office hours",
    "we're a company in shanghai, qwen2.5 32b for 30 concurrent users, budget 500k RMB: rent H20 by the hour or buy "
    "a box of 4090s? office hours mostly",
    "我们北京公司预算50万，想给200个员工部署qwen2.5 32b，同时大概30人在用，买一台4090的机器还是按小时租H20？主要上班时间用",
    "公司在深圳，Qwen2.5-32B，同时30人用，按小时租H20还是买一台4090服务器？预算50万，基本白天用",
    "our company in beijing serves qwen2.5 14b to 20 people at once around the clock for 5 years: buy 4090s or rent "
    "L20?",
    "北京公司，Qwen2.5-14B，20个人同时用，全天候跑5年，买4090还是租L20？",
]


@pytest.mark.parametrize("message", GREY_RB)
def test_china_rb_plan_follows_the_verdict_on_an_official_card(message: str) -> None:
    reply = run_conversation([message])[-1]
    p = payload(reply)
    best = p["results"]["recommend"]["best"]
    action = p["results"]["recommend"]["action"]
    rb = p.get("buy_or_rent")
    assert not (action == "buy" and _grey(best["gpu"]))
    assert best["gpu_name"] in _heading(reply.content)
    if not rb:  # the question read as a plan with both cards (no head-on block): still never a grey purchase
        return
    assert rb.get("serving"), reply.content[:400]
    card, n = (rb["buy"], rb["buy_n"]) if rb["code"] == "buy" else (rb["rented"], rb["rented_n"])
    assert not (rb["code"] == "buy" and _grey(rb["buy"]))  # never a grey purchase planned
    assert best["gpu"] == card and best["gpus"] <= n, (best["gpu"], rb)
    assert action == rb["code"]
    if _grey(rb.get("grey") or rb["buy"]):
        assert rb.get("grey")  # the grey card said as such, the purchase weighed on the official one


def _compare(p: dict[str, Any]) -> dict[str, Any] | None:
    return next((a for a in p.get("also") or [] if a.get("code") == "compare_cards"), None)


# which of two cards is the better value for a service with a load, no buying word: the verdict, the plan heading and
# the printed costs agree, and the plan is rented (it was weighed on rent)
VALUE = [
    "L40S和A100 80G哪个跑Llama 3.1 8B推理性价比高，qps大概10，输入1000输出300",
    "跑Llama 3.1 8B推理，qps 10左右，输入1000输出300，A100 80G和L40S哪个更划算？",
    "which is better value for serving llama 3.1 8b at 10 requests per second, 1000 tokens in and 300 out: L40S or "
    "A100 80GB?",
    "A100 80GB vs L40S for llama 3.1 8b inference, about 10 qps, prompts 1000 tokens, outputs 300, which gives more "
    "for the money?",
    "H100和H20跑Qwen2.5-32B哪个性价比高？同时50个人用",
    "L4 or L40S, which is cheaper for serving mistral 7b to 40 users at once?",
    "qwen2.5 14b for 30 concurrent users, rtx 6000 ada or a100 80gb, which is more cost-effective?",
]


@pytest.mark.parametrize("message", VALUE)
def test_value_verdict_follows_its_figures_and_heads_the_plan(message: str) -> None:
    reply = run_conversation([message])[-1]
    p = payload(reply)
    rec = p["results"]["recommend"]
    best = rec["best"]
    cmp_ = _compare(p)
    assert cmp_ is not None and cmp_.get("verdict"), reply.content[:300]
    v, costs = cmp_["verdict"], (cmp_.get("value") or {}).get("costs") or {}
    if v.get("pick"):
        assert v["pick"] == best["gpu"], (v, best["gpu"])  # one decision: the verdict's card is the plan's
    if v.get("code") == "cheaper":  # 'cheaper' is the lower cost as printed, on the basis named
        assert costs[v["pick"]] == min(costs.values()), (v, costs)
    assert best["gpu_name"] in _heading(reply.content)
    assert rec["action"] == "rent", _heading(reply.content)  # weighed on rent, no buying word: headed as rented


# two cards that carry the load at different counts: which is faster is said at the same count, the counts apart
LIKE = [
    "老板问我 H200 和 H100 跑 llama 3.1 70B 推理到底差多少，值不值得多花钱，并发100左右",
    "H100 和 H200 跑 Llama 3.1 70B 差多少？100并发",
    "H200 vs H100 for llama 3.1 70b inference at 100 concurrent users: how big is the difference, is it worth paying "
    "more?",
    "for 100 users at once on llama 3.1 70b, H100 or H200, which is faster and is the H200 worth it?",
]


@pytest.mark.parametrize("message", LIKE)
def test_speed_is_compared_at_the_same_count(message: str) -> None:
    from gpu_advisor.knowledge import find_gpu

    reply = run_conversation([message])[-1]
    p = payload(reply)
    cmp_ = _compare(p)
    assert cmp_ is not None, reply.content[:300]
    rows = [o for o in cmp_["options"] if o["ok"]]
    speed = cmp_.get("speed") or {}
    if len({o["gpus"] for o in rows}) > 1:  # different counts: the speed code is like for like
        assert speed.get("same_count") == max(o["gpus"] for o in rows)
        bw = {o["gpu"]: find_gpu(o["gpu"]).memory_bandwidth_gbps for o in rows}
        assert speed.get("pick") == max(bw, key=lambda g: bw[g])  # the card with more bandwidth, card for card
    text = reply.content
    assert "0.7" not in text  # never the slower card's bandwidth ratio given as the reason it is faster
    v = cmp_.get("verdict") or {}
    if v.get("pick"):
        assert v["pick"] == p["results"]["recommend"]["best"]["gpu"]
