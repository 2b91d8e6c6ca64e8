"""Review S27 (zhread): (1) calls counted with a bare measure word per day, hour, minute or second ('每天五万次', '一天5万回',
'50k hits a day') are a request rate, in a first message and in a correction ('不对，是每天五万次'); a bare count per period
with no noun at all ('no wait, 50k a day', '不对，是每天五万') corrects the rate of a plan that counted requests, and
alone names nothing; the people said at once beside a rate that puts fewer in flight are said back as at most that
many, never 'sized as all at once'. (2) A card's two forms said in Chinese ('PCIe版和SXM版的H100', 'H100的PCIe版和SXM版',
'SXM版H100和PCIe版差多少') are the two cards compared, as 'h100 pcie and sxm' is."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states

PEAK = 3  # a day's volume is sized at its busiest hour: 3x the day's average (knowledge rules, said in the note)
SECONDS = {"day": 86400, "hour": 3600, "minute": 60, "second": 1}


def _rate(n: float, period: str) -> float:
    return n / SECONDS[period] * (PEAK if period == "day" else 1)


# (the count as written, its value, its period): every number spelling of each
ZH_DAY = [("50000", 50000), ("5万", 50000), ("五万", 50000), ("5w", 50000), ("十二万", 120000), ("3000", 3000)]
ZH_HOUR = [("5000", 5000), ("五千", 5000), ("1.2万", 12000)]
ZH_MINUTE = [("300", 300), ("三百", 300)]
ZH_SECOND = [("20", 20), ("二十", 20)]
ZH_PERIODS = {"day": (["每天", "一天", "日均", "每日"], ZH_DAY), "hour": (["每小时", "一小时"], ZH_HOUR),
              "minute": (["每分钟", "一分钟"], ZH_MINUTE), "second": (["每秒", "每秒钟"], ZH_SECOND)}
ZH_MEASURES = ["次", "回"]
ZH_FIRST = ["部署qwen2.5 7b做客服，{per}{n}{mw}", "qwen2.5 7b 上线，{per}大概{n}{mw}左右，用什么卡", "{per}{n}{mw}，模型qwen2.5 7b，租卡"]


def _zh_cases() -> list[tuple[str, str, str, float]]:
    out = []
    for period, (pers, counts) in ZH_PERIODS.items():
        for per, (said, n), mw in itertools.product(pers, counts, ZH_MEASURES):
            out.append((per, said, mw, _rate(n, period)))
    return out


ZH_CASES = _zh_cases()


@pytest.mark.parametrize(("per", "n", "mw", "rate"), ZH_CASES)
@pytest.mark.parametrize("frame", ZH_FIRST)
def test_zh_calls_with_a_bare_measure_word_are_a_request_rate(frame, per, n, mw, rate):
    text = frame.format(per=per, n=n, mw=mw)
    got = understand(text).updates
    assert got.get("requests_per_s") == pytest.approx(rate, rel=1e-3), (text, got)
    assert got.get("phase") == "serve", (text, got)


@pytest.mark.parametrize(("per", "n", "mw", "rate"), ZH_CASES)
@pytest.mark.parametrize("frame", ["不对，是{per}{n}{mw}", "改成{per}{n}{mw}", "其实{per}大概{n}{mw}"])
def test_zh_correction_with_a_bare_measure_word_is_read_alone(frame, per, n, mw, rate):
    text = frame.format(per=per, n=n, mw=mw)
    got = understand(text).updates
    assert got.get("requests_per_s") == pytest.approx(rate, rel=1e-3), (text, got)


EN_COUNTS = [("50000", 50000), ("50k", 50000), ("50,000", 50000), ("fifty thousand", 50000), ("120k", 120000)]
EN_NOUNS = ["times", "hits", "calls", "requests", "queries"]
EN_DAY = ["a day", "per day", "/day", "each day"]
EN_FIRST = ["serve qwen2.5 7b, about {n} {noun} {per}", "we get {n} {noun} {per} on our support bot running llama 3.1 8b",
            "llama 3.1 8b api, {n} {noun} {per}, rent or buy?"]


@pytest.mark.parametrize(("said", "n"), EN_COUNTS)
@pytest.mark.parametrize("noun", EN_NOUNS)
@pytest.mark.parametrize("per", EN_DAY)
@pytest.mark.parametrize("frame", EN_FIRST)
def test_en_calls_counted_per_day_are_a_request_rate(frame, per, noun, said, n):
    text = frame.format(n=said, noun=noun, per=per).replace(" /day", "/day")
    got = understand(text).updates
    assert got.get("requests_per_s") == pytest.approx(_rate(n, "day"), rel=1e-3), (text, got)
    assert "context" not in got and "prefix_hit_rate" not in got, (text, got)  # '50k times' is no context, 'hits' no cache


@pytest.mark.parametrize(("per", "period"), [("an hour", "hour"), ("per hour", "hour"), ("a minute", "minute"),
                                             ("per second", "second"), ("/s", "second")])
@pytest.mark.parametrize("noun", EN_NOUNS)
def test_en_calls_counted_per_shorter_period_are_a_request_rate(noun, per, period):
    n = {"hour": 6000, "minute": 300, "second": 20}[period]
    text = f"serve qwen2.5 7b, about {n} {noun}{'' if per.startswith('/') else ' '}{per}"
    got = understand(text).updates
    assert got.get("requests_per_s") == pytest.approx(_rate(n, period), rel=1e-3), (text, got)


@pytest.mark.parametrize("text", ["70% cache hits", "cache hit rate 70%", "命中率70%"])
def test_a_cache_hit_rate_stays_a_hit_rate(text):
    assert understand(text).updates.get("prefix_hit_rate") == pytest.approx(0.7), text


BARE_EN = [("no wait, {n} a day", "day"), ("actually {n}/day", "day"), ("make it {n} per day", "day"),
           ("sorry, {n} an hour", "hour")]
BARE_ZH = [("不对，是每天{n}", "day"), ("改成一天{n}", "day"), ("日均{n}左右吧", "day"), ("改成每小时{n}", "hour")]


@pytest.mark.parametrize(("frame", "period"), BARE_EN + BARE_ZH)
@pytest.mark.parametrize(("said", "n"), [("50000", 50000), ("50k", 50000), ("5万", 50000), ("五万", 50000)])
def test_a_bare_count_per_period_alone_sizes_nothing(frame, period, said, n):
    if said in ("5万", "五万") and frame in dict(BARE_EN):
        said = "50k"
    text = frame.format(n=said)
    u = understand(text)
    assert "requests_per_s" not in u.updates, (text, u.updates)  # alone it names nothing to size ...
    kept = u.ask.get("period_rate") or {}  # ... but the rate it would be is kept for a plan that counted requests
    assert kept.get("period") == period and kept.get("requests_per_s") == pytest.approx(_rate(n, period), rel=1e-3), text


@pytest.mark.parametrize("text", ["we have 50k daily users", "每天五万人用", "50k a day budget for gpus is $2k", "每天跑3次"])
def test_no_request_rate_where_something_else_is_counted(text):
    u = understand(text)
    assert "requests_per_s" not in u.updates and "period_rate" not in u.ask, (text, u.updates, u.ask)


FIRST_ZH = "租卡还是买卡？模型是internlm3-8b，并发峰值两百，每天大概五十万次调用"
FIRST_EN = "serve llama 3.1 8b for 200 concurrent users at peak, about 500k requests a day"


@pytest.mark.parametrize(("first", "second"), [
    (FIRST_ZH, "不对，是每天五万次"), (FIRST_ZH, "改成每天五万次"), (FIRST_ZH, "不对，是一天5万回"),
    (FIRST_ZH, "不对，是每天五万"), (FIRST_ZH, "改成日均50000"), (FIRST_ZH, "改成一天5万条"),
    (FIRST_EN, "no wait, 50k a day"), (FIRST_EN, "actually 50k/day"), (FIRST_EN, "sorry, 50,000 hits a day"),
    (FIRST_EN, "make it 50k times per day")])
def test_a_correction_of_the_daily_count_resizes_the_plan(first, second):
    states = run_states([first, second])
    before, after = states[0]["profile"], states[1]["profile"]
    assert before["requests_per_s"] == pytest.approx(_rate(500000, "day"), rel=1e-3)
    assert after["requests_per_s"] == pytest.approx(_rate(50000, "day"), rel=1e-3), (second, after)
    assert after["users"] == 200
    reply = states[1]["messages"][-1].content
    zh = first == FIRST_ZH
    assert ("抱歉，我没看懂" if zh else "didn't") not in reply
    # the people said back as the plan sized them: at most 200 at once, the rate's count in flight
    assert ("最多 200 个用户同时使用" if zh else "at most 200 users at once") in reply, reply
    assert ("200 个用户（按全部同时使用测算）" if zh else "200 users, sized as all at once") not in reply
    assert ("每秒 1.74 个请求" if zh else "1.74 requests per second") in reply, reply


def test_a_bare_count_with_no_rate_before_is_not_a_rate():
    states = run_states(["serve llama 3.1 8b to 20 users at once", "no wait, 50k a day"])
    assert states[1]["profile"].get("requests_per_s") is None
    assert states[1]["profile"]["users"] == 20


# (the card as said, form a, form b, the catalog's card in form a, in form b)
CARDS = [("H100", "PCIe", "SXM", "h100-pcie", "h100-sxm"), ("h100", "nvl", "sxm", "h100-nvl", "h100-sxm"),
         ("A100", "PCIe", "SXM", "a100-80gb-pcie", "a100-80gb-sxm"),
         ("A100 40GB", "PCIe", "SXM", "a100-40gb-pcie", "a100-40gb-sxm"), ("H100", "PCIe", "NVL", "h100-pcie", "h100-nvl"),
         ("A100 80G", "pcie", "sxm4", "a100-80gb-pcie", "a100-80gb-sxm"), ("h100", "sxm5", "pcie", "h100-sxm", "h100-pcie")]
ZH_FORMS = ["{A}版和{B}版的{card}差别在哪？推理的时候影响大吗", "{card}的{A}版和{B}版有什么区别", "{card} {A}跟{B}有啥区别",
            "{B}版{card}和{A}版差多少", "{card} {A} 和 {card} {B} 推理差距大吗", "{card}的{A}款和{B}款哪个好",
            "{A}版本和{B}版本的{card}有什么不同", "{card} {A}和{B}版本的区别大吗", "{A}版跟{B}版的{card}差距大不大"]
EN_FORMS = ["whats the diff between {card} {A} and {B}, does it matter much for inference?", "{card} {A} vs {card} {B}?",
            "{card} {A} or {B}, which is better for serving"]


@pytest.mark.parametrize(("card", "a", "b", "a_id", "b_id"), CARDS)
@pytest.mark.parametrize("frame", ZH_FORMS + EN_FORMS)
def test_a_cards_two_forms_are_the_two_cards_compared(frame, card, a, b, a_id, b_id):
    text = frame.format(card=card, A=a, B=b)
    u = understand(text)
    assert "compare_cards" in u.intents, (text, u.intents)
    assert sorted(u.compare_gpus) == sorted([a_id, b_id]), (text, u.compare_gpus)
    assert "variant" not in u.ask and "interconnect" not in u.intents, (text, u.ask, u.intents)  # no model's variant


@pytest.mark.parametrize(("text", "card"), [("PCIe版H100够用吗", "h100-pcie"), ("NVL版的H100跑70b够吗", "h100-nvl"),
                                            ("SXM版的A100 40GB", "a100-40gb-sxm")])
def test_one_form_said_before_the_card_is_that_card(text, card):
    u = understand(text)
    named = set(u.compare_gpus) | ({u.whatif_gpus[1]} if u.whatif_gpus else set()) | set(u.updates.get("only") or [])
    assert named == {card}, (text, u.compare_gpus, u.whatif_gpus, u.updates)


@pytest.mark.parametrize("text", ["PCIe版和SXM版的H100差别在哪？推理的时候影响大吗", "H100的SXM版跟PCIe版推理差距大吗",
                                  "SXM版H100和PCIe版差多少"])
def test_the_chinese_form_question_gets_the_side_by_side_and_a_verdict(text):
    reply = run_states([text])[0]["messages"][-1].content
    for figure in ("NVIDIA H100 PCIe 80GB", "NVIDIA H100 SXM 80GB", "2,000 GB/s", "3,350 GB/s", "756 TFLOPS", "989 TFLOPS",
                   "350 W", "700 W", "**结论**"):
        assert figure in reply, (text, figure, reply)
    assert "NVLink 与 GPU 互联" not in reply and "LoRA" not in reply, reply  # not the concept card, nothing unrelated
