"""A count of items said per day, week or month for a model (review CM #9: '想部署 Qwen2.5-VL-72B 做发票识别，每天大概两万张
图片' was asked how many people chat with it): a volume. Said with a window ('8小时内处理完', 'must finish in 8h',
'overnight') it is a batch job of that many items; without one a request rate spread over the period, its count a day
kept. A later 'not a chat, a batch done in 8 h' makes it a batch of that many items, never asked again; a use
refused ('不是聊天', 'not a chatbot') is never that use. Crossed over item nouns, count spellings, periods, windows and
languages."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import rules
from tests.conversation import run_states

N = 20_000
COUNTS_ZH = ["两万", "2万", "2w", "20000", "2.0万"]
COUNTS_EN = ["20000", "20,000", "20k", "~20k", "about 20000"]
NOUNS_ZH = ["张图片", "张发票", "张扫描件", "份发票", "张照片"]
NOUNS_EN = ["images", "invoices", "scans", "receipts", "photos", "scanned invoices", "pages", "documents"]
DAYS_ZH = ["每天{c}{noun}", "每天大概{c}{noun}", "每日{c}{noun}", "一天{c}{noun}", "一天大约有{c}{noun}"]
DAYS_EN = ["{c} {noun} a day", "{c} {noun} per day", "{c} {noun}/day", "{c} {noun} daily", "daily {c} {noun}",
           "{c} {noun} each day"]
LEADS_ZH = ["想部署 Qwen2.5-VL-72B 做发票识别，{v}，用什么卡？", "用qwen2.5-vl-72b，{v}", "部署qwen2.5-vl-72b {v}，预算每月三万块以内"]
LEADS_EN = ["we want qwen2.5-vl-72b to read {v}, what gpus?", "serve qwen2.5-vl-72b for {v}", "qwen2.5-vl-72b, {v}"]
WINDOWS_ZH = ["，8小时内处理完", "，白天8小时内跑完就行", "，要在8小时内处理完"]
WINDOWS_EN = [", must finish in 8h", ", has to be done within 8 hours", ", done in 8 hours"]


def _zh(lead, day, c, noun, window=""):
    return lead.format(v=day.format(c=c, noun=noun)) + window


def _en(lead, day, c, noun, window=""):
    return lead.format(v=day.format(c=c, noun=noun)) + window


ZH_NO_WINDOW = [_zh(lead, day, c, noun) for lead, day, c, noun in itertools.product(LEADS_ZH, DAYS_ZH, COUNTS_ZH, NOUNS_ZH)]
EN_NO_WINDOW = [_en(lead, day, c, noun) for lead, day, c, noun in itertools.product(LEADS_EN, DAYS_EN, COUNTS_EN, NOUNS_EN)]
ZH_WINDOW = [_zh(lead, day, c, noun, w) for lead, day, c, noun, w in
             itertools.product(LEADS_ZH[1:], DAYS_ZH[:3], COUNTS_ZH, NOUNS_ZH[:3], WINDOWS_ZH)]
EN_WINDOW = [_en(lead, day, c, noun, w) for lead, day, c, noun, w in
             itertools.product(LEADS_EN[1:], DAYS_EN[:3], COUNTS_EN, NOUNS_EN[:4], WINDOWS_EN)]


@pytest.mark.parametrize("text", ZH_NO_WINDOW + EN_NO_WINDOW)
def test_a_day_of_items_without_a_window_is_a_rate_over_the_day(text):
    u = understand(text)
    assert u.updates.get("phase") == "serve", text
    assert u.updates.get("items_per_day") == N, text
    assert u.updates.get("requests_per_s") == pytest.approx(N / 86400 * rules().daily_requests_peak_factor, rel=1e-3)
    assert "batch_items" not in u.updates and "users" not in u.updates, text


@pytest.mark.parametrize("text", ZH_WINDOW + EN_WINDOW)
def test_a_day_of_items_with_a_window_is_a_batch_of_them(text):
    u = understand(text)
    assert u.updates.get("phase") == "batch", text
    assert u.updates.get("batch_items") == N, text
    assert u.updates.get("deadline_hours") == 8, text
    assert "requests_per_s" not in u.updates and "items_per_day" not in u.updates, text


@pytest.mark.parametrize("text,per_day", [
    ("部署qwen2.5-vl-72b，每周十四万张图片", N), ("serve qwen2.5-vl-72b, 140k images a week", N),
    ("部署qwen2.5-vl-72b，每月60万张发票", N), ("serve qwen2.5-vl-72b for 600k invoices a month", N),
    ("部署qwen2.5-vl-72b，每个月60万页", N), ("serve qwen2.5-vl-72b, 600,000 pages per month", N)])
def test_a_week_or_a_month_of_items_is_its_share_of_a_day(text, per_day):
    u = understand(text)
    assert u.updates.get("phase") == "serve" and u.updates.get("items_per_day") == per_day, text
    assert u.updates.get("requests_per_s", 0) > 0, text


@pytest.mark.parametrize("text", [
    "不是聊天，是后台批量跑的", "不是用来聊天的，是批量处理", "这不是聊天机器人，是离线任务", "并非聊天，是批处理",
    "it's not a chatbot, it's a nightly batch", "this isn't a chatbot, it's a batch job", "not a chat bot, batch job",
    "no chatbot, it runs as an offline batch"])
def test_a_use_refused_is_never_that_use(text):
    assert understand(text).updates.get("use_case") is None, text


@pytest.mark.parametrize("text,use", [("做一个聊天机器人，50人同时用", "chat"), ("a chatbot for 50 people", "chat"),
                                      ("不要聊天机器人，要做客服", "support")])
def test_a_use_said_is_still_read(text, use):
    assert understand(text).updates.get("use_case") == use, text


@pytest.mark.parametrize("text", ["用qwen2.5-vl-72b每天识别两万张图片", "部署qwen2.5-vl-72b，每天要识别2w张发票",
                                  "qwen2.5-vl-72b 一天辨别20000张照片", "用qwen2.5-vl-72b做发票识别，每天大概两万张图片"])
def test_recognising_is_no_negation(text):  # 识别 is no 别 ('don't'): the count after it is no count refused
    assert understand(text).updates.get("items_per_day") == N, text


CORRECTIONS = [
    ("想部署 Qwen2.5-VL-72B 做发票识别，每天大概两万张图片，用什么卡？预算每月三万块以内", "不是聊天，是后台批量跑的，白天8小时内处理完就行"),
    ("部署qwen2.5-vl-72b，每天2w张发票", "不是用来聊天的，批量跑，8小时内跑完"),
    ("we want qwen2.5-vl-72b to read ~20k invoices a day, what gpus? budget 4k/month",
     "it's not a chatbot, it's a nightly batch, must finish in 8h"),
    ("serve qwen2.5-vl-72b for 20,000 scans per day", "it isn't a chat, it's an offline batch job, done within 8 hours"),
]


@pytest.mark.parametrize("first,second", CORRECTIONS)
def test_a_day_of_items_put_right_as_a_batch_is_a_batch_of_them_never_asked_again(first, second):
    one, two = run_states([first, second])
    assert one["profile"]["items_per_day"] == N
    assert one["profile"].get("images_per_request") == 1  # a vision model's items: one image a request
    assert one["profile"].get("users") is None
    profile = two["profile"]
    assert (profile["phase"], profile["batch_items"], profile["deadline_hours"]) == ("batch", N, 8)
    assert profile["runs_per_month"] == 30 and profile.get("use_case") is None
    assert profile.get("requests_per_s") is None
    for state in (one, two):
        reply = state["messages"][-1]
        assert reply.additional_kwargs["gpu_advisor"]["kind"] == "answer", reply.content[:300]
    text = two["messages"][-1].content
    assert "20,000" in text
    assert "多少条" not in text and "How many items" not in text and "同时" not in text.split("\n")[0]
