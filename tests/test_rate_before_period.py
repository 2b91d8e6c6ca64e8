"""A request rate said with the requests (or a peak word) before the period and no noun after the number:
'请求量到每秒 30 个', '高峰可能翻倍到每秒 40' (review BC #11, #20) are requests a second; a token speed said the same
way ('每秒生成40个token') stays a token speed."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand

LEADS = ["请求量", "预计请求量", "高峰", "峰值", "高峰可能翻倍", "下个季度预计请求量"]
LINKS = ["到", "会到", "能到", ""]
TAILS = ["", "个", " 个", "左右"]


@pytest.mark.parametrize(("lead", "link", "tail", "n"),
                         [(a, b, c, n) for (a, b, c), n in zip(itertools.product(LEADS, LINKS, TAILS), itertools.cycle((12, 30, 40)))])
def test_requests_before_the_period_are_a_rate(lead: str, link: str, tail: str, n: int) -> None:
    u = understand(f"{lead}{link}每秒 {n}{tail}", None)
    assert u.updates.get("requests_per_s") == n, u.updates


@pytest.mark.parametrize("text", ["每秒生成40个token", "每个用户每秒至少40 token"])
def test_a_token_speed_is_not_a_rate(text: str) -> None:
    u = understand(text, None)
    assert "requests_per_s" not in u.updates and u.updates.get("min_tokens_per_s") == 40
