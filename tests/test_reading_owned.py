"""Owned hardware, read as people say it (issue 21, review D): generated from templates crossed with fillers,
number spellings, word orders and languages. Each class asserts the slots read.

1. A counted card said as the subject of the message, before or after the job ('两张3090跑qwen3-235b', '两台8卡
   A800 万兆网 ...', '我们是8卡h200', '3 servers each with 8 4090s, glm-4.6, 100 users'): the speaker's own.
2. A count said after the card ('a100 40gb cards, eight of them', '一共8张'): that many owned, not one.
3. A card being bought or rented is not owned ('should we just get one L40S', 'autodl租了2张a100'); a card rented
   already is the one to use, priced as rented.
4. Servers added to the ones you have ('add a third server of 8 l40s', '再加一台8卡L40S'): their cards are added.
5. A count asked about ('8卡A100 ... 够不够') stays the setup to check, not a card owned.
"""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.covering import pairwise, uncovered_pairs

ZH_BEFORE = ["", "你好，", "请问，"]
ZH_AFTER = ["", "。", "，谢谢", "，怎么配？"]
EN_BEFORE = ["", "hi, ", "ok so "]
EN_AFTER = ["", ".", " thanks", " - what do you think?"]

# (phrase, owned read) by language: counts spelled as digits and as words
ZH_FLEETS = [("两张3090", "2x rtx-3090"), ("2张3090", "2x rtx-3090"), ("四张L20", "4x l20"), ("4块L20", "4x l20"),
             ("两台8卡A800", "16x a800-80gb-sxm"), ("三台8卡4090", "24x rtx-4090"), ("8卡H200", "8x h200"),
             ("八卡H20", "8x h20")]
ZH_SUBJECTS = ["", "我们是", "我们这边是", "我们用的是", "我是", "那", "所以"]
ZH_JOBS = ["跑qwen2.5 72b", "部署glm-4.5-air 给20人用", "lora微调qwen2.5 7b 五万条", "qwen3-235b q4 一个人用"]
EN_FLEETS = [("2x 3090", "2x rtx-3090"), ("two 3090s", "2x rtx-3090"), ("4x L20", "4x l20"),
             ("8x H200", "8x h200"), ("2 servers each with 8 A800", "16x a800-80gb-sxm"),
             ("3 servers each with 8 4090s", "24x rtx-4090")]
EN_JOBS = ["running qwen2.5 72b", "serve glm-4.5-air to 20 people", "lora on qwen2.5 7b, 50k examples"]


def _orders(card: str, job: str, sep: str) -> list[str]:
    return [f"{card}{sep}{job}", f"{job}{sep}{card}"]


def test_a_counted_card_said_as_the_subject_is_owned_chinese():
    """Fleets x subjects x jobs x fillers before and after x three orders, as a pairwise covering array
    (tests/covering.py): every pair of values of any two of them is said together at least once (56
    messages where the full product was 8,064)."""
    failures = []
    dims = (ZH_FLEETS, ZH_SUBJECTS, ZH_JOBS, ZH_BEFORE, ZH_AFTER, range(3))
    rows = pairwise(*dims)
    assert not uncovered_pairs(rows, *dims) and len(rows) == 56
    for (card, want), subject, job, before, after, order in rows:
        text = (_orders(f"{subject}{card}", job, "，") + [f"{subject}{card} {job}"])[order]
        u = understand(before + text + after)
        if u.updates.get("owned") != [want] or u.updates.get("only"):
            failures.append(f"{before + text + after!r}: owned {u.updates.get('owned')} only {u.updates.get('only')}")
    assert not failures, f"{len(failures)} misread, e.g. {failures[:5]}"


def test_a_counted_card_said_as_the_subject_is_owned_english():
    """Fleets x jobs x fillers before and after x three orders, as a pairwise covering array (tests/covering.py):
    every pair of values of any two of them is said together at least once (25 messages where the full product
    was 648)."""
    failures = []
    dims = (EN_FLEETS, EN_JOBS, EN_BEFORE, EN_AFTER, range(3))
    rows = pairwise(*dims)
    assert not uncovered_pairs(rows, *dims) and len(rows) == 25
    for (card, want), job, before, after, order in rows:
        text = (_orders(card, job, ", ") + [f"we're on {card}, {job}"])[order]
        u = understand(before + text + after)
        if u.updates.get("owned") != [want] or u.updates.get("only"):
            failures.append(f"{before + text + after!r}: owned {u.updates.get('owned')} only {u.updates.get('only')}")
    assert not failures, f"{len(failures)} misread, e.g. {failures[:5]}"


@pytest.mark.parametrize("text", ["8卡A100 80G 用来跑qwen2.5 72b 给50人用 够不够", "两张4090跑qwen2.5 32b够吗",
                                  "4x h100 for llama 3.3 70b, is that enough?", "two L40S",
                                  "8x h100 or 4x h200 for llama 3.3 70b?", "如果两张3090跑qwen3-235b",
                                  "what if we bought 2x 3090, running qwen2.5 32b", "两张4090能跑qwen2.5 32b吗",
                                  "两台8卡A800能不能部署deepseek-v3"])
def test_a_count_asked_or_a_choice_is_not_owned(text: str):
    assert not understand(text).updates.get("owned"), text


EN_LATER = ["{c}, {n} of them", "{c}, {n} in total", "{c} ({n} total)", "{c}, total of {n}", "{c}: {n} of those"]
EN_OWNING = ["if we only have {x}", "we have {x}", "all we have is {x}"]
LATER_CARDS = {"a100 40gb cards": "a100-40gb-sxm", "A100 40G": "a100-40gb-sxm", "L20s": "l20", "H20 cards": "h20",
               "A6000s": "rtx-a6000"}
ZH_LATER = ["我们的卡是{c}，一共{n}张", "我们有{c}，总共{n}张", "手上是{c}，共{n}块"]
ZH_CARDS = {"A100 40G": "a100-40gb-sxm", "L20": "l20", "H20": "h20"}


def test_a_count_said_after_the_card():
    failures = []
    for (c, gpu), later, owning, (n, spelled) in itertools.product(
            LATER_CARDS.items(), EN_LATER, EN_OWNING, [(8, "eight"), (8, "8"), (4, "four"), (16, "16")]):
        text = owning.format(x=later.format(c=c, n=spelled)) + ", serving qwen2.5 72b"
        if understand(text).updates.get("owned") != [f"{n}x {gpu}"]:
            failures.append(f"{text!r}: {understand(text).updates.get('owned')}")
    for (c, gpu), template, (n, spelled) in itertools.product(ZH_CARDS.items(), ZH_LATER, [(8, "八"), (8, "8"), (16, "十六")]):
        text = template.format(c=c, n=spelled) + "，部署qwen2.5 72b"
        if understand(text).updates.get("owned") != [f"{n}x {gpu}"]:
            failures.append(f"{text!r}: {understand(text).updates.get('owned')}")
    assert not failures, f"{len(failures)} misread, e.g. {failures[:5]}"


EN_GETTING = ["should we just get {n} {c}", "should we get {n} {c}", "maybe buy {n} {c}", "we could rent {n} {c}",
              "thinking of getting {n} {c}"]
EN_TEAM = ["our team wants to serve gemma 3 27b to 20 users, ", "we want to fine-tune gemma 3 27b for our app. "]


def test_a_card_to_get_is_not_owned():
    failures = []
    for template, team, spelled, c in itertools.product(EN_GETTING, EN_TEAM, ["one", "2"], ["L40S", "A100"]):
        text = team + template.format(n=spelled, c=c) + "?"
        u = understand(text)
        if u.updates.get("owned"):
            failures.append(f"{text!r}: owned {u.updates.get('owned')}")
    assert not failures, f"{len(failures)} misread, e.g. {failures[:5]}"


ZH_RENTED = ["autodl租了{n}张a100", "在阿里云上租了{n}张a100", "租的{n}张a100"]
EN_RENTED = ["rented {n} a100s on runpod", "we rented {n} a100s", "leased {n} a100s"]


@pytest.mark.parametrize("zh", [True, False])
def test_a_rented_card_is_not_owned(zh: bool):
    failures = []
    rented, mine = (ZH_RENTED, "我们有8张4090，") if zh else (EN_RENTED, "we have 8 4090s and ")
    job = "，部署glm-4.5-air 15个人用" if zh else ", serve glm-4.5-air to 15 people"
    for template, n in itertools.product(rented, ["2", "两" if zh else "two"]):
        for prefix, owned in (("", None), (mine, ["8x rtx-4090"])):
            text = prefix + template.format(n=n) + job
            u = understand(text)
            if u.updates.get("owned") != owned or u.updates.get("only") != ["2x a100-80gb-sxm"]:
                failures.append(f"{text!r}: owned {u.updates.get('owned')} only {u.updates.get('only')}")
    assert not failures, f"{len(failures)} misread, e.g. {failures[:5]}"


ADD_SERVERS = [("add a third server of 8 {c}", 8), ("what if we add another server with 8 {c}", 8),
               ("add 2 more servers of 8 {c}", 16), ("add one more node with 8x {c}", 8),
               ("再加一台8卡{c}", 8), ("再加两台8卡{c}", 16)]


@pytest.mark.parametrize(("template", "n"), ADD_SERVERS)
@pytest.mark.parametrize(("card", "gpu"), [("L40S", "l40s"), ("H100", "h100-sxm"), ("A800", "a800-80gb-sxm")])
def test_servers_added_add_their_cards(template: str, n: int, card: str, gpu: str):
    u = understand(template.format(c=card))
    assert u.added_cards == {gpu: n}, (template, u.added_cards)


PRECISIONS = ["q4", "q8", "int4", "int8", "fp8", "awq"]
CHOICE_JOINS = [" or ", " vs ", "还是", "和", " and "]


def test_two_formats_side_by_side_are_a_choice_not_a_format():
    failures = []
    for a, b, join in itertools.product(PRECISIONS, PRECISIONS, CHOICE_JOINS):
        if a == b:
            continue
        for text in (f"我有一张4060 Ti 16G，deepseek-r1-distill-qwen-14b用{a}{join}{b}有什么区别",
                     f"i have a 4060 ti 16gb, deepseek-r1-distill-qwen-14b in {a}{join}{b}?"):
            u = understand(text)
            if "precision" in u.updates or u.updates.get("owned") != ["1x rtx-4060-ti-16gb"]:
                failures.append(f"{text!r}: {u.updates}")
    assert not failures, f"{len(failures)} misread, e.g. {failures[:5]}"


@pytest.mark.parametrize("text", ["两张3090跑qwen3-235b q4 专家放内存 一个人用", "2x 3090, qwen3-235b q4 with the experts offloaded to system RAM",
                                  "qwen3-235b on my 4090 with --n-cpu-moe", "我有一张4090，qwen3-30b-a3b 专家卸载到内存",
                                  "run glm-4.5-air with cpu offload on my 3090"])
def test_cpu_offload_is_said_back_not_dropped(text: str):
    assert ("note.cpu_offload", {}) in understand(text).notes, text
