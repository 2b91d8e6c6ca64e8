"""Expert review, second round: a share online is a share of the people who use the service (staff, daily or
monthly actives), never of a company's headcount. Generated from counts, shares, orders and fillers in both
languages."""

from __future__ import annotations

import itertools
import math

import pytest

from gpu_advisor.assistant.reading import understand

# ---------------------------------------------------------------- 1. a share online of the user population

TEAMS = ["12 ppl startup", "a 12 person startup", "we're a 12 people company", "我们是12人的创业公司"]
POPULATIONS = [("~2000 daily active users", 2000), ("2000 DAU", 2000), ("20k monthly actives", 20000),
               ("MAU 20k", 20000), ("日活2000", 2000), ("月活2万", 20000), ("3000 employees", 3000),
               ("员工3000人", 3000)]
SHARES = [("maybe 5% online", 5), ("5% online at peak", 5), ("3% concurrent", 3), ("高峰3%在线", 3),
          ("maybe 3% online at peak", 3)]


@pytest.mark.parametrize(("team", "population", "share"), list(itertools.product(TEAMS, POPULATIONS, SHARES)))
def test_share_online_is_of_the_users_not_the_team(team: str, population: tuple[str, int], share: tuple[str, int]) -> None:
    said, people = population
    share_said, pct = share
    u = understand(f"{team}, {said}, {share_said}, llama 3.1 8b")
    assert u.updates.get("users") == math.ceil(people * pct / 100)
    assert u.updates.get("population") == people


@pytest.mark.parametrize(("said", "share", "at_once"), [
    ("20k monthly actives, maybe 3% online at peak, 6k ctx, llama 3.1 8b", "3", 600),
    ("12 ppl startup ... ~2000 daily active users, maybe 5% online", "5", 100),
    ("月活2万，高峰3%在线", "3", 600),
])
def test_share_online_said_in_a_note(said: str, share: str, at_once: int) -> None:
    u = understand(said)
    assert u.updates["users"] == at_once
    assert ("note.online_share", {"share": share, "population": f"{u.updates['population']:,}", "n": f"{at_once:,}"}) in u.notes


@pytest.mark.parametrize("team", TEAMS)
def test_a_team_size_alone_is_no_population(team: str) -> None:
    u = understand(f"{team}, llama 3.1 8b chatbot")
    assert "population" not in u.updates and "users" not in u.updates


# ---------------------------------------------------------------- 2. tokens in and out, a small output

MODELS = ["Qwen2.5-7B", "llama 3.1 8b", "serve qwen2.5 7b"]
IN_OUT = ["{i} tokens in {o} out", "{i} tokens in, {o} out", "输入{i}输出{o}", "输入 {i}，输出 {o}", "input {i}, output {o}"]


@pytest.mark.parametrize(("model", "said", "sizes"),
                         list(itertools.product(MODELS, IN_OUT, [(800, 20), (2000, 5), (1500, 64)])))
def test_tokens_in_and_out_with_a_small_output(model: str, said: str, sizes: tuple[int, int]) -> None:
    i, o = sizes
    u = understand(f"{model}, 20 req/s, {said.format(i=i, o=o)}")
    assert u.updates["phase"] == "serve"
    assert (u.updates.get("prompt_tokens"), u.updates.get("output_tokens")) == (i, o)


# ---------------------------------------------------------------- 3. an explicit window wins over overnight

DAY_WORDS = ["must finish overnight", "run it tonight", "overnight job", "今晚跑完"]
WINDOWS = [("in an 8 hour window", 8), ("6h batch window", 6), ("we have 8 hours", 8), ("窗口8小时", 8),
           ("window of 5 hours", 5)]


@pytest.mark.parametrize(("day", "window", "first"), list(itertools.product(DAY_WORDS, WINDOWS, [True, False])))
def test_an_explicit_window_wins_over_overnight(day: str, window: tuple[str, int], first: bool) -> None:
    said, hours = window
    text = f"{said}, {day}" if first else f"{day} {said}"
    assert understand(f"100k docs, {text}").updates["deadline_hours"] == hours


@pytest.mark.parametrize("said", ["must finish overnight", "run it tonight", "今晚跑完"])
def test_overnight_alone_is_still_twelve_hours(said: str) -> None:
    assert understand(f"100k docs, {said}").updates["deadline_hours"] == 12


# ---------------------------------------------------------------- 4. a request rate with a latency target is serving

RATES = ["300 req/s peak", "300 rps", "峰值QPS 300", "300 requests per second at peak"]
LATENCY = ["p99 under 400ms", "first token under 400 ms", "p99 400ms以内"]


@pytest.mark.parametrize(("rate", "latency", "model"), list(itertools.product(RATES, LATENCY, ["Qwen2.5-7B, ", ""])))
def test_request_rate_with_a_latency_target_is_live_serving(rate: str, latency: str, model: str) -> None:
    u = understand(f"{model}{rate}, 800 tokens in 20 out, {latency}")
    assert u.updates["phase"] == "serve"
    assert u.updates["requests_per_s"] == 300 and u.updates["output_tokens"] == 20
    assert "batch_output_tokens" not in u.updates


# ---------------------------------------------------------------- 5. uptime with or without its % sign

UPTIMES = [("99.99 uptime", 99.99), ("99.9% uptime", 99.9), ("three nines", 99.9), ("four nines uptime", 99.99),
           ("five 9s", 99.999), ("四个9", 99.99), ("三个9的可用性", 99.9), ("99.99可用", 99.99), ("可用性99.95", 99.95),
           ("99.9 availability", 99.9)]


@pytest.mark.parametrize(("said", "target"), UPTIMES)
@pytest.mark.parametrize("frame", ["need {}", "serve llama 3.1 8b for 50 users, {}", "{}, qwen2.5 7b"])
def test_uptime_with_or_without_percent(said: str, target: float, frame: str) -> None:
    assert understand(frame.format(said)).updates.get("uptime") == target


@pytest.mark.parametrize("said", ["两个9B模型", "serve qwen 7b, 50 users, 90可用吗"])
def test_no_uptime_where_none_is_said(said: str) -> None:
    assert "uptime" not in understand(said).updates


@pytest.mark.parametrize(("text", "pin", "pout"), [
    (f"qwen3 30b a3b给200万条评论打标签，每条{lead}{a} token{inp} {b} {out}，三天内", a, b)
    for lead, inp, out, (a, b) in itertools.product(["大概", "", "约"], ["输入", "的输入"], ["输出", "token输出"],
                                                     [(500, 50), (1200, 80)])
] + [(f"label 2M reviews with qwen2.5 7b, each {a} tokens input {b} output", a, b) for a, b in [(500, 50), (1200, 80)]])
def test_an_input_label_after_its_number_leaves_the_next_number_the_output(text, pin, pout):
    u = understand(text).updates
    assert (u.get("batch_input_tokens"), u.get("batch_output_tokens")) == (pin, pout), (text, u)
