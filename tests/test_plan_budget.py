"""A monthly budget is checked against every card the plan says to run (the plan at each of two sites, a
spare copy for an availability target or N+1), billed at the hours it runs: a service around the clock
(730 h a month) unless the user said how busy it is."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpu_advisor.tools.cost import HOURS_PER_MONTH, try_price
from gpu_advisor.tools.recommend import Workload, recommend
from tests.conversation import answer_to, payload

MODELS = ["qwen2.5-7b", "llama-3.1-8b", "qwen2.5-32b", "llama-3.1-70b", "qwen2.5-72b"]


def _all_cards(o, w: Workload) -> int:
    """Every rented card the plan lists: its own (less yours), the second site's, the spare copy."""
    cards = o.gpus - o.owned_gpus
    if w.redundancy == "two-sites":
        return cards + o.gpus
    if w.redundancy == "n+1" or w.uptime is not None:
        return cards + o.gpus // max(o.replicas, 1)
    return cards


@settings(max_examples=25, deadline=None)
@given(model=st.sampled_from(MODELS), users=st.integers(1, 120), region=st.sampled_from(["global", "china"]),
       redundancy=st.sampled_from([None, "n+1", "two-sites"]), uptime=st.sampled_from([None, 99.9]),
       stated=st.sampled_from([None, 0.24, 1.0]), budget=st.sampled_from([500.0, 3000.0, 30000.0]))
def test_the_budget_check_bills_every_card_the_plan_runs_at_the_hours_it_runs(
        model, users, region, redundancy, uptime, stated, budget) -> None:
    fields = {"phase": "serve", "model": model, "users": users, "region": region, "redundancy": redundancy,
              "uptime": uptime, "budget_usd_per_month": budget, "preference": "rent"}
    if stated is None:
        fields["flexible"] = ["utilisation"]  # how busy was not said: a service runs around the clock
    else:
        fields["utilisation"] = stated
    w = Workload(**fields)
    rec = recommend(w, with_levers=False)
    for_others = users > 1 or uptime is not None or redundancy is not None
    hours = HOURS_PER_MONTH if stated is None and for_others else HOURS_PER_MONTH * w.utilisation
    for o in rec.options:
        price = try_price(o.gpu, w.region)
        if price is None or o.usd_per_hour is None or o.gpus == o.owned_gpus:
            continue
        floor = price.usd_per_gpu_hour_typical * _all_cards(o, w) * hours
        assert o.running_usd_per_month is not None
        assert o.running_usd_per_month >= floor * (1 - 1e-9)
        if o.meets.get("budget"):
            assert o.running_usd_per_month <= budget
        elif "budget" in o.meets:
            assert o.running_usd_per_month > budget


def test_two_sites_bill_the_plan_twice() -> None:
    base = dict(phase="serve", model="llama-3.1-70b", users=200, budget_usd_per_month=200000.0, utilisation=1.0)
    one = recommend(Workload(**base), with_levers=False).best
    two = recommend(Workload(**base, redundancy="two-sites"), with_levers=False).best
    assert one is not None and two is not None and (one.gpu, one.gpus) == (two.gpu, two.gpus)
    assert two.running_gpus == 2 * one.gpus
    assert two.running_usd_per_month == pytest.approx(2 * (one.running_usd_per_month or 0))


def test_an_uptime_target_bills_one_spare_copy() -> None:
    w = Workload(phase="serve", model="qwen2.5-72b", users=50, uptime=99.9, utilisation=1.0,
                 budget_usd_per_month=50000.0)
    best = recommend(w, with_levers=False).best
    assert best is not None
    assert best.running_gpus == best.gpus + best.gpus // best.replicas


@cache
def _answer(message: str):
    return answer_to(message)


CASES = [
    ("serve llama 3.1 70b to 200 users across two data centers, 99.9% uptime, budget $30k/month, rent",
     "the plan at each of two sites", "two-sites"),
    ("we need N+1 redundancy: serve qwen2.5 72b to 50 users, budget $10000 a month", "N+1", "n+1"),
    ("部署llama 3.1 70b给200人用，两个机房双活，每月预算20万", "两个机房各放一整套方案", "two-sites"),
    ("部署qwen2.5 72b给50人用，要求N+1冗余，每月预算3万", "N+1", "n+1"),
]


@pytest.mark.parametrize(("message", "phrase", "redundancy"), CASES)
def test_the_budget_line_names_every_card_it_bills(message: str, phrase: str, redundancy: str) -> None:
    reply = _answer(message)
    p = payload(reply)
    assert p["profile"]["redundancy"] == redundancy
    line = next(x for x in reply.content.splitlines() if x.startswith(("**Budget:**", "**预算**")))
    assert phrase in line
    assert "730" in line


@pytest.mark.parametrize("message", ["serve qwen2.5 72b to 50 users, budget $3000 a month",
                                     "部署qwen2.5 72b给50人用，每月预算1万"])
def test_a_service_with_no_hours_said_is_billed_around_the_clock(message: str) -> None:
    line = next(x for x in _answer(message).content.splitlines() if x.startswith(("**Budget:**", "**预算**")))
    assert "730" in line


def test_one_persons_model_is_billed_at_its_use() -> None:
    w = Workload(phase="serve", model="llama-3.1-8b", users=1, budget_usd_per_month=100.0, utilisation=0.24,
                 flexible=["utilisation"])
    best = recommend(w, with_levers=False).best
    assert best is not None and best.running_hours == pytest.approx(HOURS_PER_MONTH * 0.24)
