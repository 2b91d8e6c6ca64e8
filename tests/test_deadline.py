"""Deadlines said as durations, from a weekday and time to another, and kept in every line of the answer."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading.daily_volume import read_deadline_or_day
from gpu_advisor.assistant.reading.message import prepare


def _hours(text: str) -> tuple[float | None, list[str]]:
    m = prepare(text, None)
    m.phase = "batch"
    return read_deadline_or_day(m), [key for key, _v in m.notes]


DURATIONS = [
    ("周五前要跑完（还有3天）", 72), ("还有3天，周五前要跑完", 72), ("周五之前，也就是3天内要跑完", 72),
    ("剩两天要跑完", 48), ("只剩2天了，周五前", 48), ("3天内跑完", 72), ("还剩 4 天", 96),
    ("need it by friday, 3 days left", 72), ("3 days left, deadline friday", 72),
    ("must be done within 2 days, by friday", 48), ("deadline friday (in 3 days)", 72), ("within 5 days", 120),
    ("due thursday (2 days)", 48), ("by thursday, so about 48 hours", 48), ("周四前，也就是两天后要交", 48),
    ("we need it by thursday, that's 2 days from now", 48), ("by friday, i.e. 72 hours", 72),
]


@pytest.mark.parametrize(("text", "hours"), DURATIONS)
def test_duration_counts_without_the_weekday_caveat(text: str, hours: float) -> None:
    got, notes = _hours(text)
    assert got == hours
    assert "reply.deadline_weekday_span" not in notes


@pytest.mark.parametrize("text", ["by friday", "周五前要跑完", "deadline is friday"])
def test_weekday_alone_keeps_the_stated_short_end(text: str) -> None:
    got, notes = _hours(text)
    assert got == 24
    assert "reply.deadline_weekday_span" in notes


WINDOWS = [
    ("deadline is monday morning, its friday 5pm now.", 64), ("its friday 5pm, due monday morning", 64),
    ("it's friday 17:00 and it must be done by monday 9am", 64), ("from friday 5pm to monday 9am", 64),
    ("we have from friday evening until monday morning", 63), ("现在是周五下午5点，周一早上要跑完", 64),
    ("今天周五，下午5点，周一早上之前要出结果", 64), ("周五下班到周一早上要跑完", 63),
    ("周五晚上到周一早上，要跑完", 63), ("its wednesday 10am, deadline is next monday 10am", 120),
]


@pytest.mark.parametrize(("text", "hours"), WINDOWS)
def test_weekday_and_hour_to_weekday_is_counted(text: str, hours: float) -> None:
    got, notes = _hours(text)
    assert got == hours
    assert any(key.startswith("deadline.window") for key in notes)
    assert "reply.deadline_weekday_span" not in notes


@pytest.mark.parametrize("text", ["周一到周五用", "monday to friday, 9 to 5", "today is tuesday, by friday"])
def test_no_window_without_both_hours(text: str) -> None:
    _got, notes = _hours(text)
    assert not any(key.startswith("deadline.window") for key in notes)


WEEK = ["we have a week.", "we've got one week", "only have a week to do it", "a week left", "deadline is a week",
        "we got a week to finish", "只有一个星期", "一个星期内要训完", "有一周时间", "还有一周", "时间只有一周"]


@pytest.mark.parametrize("text", WEEK)
def test_a_week_said_without_a_number(text: str) -> None:
    assert _hours(text)[0] == 168


def test_a_week_of_data_is_no_deadline() -> None:
    assert _hours("we have a week of data")[0] is None


def _rows(reply: str) -> list[tuple[str, float]]:
    """(option, hours per run) of each row of the options table."""
    rows = []
    for line in reply.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if line.startswith("| ") and len(cells) == 5 and "×" in cells[0]:
            rows.append((cells[0], float(cells[3].replace(",", ""))))
    return rows


FT = {"en": "full fine tune of mistral 7b on 2 million chat samples, avg 1k tokens, 2 epochs. {due}. how many a100 80gb "
            "do i need and whats the cost",
      "zh": "全参微调mistral 7b，200万条对话，每条1k token，2个epoch，{due}，要几张a100 80g，租的话多少钱"}
DUES = [("en", "we have a week", 168), ("en", "we have 3 days", 72), ("zh", "只有一个星期", 168), ("zh", "还剩3天", 72)]


@pytest.mark.parametrize(("lang", "due", "hours"), DUES)
def test_options_missing_the_deadline_are_not_offered(lang: str, due: str, hours: float) -> None:
    from tests.conversation import run_conversation
    reply = run_conversation([FT[lang].format(due=due)])[-1].content
    assert (f"a deadline of {hours:,.0f} h" if lang == "en" else f"截止时间 {hours:,.0f} 小时") in reply
    rows = _rows(reply)
    assert rows and all(h <= hours for _o, h in rows)
    assert "A100" in rows[0][0]


QUOTED = [
    ("en", ["full finetune of qwen2.5 7b on about 2 billion tokens of domain text (continued pretraining basically), "
            "seq len 4096. want it done within a week. how many H100s do we rent and whats the bill",
            "actually we got a quote for A100 80gb at 1.10/hr per gpu, redo it with those"], "$182"),
    ("en", ["we got a quote for a100 80gb at $1.10 per gpu hour. full fine tune llama 3.1 8b on 1B tokens, "
            "done within a week, how many do we rent and what does it cost?"], None),
    ("zh", ["全参继续预训练qwen2.5 7b，20亿token领域文本，序列长度4096，一周内要训完，租几张H100，多少钱",
            "我们拿到A100 80G的报价，每卡每小时7.5元，按这个重新算"], "¥1,242"),
]


@pytest.mark.parametrize(("lang", "turns", "bill"), QUOTED)
def test_the_users_price_is_the_one_bill(lang: str, turns: list[str], bill: str | None) -> None:
    from tests.conversation import run_conversation
    reply = run_conversation(turns)[-1].content
    head = next(x for x in reply.splitlines() if "rented)" in x or "租用约" in x)
    quoted = next(line for line in reply.splitlines() if line.startswith("| ") and "A100" in line)
    price = quoted.split("|")[5].strip().split(" (")[0].split("（")[0]
    assert price in head
    if bill:
        assert price == bill
    assert "a month at" not in reply and "每月" not in reply


GO_LIVE = [
    ("en", "serving Llama 3.1 70B for 200 users, 8k ctx, need it by end of month, H100 or H200?", "rent"),
    ("en", "need it by end of month: serving llama 3.1 70b to 200 users with 8k context, h100 or h200", "rent"),
    ("zh", "给200人部署llama 3.1 70b，8k上下文，月底前要上线，用H100还是H200", "rent"),
    ("en", "serving Llama 3.1 70B for 200 users, 8k ctx, we want to buy, need it by end of month, H100 or H200?", "buy"),
]


@pytest.mark.parametrize(("lang", "text", "action"), GO_LIVE)
def test_go_live_sooner_than_delivery_rents(lang: str, text: str, action: str) -> None:
    from tests.conversation import run_conversation
    reply = run_conversation([text])[-1].content
    head = reply.splitlines()[0]
    assert head.startswith({"rent": {"en": "## Rent", "zh": "## 租用"}, "buy": {"en": "## Buy", "zh": "## 购买"}}[action][lang])
    if action == "rent":
        assert ("Rent first" if lang == "en" else "先租") in reply


OWNED_LATE = [
    ("en", "i have 2x a100 80gb. full fine tune of mistral 7b on 2 million chat samples, avg 1k tokens, 2 epochs. "
           "we have a week, enough?", "**No**"),
    ("en", "we have a week and 2 a100 80gb of our own: is that enough to fully fine tune mistral 7b on 2M samples of "
           "1k tokens for 2 epochs?", "**No**"),
    ("zh", "我们有2张a100 80g，全参微调mistral 7b，200万条数据每条1k token，2个epoch，只有一个星期，够吗", "**不够**"),
    ("en", "i have 4x a100 80gb. full fine tune of mistral 7b on 2 million chat samples, avg 1k tokens, 2 epochs. "
           "we have a week, enough?", "**Yes**"),
]


@pytest.mark.parametrize(("lang", "text", "first"), OWNED_LATE)
def test_own_cards_past_the_deadline_are_not_enough(lang: str, text: str, first: str) -> None:
    from tests.conversation import run_conversation
    reply = run_conversation([text])[-1].content
    assert reply.startswith(first)
    if first != "**Yes**":
        assert "191" in reply.splitlines()[0] and "168" in reply.splitlines()[0]
