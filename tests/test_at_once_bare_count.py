"""A count of people said with an at-once word is people at once, before or after its noun, and the bare classifier
个 counts people as 个人 does (review s24 h-people2): '60个同时在线' read nothing, '客服坐席60个同时在线' only a use,
and '60个坐席同时在线' a population of 60 of whom a fifth are at once. Generated: numerals, classifiers, nouns,
at-once words, orders and the sentence around them, in Chinese and English."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand

NUMS = ["60", "六十"]
ONCE = ["同时在线", "同时在用", "同时用", "一起用"]
BARE = ["个", "个人", "人", "名"]  # with no noun after the classifier
NOUNS = ["坐席", "客服", "同事", "员工"]
NOUN_FORMS = ["{n}{c}{noun}{o}", "{n}{c}{o}的{noun}", "{o}的{noun}有{n}{c}", "{noun}{n}{c}{o}", "{o}{noun}{n}{c}"]
BARE_FORMS = ["{n}{c}{o}", "{o}{n}{c}", "{o}的有{n}{c}"]
FRAMES = ["{x}", "部署qwen2.5-14b，{x}", "{x}，部署qwen2.5-14b要几张卡"]


def _zh() -> list[str]:
    out = [fr.format(x=f.format(n=n, c=c, o=o)) for n, c, o, f, fr in itertools.product(NUMS, BARE, ONCE, BARE_FORMS, FRAMES)]
    out += [fr.format(x=f.format(n=n, c=c, noun=noun, o=o))
            for n, c, noun, o, f, fr in itertools.product(NUMS, ["个", "名"], NOUNS, ONCE, NOUN_FORMS, FRAMES)]
    return out


@pytest.mark.parametrize("text", _zh())
def test_zh_count_with_an_at_once_word_is_people_at_once(text: str) -> None:
    u = understand(text).updates
    assert u.get("users") == 60 and "population" not in u, (text, u)


EN = ["60 at once", "60 {noun} at once", "60 concurrent {noun}", "60 {noun} online at the same time",
      "60 {noun} using it simultaneously", "concurrency: 60 {noun}", "peak concurrency 60 {noun}"]
EN_NOUNS = ["support staff", "nurses", "employees", "agents", "people"]


@pytest.mark.parametrize(("form", "noun", "frame"), list(itertools.product(
    EN, EN_NOUNS, ["{x}", "serve qwen2.5 14b, {x}", "{x}, how many gpus for qwen2.5 14b"])))
def test_en_count_with_an_at_once_word_is_people_at_once(form: str, noun: str, frame: str) -> None:
    text = frame.format(x=form.format(noun=noun))
    u = understand(text).updates
    assert u.get("users") == 60 and "population" not in u, (text, u)


@pytest.mark.parametrize(("text", "updates"), [
    ("公司有800名员工，同时在线大概60个", {"population": 800, "users": 60}),  # the count at once beside everyone
    ("200人用，60个同时在线", {"population": 200, "users": 60}),
    ("800 employees, about 60 at once", {"population": 800, "users": 60}),
    ("客服二十个", {"population": 20}),  # no at-once word: the staff who use it, some of them at once
    ("60个员工", {"population": 60}),
])
def test_a_count_without_an_at_once_word_stays_everyone(text: str, updates: dict) -> None:
    u = understand(text).updates
    assert {k: u.get(k) for k in updates} == updates, (text, u)
