"""Review J3 c4: a format the card lacks ('V100不支持bf16', 'the v100 doesn't do bf16') is negated, never the
precision chosen, and a card that 'doesn't do bf16' is not ruled out; a format asked for is still read."""
from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand

CARDS_ZH = ["V100", "v100", "我的卡", "这张卡"]
LACKS_ZH = ["不支持{f}", "是不是不支持{f}啊", "没有{f}", "不支持 {f}"]
TAILS_ZH = ["", "，有影响吗", "，会慢吗？"]
CARDS_EN = ["the v100", "my V100", "this card"]
LACKS_EN = ["doesn't do {f}", "does not support {f}", "lacks {f}", "doesn't support {f}", "has no {f} support"]
TAILS_EN = ["", ", does that matter", " - does it matter for lora?"]
FORMATS = ["bf16", "BF16"]


@pytest.mark.parametrize(("card", "lack", "tail", "fmt"),
                         list(itertools.product(CARDS_ZH, LACKS_ZH, TAILS_ZH, FORMATS))[::3])
def test_lacking_format_zh_is_not_the_precision(card: str, lack: str, tail: str, fmt: str) -> None:
    u = understand(card + lack.format(f=fmt) + tail)
    assert u.updates.get("precision") != "bf16"
    assert "v100-sxm2-32gb" not in (u.updates.get("exclude") or [])


@pytest.mark.parametrize(("card", "lack", "tail", "fmt"),
                         list(itertools.product(CARDS_EN, LACKS_EN, TAILS_EN, FORMATS))[::3])
def test_lacking_format_en_is_not_the_precision(card: str, lack: str, tail: str, fmt: str) -> None:
    u = understand(f"{card} {lack.format(f=fmt)}{tail}")
    assert u.updates.get("precision") != "bf16"
    assert "v100-sxm2-32gb" not in (u.updates.get("exclude") or [])


def test_lacking_one_format_keeps_the_one_chosen() -> None:
    assert understand("the card lacks bf16, so use fp16").updates.get("precision") == "fp16"


@pytest.mark.parametrize("text", ["用bf16", "改成bf16呢", "switch to bf16", "run it in bf16", "bf16 please"])
def test_format_asked_for_is_still_read(text: str) -> None:
    assert understand(text).updates.get("precision") == "bf16"


@pytest.mark.parametrize(("text", "card"), [("the T4 won't do, too slow", "t4"), ("the h20 won't do for us", "h20"),
                                            ("4090s won't do it", "rtx-4090")])
def test_card_that_wont_do_is_still_ruled_out(text: str, card: str) -> None:
    assert card in (understand(text).updates.get("exclude") or [])


# Review J3 c12: "高峰大概同时30个请求" is 30 requests in flight together (users), not an offline job of 30 items.
LEADS_ZH = ["", "客户不多，", "高峰", "高峰大概", "峰值时"]
AT_ONCE_ZH = ["同时{n}个请求", "同时大概{n}个请求", "同时{n}个会话", "同时{n}个对话"]
ENDS_ZH = ["", "吧", "左右吧", "。"]


@pytest.mark.parametrize(("lead", "body", "end", "n"),
                         list(itertools.product(LEADS_ZH, AT_ONCE_ZH, ENDS_ZH, [30, 8, 120]))[::4])
def test_requests_at_once_zh_are_users(lead: str, body: str, end: str, n: int) -> None:
    u = understand(lead + body.format(n=n) + end)
    assert u.updates.get("users") == n
    assert "batch_items" not in u.updates


@pytest.mark.parametrize("text", ["30 requests at once at peak", "about 30 concurrent requests at peak",
                                  "peak is 30 simultaneous requests"])
def test_requests_at_once_en_are_users(text: str) -> None:
    u = understand(text)
    assert u.updates.get("users") == 30
    assert "batch_items" not in u.updates


def test_job_of_requests_stays_items() -> None:
    assert understand("处理30个请求").updates.get("batch_items") == 30


# Review J3 c14: "一天用个三四个小时" is hours a day (utilisation), not left at the default.
LEADS_H = ["", "就我自己用，", "平时"]
DAY_ZH = ["一天用{h}个小时", "一天用个{h}个小时", "一天大概用{h}个小时", "每天用{h}个小时"]


@pytest.mark.parametrize(("lead", "body", "hours"),
                         list(itertools.product(LEADS_H, DAY_ZH, [("3-4", 4), ("三四", 4), ("6", 6)])))
def test_hours_a_day_zh_is_utilisation(lead: str, body: str, hours: tuple[str, int]) -> None:
    said, n = hours
    u = understand(lead + body.format(h=said) + "吧")
    assert u.updates.get("utilisation") == pytest.approx(n / 24, abs=1e-3)


@pytest.mark.parametrize("text", ["daily use 3-4 hours", "i use it 3-4 h/day", "about 4 hours a day"])
def test_hours_a_day_en_is_utilisation(text: str) -> None:
    assert understand(text).updates.get("utilisation") == pytest.approx(4 / 24, abs=1e-3)


# Review J3 c13: "deciding between buying an 8x H100 server vs renting" asks rent-or-buy; it prefers neither.
@pytest.mark.parametrize(("verb", "card", "joint", "other"),
                         list(itertools.product(["buying", "purchasing", "buy"], ["an 8x H100 server", "a 4090"],
                                                ["vs", "or"], ["renting", "rent", "just renting"])))
def test_buying_vs_renting_is_the_question(verb: str, card: str, joint: str, other: str) -> None:
    u = understand(f"deciding between {verb} {card} {joint} {other}. fine-tuning llama 3.1 8b")
    assert "rent_buy" in u.intents
    assert "preference" not in u.updates


def test_stated_preference_still_read() -> None:
    assert understand("we prefer renting, no buying").updates.get("preference") == "rent"
