"""Corrections and switches keep everything else (review round 2, h-correct2):

- a card said by mistake and put right ('sorry, I meant H200s not H100s', '不是H100，是H200', '我说错了，是H200')
  replaces the wrong card in the plan's card constraint, never ruling out both;
- a switch to renting said in a turn ('算了，还是租吧', "ok forget it, let's rent") stays through later what-ifs;
- 'have a single X', 'just one X', '我就一张X' is a card owned, not one to rent;
- a card had with no count ('we only have 40gb A100s', '我们只有40G的A100') keeps the count said before, else the plan
  takes the count needed and asks how many there are."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import payload, run_conversation, run_states

# ------------------------------------------------------------------ the reader: a card put right

PUT_RIGHT = {
    "en": ["sorry, I meant {new}s not {old}s", "I meant {new} not {old}", "{new} not {old}, sorry", "oops, {new}s rather than {old}s",
           "my bad, {new} not {old}", "correction: {new}, not {old}", "typo, I meant {new}s not {old}s"],
    "zh": ["不是{old}，是{new}", "我说错了，不是{old}，是{new}", "不好意思，是{new}不是{old}", "打错了，是{new}，不是{old}"],
}
PAIRS = [("H200", "H100", "h200", "h100-sxm"), ("A100", "L40S", "a100-80gb-sxm", "l40s"), ("4090", "3090", "rtx-4090", "rtx-3090")]


@pytest.mark.parametrize(("lang", "phrase"), [(lang, p) for lang, ps in PUT_RIGHT.items() for p in ps])
@pytest.mark.parametrize(("new", "old", "new_id", "old_id"), PAIRS)
def test_a_card_put_right_replaces_the_wrong_one_and_rules_out_neither(lang, phrase, new, old, new_id, old_id):
    u = understand(phrase.format(new=new, old=old), None)
    assert u.ask.get("replaced", (None, None))[:2] == (new_id, old_id), (phrase, u.ask, u.updates)
    assert not u.updates.get("exclude"), u.updates
    assert u.whatif_gpus is None and "whatif" not in u.intents


@pytest.mark.parametrize("text", ["我说错了，是H200", "sorry, I meant H200s", "不好意思，应该是H200", "correction: H200"])
def test_a_card_put_right_without_the_wrong_one_names_the_right_one(text):
    u = understand(text, None)
    assert u.ask.get("replaced", (None,))[0] == "h200", (text, u.ask)


@pytest.mark.parametrize("text", ["no h100, use a100", "why not h100?", "what about H200 instead of H100?",
                                  "sorry, we have 4 a100s", "不要H100", "如果是H200不是H100呢"])
def test_no_card_put_right_where_none_is(text):
    assert "replaced" not in understand(text, None).ask, text


# ------------------------------------------------------------------ the plan: the right card in the wrong one's place

@pytest.mark.parametrize(("first", "fix"), [
    ("how many H100s to serve llama 3.1 70b for 16 users", "sorry, I meant H200s not H100s"),
    ("how many H100s to serve llama 3.1 70b for 16 users", "I meant H200 not H100"),
    ("部署 llama 3.1 70b 给 16 个用户，需要几张 H100", "不是H100，是H200"),
    ("部署 llama 3.1 70b 给 16 个用户，需要几张 H100", "我说错了，是H200"),
])
def test_the_plan_moves_to_the_right_card(first, fix):
    replies = run_conversation([first, fix])
    before, after = payload(replies[0]), payload(replies[1])
    assert before["profile"]["only"] == ["h100-sxm"]
    assert after["profile"]["only"] == ["h200"] and not after["profile"].get("exclude"), after["profile"]
    assert after["results"]["recommend"]["best"]["gpu"] == "h200"


def test_the_review_conversation_gets_h200s():
    replies = run_conversation([
        "two questions: 1) how much vram does deepseek-r1 671b need at fp8 for serving, and 2) how many H100s for 16 "
        "concurrent users at 32k context", "sorry, I meant H200s not H100s"])
    best = payload(replies[1])["results"]["recommend"]["best"]
    assert best["gpu"] == "h200" and best["gpus"] == 8, best
    assert "can't use that" not in replies[1].content


# ------------------------------------------------------------------ a switch to renting stays

@pytest.mark.parametrize("switch", ["算了，还是租吧", "算了还是直接租吧", "那就租吧", "算了 还是租吧，一个月要多少钱"])
def test_a_switch_to_renting_is_read_as_the_preference(switch):
    assert understand(switch, None).updates.get("preference") == "rent", switch


@pytest.mark.parametrize("switch", ["算了买吧", "那就直接买吧"])
def test_a_switch_to_buying_is_read_as_the_preference(switch):
    assert understand(switch, None).updates.get("preference") == "buy", switch


@pytest.mark.parametrize("turns", [
    ["预算 100 万人民币，想买卡部署 DeepSeek-R1-Distill-Qwen-32B，并发 100 左右", "算了，还是租吧，一个月要多少钱", "如果并发降到 50 呢"],
    ["we want to buy cards to serve qwen2.5 32b for 100 concurrent users", "ok forget it, let's rent, how much a month",
     "what if concurrency drops to 50"],
])
def test_a_switch_to_renting_persists_through_later_what_ifs(turns):
    replies = run_conversation(turns)
    assert payload(replies[0])["profile"]["preference"] == "buy"
    for reply in replies[1:]:
        data = payload(reply)
        assert data["profile"]["preference"] == "rent", reply.content[:200]
    assert payload(replies[2])["results"]["recommend"]["action"] == "rent"
    assert payload(replies[2])["profile"]["users"] == 50


# ------------------------------------------------------------------ one card had

OWNED_ONE = {
    "en": ["have a single {card}", "got a single {card}", "just one {card}", "only a single {card}", "own a single {card}"],
    "zh": ["我就一张{card}", "只有一张{card}", "手上就一张{card}"],
}
JOBS = {"en": "i want to qlora llama 3.1 8b on 20k examples of 1k tokens. {own}. will it fit and how long?",
        "zh": "想用qlora微调llama 3.1 8b，2万条样本。{own}，放得下吗？要多久？"}


@pytest.mark.parametrize(("lang", "own"), [(lang, o) for lang, os_ in OWNED_ONE.items() for o in os_])
@pytest.mark.parametrize(("card", "card_id"), [("4070 ti super", "rtx-4070-ti-super"), ("4090", "rtx-4090"),
                                               ("a6000", "rtx-a6000")])
def test_one_card_said_had_is_owned(lang, own, card, card_id):
    text = JOBS[lang].format(own=own.format(card=card))
    u = understand(text, None)
    assert u.updates.get("owned") == [f"1x {card_id}"], (text, u.updates, u.whatif_gpus)


def test_a_count_asked_about_is_not_owned():
    u = understand("how many H100s for 16 concurrent users? just 8 h100 enough?", None)
    assert not u.updates.get("owned")


@pytest.mark.parametrize("text", [
    "i want to qlora llama 3.1 8b on my own chat logs, like 20k examples ~1k tokens each. have a single 4070 ti super "
    "16gb. will it fit and how long roughly?",
    "想用qlora微调llama 3.1 8b，2万条样本，每条1k token。我就一张4070 ti super，放得下吗？",
])
def test_the_plan_uses_the_card_owned(text):
    best = payload(run_conversation([text])[0])["results"]["recommend"]["best"]
    assert best["owned"] and best["gpu"] == "rtx-4070-ti-super" and best["gpus"] == 1, best


# ------------------------------------------------------------------ cards had, count not said

@pytest.mark.parametrize("text", ["we only have 40gb A100s", "sorry we only have 40gb A100s", "我们只有40G的A100",
                                  "不对我说错了，是qlora，而且我们只有40G的A100", "we have A100 40GBs"])
def test_a_card_had_with_no_count_is_marked(text):
    u = understand(text, None)
    assert u.ask.get("owned_uncounted") == ["a100-40gb-sxm"], (text, u.ask, u.updates)


@pytest.mark.parametrize("text", ["we have 4 a100 40gb", "我们有一张40G的A100", "i have a 4090", "my 3090"])
def test_a_card_had_with_its_count_or_one_of_a_kind_is_not(text):
    assert "owned_uncounted" not in understand(text, None).ask, text


@pytest.mark.parametrize(("first", "then"), [
    ("we have 4 a100 40gb, serve llama 3.1 70b for 10 users", "sorry we only have 40gb A100s"),
    ("我们有4张40G的A100，部署llama 3.1 70b给10个人用", "不对，我们只有40G的A100"),
])
def test_no_count_keeps_the_count_said_before(first, then):
    profile = run_states([first, then])[1]["profile"]
    assert profile["owned"] == ["4x a100-40gb-sxm"] and not profile.get("only"), profile


@pytest.mark.parametrize(("turns", "asked"), [
    (["我们用qlora微调llama 70b", "不对我说错了，是qlora，而且我们只有40G的A100"], "你们有几张"),
    (["we want to qlora fine-tune llama 3.1 70b", "actually we only have 40gb A100s"], "how many do you have"),
])
def test_no_count_plans_the_count_needed_on_that_card_and_asks(turns, asked):
    reply = run_conversation(turns)[1]
    data = payload(reply)
    assert data["profile"]["only"] == ["a100-40gb-sxm"] and not data["profile"].get("owned"), data["profile"]
    best = data["results"]["recommend"]["best"]
    assert best["gpu"] == "a100-40gb-sxm" and best["gpus"] > 1, best
    assert asked in reply.content


def test_phrasings_are_many():
    assert len(list(itertools.product(*PUT_RIGHT.values()))) >= 16
