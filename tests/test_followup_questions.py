"""Follow-ups that carry their own question (assistant/reading/followups.py, assistant/followups.py): what a
speed figure is, the plan's GPU hours, the KV cache, why not another engine, whether a number of examples is
enough, why a card has no NVLink, the plan's monthly cost, an electricity price in cents. Generated phrasings
in both languages are read as their question (nothing sized, nothing filled); in a conversation each gets its
own reply from the plan's tool results, and a question still open stays open."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpu_advisor.assistant.reading import understand
from tests.conversation import payload, run_conversation

# (code, phrasings): each crossed with the openers and closers below.
PHRASES: dict[str, dict[str, list[str]]] = {
    "metric": {
        "en": ["are those ttft numbers p99 or averages", "is the first token latency a p99 or the mean",
               "are these tokens/s figures measured or estimates", "is that latency the median or worst case",
               "are the ttft figures averages"],
        "zh": ["首token延迟是p99还是平均值", "这些速度是实测的还是估算的", "ttft是中位数还是p99", "延迟是平均值吗"],
    },
    "gpu_hours": {
        "en": ["how many gpu hours is that in total", "what's that in gpu-hours", "total gpu hours",
               "how many GPU hours per month"],
        "zh": ["一共多少gpu小时", "总共多少卡时", "折合多少卡时", "这个要多少gpu小时"],
    },
    "kv_cache": {
        "en": ["how big is the kv cache per user", "how much memory does the kv cache take",
               "what's the kv cache size for qwen3 8b at 32k context"],
        "zh": ["qwen3 8b开32k上下文 kv cache大概占多少", "kv缓存占多少显存", "kv cache多大"],
    },
    "engine_choice": {
        "en": ["why not just llama.cpp", "why not ollama", "why don't we use sglang",
               "why not just use tensorrt-llm"],
        "zh": ["为什么不用llama.cpp", "为啥不用ollama", "为什么不直接用sglang"],
    },
    "data_enough": {
        "en": ["is 500 examples enough", "we only have 2000 rows of data, is that enough",
               "are 300 samples sufficient", "is 1k examples enough data"],
        "zh": ["数据只有五百条 够吗", "只有2000条数据够不够", "三百条样本够用吗"],
    },
    "interconnect": {
        "en": ["why can't the 4090 use nvlink", "why does the 4090 have no nvlink", "why no nvlink on the rtx 4090"],
        "zh": ["4090为啥不能nvlink", "4090为什么不支持nvlink", "4090为什么没有nvlink"],
    },
    "card_support": {
        "en": ["does the H200 support FP4", "does the b200 have fp4 tensor cores", "can the 4090 run fp8",
               "does the a100 support fp8", "is nvfp4 supported on the rtx 5090"],
        "zh": ["H20支持fp8吗", "4090支持fp8吗", "h200支持fp4吗", "b200有没有原生fp4"],
    },
    "total_cost": {
        "en": ["whats the monthly cost of that setup", "what's the cost per month", "how much per month",
               "what would the monthly bill be"],
        "zh": ["这套每月多少钱", "一个月费用多少", "每个月花多少"],
    },
}
OPENERS = {"en": ["", "ok ", "hmm, ", "quick question: ", "and "], "zh": ["", "好的，", "那", "请问"]}
CLOSERS = {"en": ["", "?", " ?", "??"], "zh": ["", "？", "?"]}


def _phrasings(lang: str):
    for code, by_lang in PHRASES.items():
        for phrase, opener, closer in itertools.product(by_lang[lang], OPENERS[lang], CLOSERS[lang]):
            yield code, f"{opener}{phrase}{closer}"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_follow_up_is_read_as_its_own_question(lang):
    """Every generated phrasing is its question code and fills no slot (nothing to size, nothing switched)."""
    count = 0
    for code, text in _phrasings(lang):
        u = understand(text)
        assert code in u.intents, (text, u.intents)
        # a monthly cost asked now plans a rental (874d86a, cost_asked.py: inferred, an earlier purchase stands)
        assert u.updates == ({"preference": "rent"} if code == "total_cost" else {}), (text, u.updates)
        assert not u.compare_gpus and not u.whatif_gpus, text
        count += 1
    assert count > 150


@pytest.mark.parametrize("text,card", [("4090为啥不能nvlink", "rtx-4090"), ("why can't the 4090 use nvlink?", "rtx-4090"),
                                       ("why does the rtx 3090 have no nvlink", "rtx-3090")])
def test_a_link_question_names_its_card(text, card):
    assert understand(text).ask.get("card") == card


@pytest.mark.parametrize("text,items", [("数据只有五百条 够吗", 500), ("is 500 examples enough?", 500),
                                        ("we only have 2k rows of data, is that enough", 2000)])
def test_a_data_question_keeps_its_count(text, items):
    assert understand(text).ask.get("items") == items


@pytest.mark.parametrize("text", ["electricity is 30 cents per kwh", "power is 30c/kWh", "electricity is thirty cents a kwh",
                                  "electricity is $0.30 per kwh"])
def test_an_electricity_price_in_cents_is_a_power_price(text):
    u = understand(text)
    assert u.updates.get("electricity_usd_per_kwh") == pytest.approx(0.3), text
    assert "budget_usd" not in u.updates and "budget_usd_per_month" not in u.updates


# Slots the engine asks about; a follow-up with its own question is never taken as their answer.
PENDING = ["phase", "model", "utilisation", "users", "method", "context", "region", "precision", "preference"]
OWN_CONTENT = [(code, text) for lang in ("en", "zh") for code, text in _phrasings(lang)]


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.sampled_from(OWN_CONTENT), st.sampled_from(PENDING))
def test_a_follow_up_with_its_own_question_is_never_swallowed_by_the_open_question(item, pending):
    """Whatever question is open, a message that asks its own question is that question: its code is read
    and no slot (the open one included) is filled from it."""
    code, text = item
    u = understand(text, pending)
    assert code in u.intents, (pending, text, u.intents)
    # a monthly cost asked now plans a rental (874d86a, cost_asked.py: inferred, an earlier purchase stands)
    expected = {"preference": "rent"} if code == "total_cost" and pending != "preference" else {}
    assert pending not in u.updates and u.updates == expected, (pending, text, u.updates)
    assert "not_sure" not in u.intents


PLAN = {"en": "serve qwen3 32b for 50 users, around the clock", "zh": "4张4090，部署qwen3 32b给30个人用，全天"}
ASKED = {
    "en": [("are those ttft numbers p99 or averages?", "metric"), ("how many gpu hours is that in total", "gpu_hours"),
           ("how big is the kv cache per user", "kv_cache"), ("why not just llama.cpp", "engine_choice"),
           ("why can't the 4090 use nvlink?", "interconnect"), ("whats the monthly cost of that setup", "total_cost")],
    "zh": [("首token延迟是p99还是平均值", "metric"), ("一共多少卡时", "gpu_hours"),
           ("qwen3 8b开32k上下文 kv cache大概占多少", "kv_cache"), ("为什么不用ollama", "engine_choice"),
           ("4090为啥不能nvlink", "interconnect"), ("这套每月多少钱", "total_cost")],
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_follow_ups_after_a_plan_are_answered_from_it(lang):
    """Each follow-up after a plan gets its own reply (kind info, its topic), the plan unchanged, in the
    conversation's language, and never 'didn't understand'."""
    for text, code in ASKED[lang]:
        plan, reply = run_conversation([PLAN[lang], text], thread=f"{lang}-{code}")
        assert payload(plan)["kind"] == "answer"
        p = payload(reply)
        assert p["kind"] == "info", (text, reply.content)
        assert p["topic"] == code, (text, p.get("topic"))
        assert "understand" not in reply.content and "没理解" not in reply.content
        has_cjk = any("\u4e00" <= ch <= "\u9fff" for ch in reply.content)
        assert has_cjk == (lang == "zh"), reply.content


def test_figures_come_from_the_tools():
    """GPU hours are the plan's GPUs x month hours x utilisation; the KV cache is inference_memory's; the TTFT
    answer states the plan's estimate and a range around it."""
    plan, hours, kv, metric = run_conversation([PLAN["en"], "how many gpu hours is that in total",
                                                "how big is the kv cache per user", "are those ttft numbers p99?"])
    best = payload(plan)["results"]["recommend"]["best"]
    month = payload(hours)["results"]["gpu_hours"]["month"]
    assert month["gpu_hours"] == pytest.approx(best["gpus"] * 730 * 1.0)
    data = payload(kv)["results"]["kv_cache"]
    assert data["model"] == "qwen3-32b" and data["context"] == 8192 and data["users"] == 50
    assert data["total_bytes"] == pytest.approx(data["per_user_bytes"] * 50)
    assert 1e9 < data["per_user_bytes"] < 4e9  # 64 layers x 8 KV heads x 128 x 2 x 2 bytes x 8,192 = 2.1 GB
    m = payload(metric)["results"]["metric"]
    assert m["kind"] == "model_estimate" and m["ttft_s"] == pytest.approx(best["ttft_s"])
    assert m["ttft_range_s"][0] <= m["ttft_s"] <= m["ttft_range_s"][1]


@pytest.mark.parametrize("turns,slot,code", [
    (["想微调qwen2.5 7b", "数据只有五百条 够吗"], "method", "data_enough"),
    (["fine-tune llama 3.1 8b", "is 500 examples enough?"], "method", "data_enough"),
    (["serve llama 3.1 8b for 20 users", "how big is the kv cache per user at 32k?"], "utilisation", "kv_cache"),
    (["serve llama 3.1 8b for 20 users", "why not just llama.cpp"], "utilisation", "engine_choice"),
])
def test_an_open_question_stays_open_after_a_follow_up_with_its_own_question(turns, slot, code):
    """The follow-up is answered, the question still open is asked again, and nothing was picked for it."""
    first, second = run_conversation(turns, thread=code + slot)
    assert payload(first)["kind"] == "question" and payload(first)["slot"] == slot
    p = payload(second)
    assert p["kind"] == "info" and p["topic"] == code, second.content
    assert p["slot"] == slot


def test_an_electricity_price_reprices_the_plan_not_a_budget():
    _plan, repriced = run_conversation([PLAN["en"], "electricity is 30 cents per kwh"])
    p = payload(repriced)
    assert p["kind"] == "answer"
    assert p["profile"]["electricity_usd_per_kwh"] == pytest.approx(0.3)
    assert not p["profile"].get("budget_usd") and not p["profile"].get("budget_usd_per_month")


@pytest.mark.parametrize("turns,native", [
    (["does the H200 support FP4?"], [False]),
    (["does the H200 support FP4?", "and B200?"], [False, True]),
    (["H20支持fp8吗", "那A100呢"], [True, False]),
    (["serve llama 3.1 70b to 20 people", "does the b200 support fp4?", "what about the h100?"], [None, True, False]),
])
def test_a_card_question_and_its_follow_up_are_answered_about_the_card_named(turns, native):
    """'does the H200 support FP4?' is answered from the card and format records; 'and B200?' after it asks
    the same of the B200 (not the open question again, not a sizing); the open question stays open."""
    replies = run_conversation(turns, thread="support-" + turns[-1])
    for reply, expected in zip(replies, native, strict=True):
        p = payload(reply)
        if expected is None:
            assert p["kind"] == "question"
            continue
        assert p["kind"] == "info" and p["topic"] == "card_support", reply.content
        assert [d["native"] for d in p["results"]["support"]] == [expected], reply.content
    if payload(replies[0])["kind"] == "question":
        assert payload(replies[-1])["slot"] == payload(replies[0])["slot"]  # the open question is asked again


@pytest.mark.parametrize("turns", [
    ["fine-tune qwen2.5 7b and serve it to 20 people", "what if its more like 12 hours a day"],
    ["微调qwen2.5 7b然后给20个人用", "如果一天只用12个小时呢"],
])
def test_a_changed_fact_at_an_unrelated_open_question_is_answered_not_asked_past(turns):
    """'what if it's more like 12 hours a day' while the fine-tuning method is asked: the use changes to 50% and
    the plan is answered at it (the method a stated assumption), not the method question asked again."""
    first, second = run_conversation(turns, thread=turns[0])
    assert payload(first)["kind"] == "question" and payload(first)["slot"] == "method"
    p = payload(second)
    assert p["kind"] == "answer", second.content
    assert p["profile"]["utilisation"] == pytest.approx(0.5)


@pytest.mark.parametrize("pending", [None, "method", "utilisation", "phase"])
def test_hours_a_day_in_chinese_are_the_use_whatever_the_verb(pending):
    """'一天只用12个小时', '每天开10个小时', '如果每天大概跑8小时呢': hours a day the cards are busy."""
    for day, adverb, verb, (hours, written) in itertools.product(
            ["每天", "一天", "每日"], ["", "只", "大概", "就"], ["", "用", "开", "跑", "运行"],
            [(12, "12"), (10, "十"), (8, "8"), (6, "六")]):
        for frame in ("{}", "如果{}呢", "{}左右"):
            text = frame.format(f"{day}{adverb}{verb}{written}个小时")
            u = understand(text, pending)
            assert u.updates.get("utilisation") == pytest.approx(hours / 24, abs=1e-3), (text, u.updates)
