"""Hardware the user owns, may only procure, or asks the count of: kept, counted once, never invented.

Generated from fillers crossed with counts (digits and words), orders, spellings and both languages: a place and an
adverb before 有 ('机房已经有一台8卡H20'); cards said with the machines they sit in ('six L40S (two 4-gpu boxes)');
a purchase restriction naming alternatives ('procurement can only get L40S or RTX 6000 Ada, no H100s'), which owns
nothing; a count asked ('需要几台910B服务器'), which says none; owning nothing ('我们一台都还没买'); a card added to
those owned ('add my old 3060 12gb as a second card'), kept beside them; the 40-series SUPER cards by name."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import payload, run_conversation
from tests.covering import pairwise, uncovered_pairs

ZH_COUNTS = {2: ["2", "两", "二"], 4: ["4", "四"], 8: ["8", "八"]}
EN_COUNTS = {2: ["2", "two"], 4: ["4", "four"], 6: ["6", "six"], 8: ["8", "eight"], 16: ["16", "sixteen"]}
ZH_CARDS = {"H20": "h20", "L20": "l20", "A800": "a800-80gb-sxm", "4090": "rtx-4090", "910B": "ascend-910b"}
EN_CARDS = {"L40S": "l40s", "A100 80GB": "a100-80gb-sxm", "H100": "h100-sxm", "RTX 6000 Ada": "rtx-6000-ada",
            "A6000": "rtx-a6000"}
ZH_TASKS = ["想部署qwen3-32b，30人用", "想LoRA一下glm-4-9b", "跑deepseek-r1-distill-qwen-32b"]


def test_a_place_and_an_adverb_before_you_have_keep_the_cards_in_either_order():
    """Places x adverbs x counts in each spelling x cards x tasks x both orders, as a pairwise covering array
    (tests/covering.py): every pair of values of any two of them is said together at least once (50 messages
    where the full product was 7,350)."""
    places = ["机房", "机房里", "实验室", "公司", "我们", "我们公司", "单位"]
    adverbs = ["已经", "现在", "目前", "本来就", "早就"]
    counts = [(count, spelled) for count, spellings in ZH_COUNTS.items() for spelled in spellings]
    dims = (places, adverbs, counts, list(ZH_CARDS.items()), ZH_TASKS, ("said first", "task first"))
    rows = pairwise(*dims)
    assert not uncovered_pairs(rows, *dims) and len(rows) == 50
    for place, adverb, (count, spelled), (card, gpu_id), task, order in rows:
        said = f"{place}{adverb}有{spelled}张{card}"
        text = f"{said}，{task}" if order == "said first" else f"{task}，{said}"
        got = understand(text, None)
        assert got.updates.get("owned") == [f"{count}x {gpu_id}"], (text, got.updates)


@pytest.mark.parametrize("spelled,servers", [("一", 1), ("1", 1), ("两", 2), ("三", 3), ("4", 4)])
def test_servers_of_n_cards_already_in_the_room_are_counted_once(spelled, servers):
    for place, adverb, (card, gpu_id) in itertools.product(["机房", "公司", "机房里"], ["已经", "目前", "现在"],
                                                           [("H20 96G", "h20"), ("A800", "a800-80gb-sxm"), ("L20", "l20")]):
        text = f"{place}{adverb}有{spelled}台8卡{card}，想部署deepseek-r1 671b满血，并发30"
        got = understand(text, None)
        assert got.updates.get("owned") == [f"{8 * servers}x {gpu_id}"], (text, got.updates)


def test_cards_said_with_the_machines_they_sit_in_are_counted_once():
    forms = ["we own {n} {card} ({s} {per}-gpu boxes)", "we have {n} {card} across {s} servers",
             "our {n} {card}, split across {s} nodes", "we own {n} {card} in {s} boxes of {per}",
             "we have got {n} {card} ({s} {per}-card servers)"]
    tasks = ["serve llama 3.1 70b for 40 users", "fine-tune qwen2.5 32b with lora"]
    # each count in each spelling with each number of servers that holds it evenly, more than one card a server
    splits = [(count, spelled, servers) for count, spellings in EN_COUNTS.items() for spelled in spellings
              for servers in (2, 4) if not count % servers and count != servers]
    # forms x splits x cards x tasks x both orders as a pairwise covering array (tests/covering.py): every pair of
    # values of any two of them is said together at least once (63 messages where the full product was 1,200)
    dims = (forms, splits, list(EN_CARDS.items()), tasks, ("said first", "task first"))
    rows = pairwise(*dims)
    assert not uncovered_pairs(rows, *dims) and len(rows) == 63
    for form, (count, spelled, servers), (card, gpu_id), task, order in rows:
        per_slot = 4 if count // servers <= 4 else 8  # the boxes' slots: as many as each holds or more
        said = form.format(n=spelled, card=card, s=servers, per=per_slot)
        text = f"{said}, {task}" if order == "said first" else f"{task}; {said}"
        got = understand(text, None)
        assert got.updates.get("owned") == [f"{count}x {gpu_id}"], (text, got.updates)
        assert got.updates.get("server_gpus") == count // servers, (text, got.updates)


def test_machines_that_cannot_hold_the_cards_evenly_say_nothing_of_each():
    got = understand("we own 6 L40S (4 2-gpu boxes), serve llama 3.1 70b", None)
    assert got.updates.get("owned") == ["6x l40s"] and "server_gpus" not in got.updates, got.updates


RESTRICTIONS = {
    "en": ["procurement can only get {a} or {b}", "we can only buy {a} or {b}", "we can only get {a}, {b}",
           "we're only able to get {a} or {b}", "we can only source {a} or the {b}"],
    "zh": ["采购只能买到{a}或者{b}", "只能买到{a}或{b}", "我们只能采购到{a}和{b}"],
}
EXCLUSIONS = {"en": ["", ", no H100s", ", no h100", " - no H100s"], "zh": ["", "，不要H100", "，不用H100"]}
JOBS = {"en": ["We need to serve llama 3.1 70b for 200 users. ", "", "fine-tune qwen2.5 32b. "],
        "zh": ["我们要部署llama 3.1 70b，200人用。", "", "要微调qwen2.5 32b，"]}
PAIRS = [(("L40S", "l40s"), ("RTX 6000 Ada", "rtx-6000-ada")), (("L20", "l20"), ("H20", "h20")),
         (("A100", "a100-80gb-sxm"), ("L40S", "l40s")), (("4090", "rtx-4090"), ("A6000", "rtx-a6000"))]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_purchase_restriction_limits_the_choice_to_each_card_and_owns_none(lang):
    n = 0
    for form, no, job, ((a, a_id), (b, b_id)) in itertools.product(RESTRICTIONS[lang], EXCLUSIONS[lang], JOBS[lang], PAIRS):
        text = job + form.format(a=a, b=b) + no
        got = understand(text, None)
        assert "owned" not in got.updates, (text, got.updates)
        assert got.updates.get("only") == sorted([a_id, b_id]), (text, got.updates)
        if no:
            assert "h100-sxm" in (got.updates.get("exclude") or []), (text, got.updates)
        n += 1
    assert n >= 36


@pytest.mark.parametrize("text,card", [
    ("只能用昇腾，部署deepseek-r1 671b，需要几台910B服务器？", "ascend-910b"),
    ("部署deepseek-r1 671b需要几台910B服务器", "ascend-910b"),
    ("部署qwen3-235b-a22b，H20要几台？", "h20"),
    ("部署qwen3-235b-a22b要多少台H20服务器？", "h20"),
    ("how many H100s do we need to serve llama 3.1 70b for 100 users?", "h100-sxm"),
    ("how many h100 servers to serve deepseek-r1 for 50 users?", "h100-sxm"),
])
def test_a_count_asked_is_the_question_not_a_count(text, card):
    got = understand(text, None)
    assert got.updates.get("only") == [card], (text, got.updates)
    assert "owned" not in got.updates and "fit_check" not in got.intents, (text, got.updates, got.intents)


@pytest.mark.parametrize("text", [
    "我们一台都还没买", "一台都没买", "一张卡都没有", "我们一张都还没有", "目前还没有卡", "手上啥都没有",
    "we don't have any hardware yet", "we don't have any gpus yet", "we haven't bought anything yet",
    "I own nothing yet", "no hardware yet",
])
def test_owning_nothing_clears_the_cards_and_prefers_nothing(text):
    got = understand(text, None)
    assert got.updates.get("owned") == [], (text, got.updates)
    assert "preference" not in got.updates, (text, got.updates)


ADDS = {
    "en": ["add my old {card} as a second card", "add my {card} too", "i also have a {card}", "plus my old {card}",
           "add my spare {card} as a second gpu", "i also have an old {card}", "add the old {card} as a second card"],
    "zh": ["另外还有一张{card}", "再加一张{card}", "我还有一张{card}", "再加上我的{card}", "家里也有一张{card}"],
}
ADD_CARDS = [("3060 12gb", "rtx-3060-12gb"), ("3090", "rtx-3090"), ("4090", "rtx-4090"), ("4070 ti super", "rtx-4070-ti-super")]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_card_added_is_one_more_of_the_users_own(lang):
    for form, (card, gpu_id) in itertools.product(ADDS[lang], ADD_CARDS):
        text = form.format(card=card)
        got = understand(text, None)
        assert got.added_cards == {gpu_id: 1} and got.adds_owned, (text, got.added_cards, got.updates)
        assert "owned" not in got.updates and "only" not in got.updates, (text, got.updates)


def test_a_second_card_wished_for_is_not_yet_owned():
    got = understand("what if i add a second 4090", None)
    assert got.added_cards == {"rtx-4090": 1} and not got.adds_owned


@pytest.mark.parametrize("text,card", [
    ("qlora gpt-oss-20b on my 4070 ti super (16gb)", "rtx-4070-ti-super"),
    ("i have a 4080 super, run qwen2.5 14b", "rtx-4080-super"),
    ("我有一张4070 super，跑qwen3 8b", "rtx-4070-super"),
    ("my RTX 4070 Ti SUPER, want to run gemma 3 12b", "rtx-4070-ti-super"),
    ("我的4060ti 16g能跑qwen3 8b吗", "rtx-4060-ti-16gb"),
])
def test_the_super_cards_are_known_by_name(text, card):
    got = understand(text, None)
    assert got.updates.get("owned") == [f"1x {card}"], (text, got.updates)
    assert not any(code == "note.card_unknown" for code, _v in got.notes), got.notes


def test_a_card_added_in_a_follow_up_is_kept_beside_the_first():
    first, second = run_conversation(["i have a 7900 xtx 24gb, want to run gemma 3 27b with 32k context in ollama",
                                      "add my old 3060 12gb as a second card"])
    assert payload(first)["profile"]["owned"] == ["1x rx-7900-xtx"]
    profile = payload(second)["profile"]
    assert profile["owned"] == ["1x rx-7900-xtx", "1x rtx-3060-12gb"], profile
    assert profile.get("users") in (None, 1), profile  # still one person's computer


def test_the_owned_h20_server_is_used_not_replaced():
    reply, = run_conversation(["机房已经有一台8卡H20 96G，想部署deepseek-r1 671b满血，并发30，每用户≥20 tok/s"])
    assert payload(reply)["profile"]["owned"] == ["8x h20"], payload(reply)["profile"]
    assert "你有 8 × NVIDIA H20" in reply.content or "你自己的" in reply.content, reply.content


def test_a_count_asked_then_nothing_owned_never_invents_a_card():
    first, second = run_conversation(["只能用昇腾，部署deepseek-r1 671b，50人用，需要几台910B服务器？", "我们一台都还没买"])
    profile = payload(first)["profile"]  # answered at once: how many is the question
    assert not profile.get("owned") and profile.get("only") == ["ascend-910b"], profile
    assert "1 × Huawei" not in first.content and "台服务器" in first.content, first.content
    assert "你有" not in second.content and "还没有自己的卡" in second.content, second.content
    assert not (payload(second).get("profile") or {}).get("owned")
    assert (payload(second).get("profile") or {}).get("preference") in (None, "either")
