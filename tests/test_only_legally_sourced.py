"""A card named as all one can (legally) buy or get is the only card planned on, never read as a question of whether
it may be bought ('we can only legally buy h20s', '合法能买的只有H20', '只能合法买到H20'): the grammar is the
'only' readers' and the Chinese rewrites' (words/hardware.yaml only_before/only_sourced, words/chinese.yaml); the
adverb 'legally' / '合法(地)' may sit anywhere in it. Buying said in the phrase is a wish to buy."""
from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import payload, run_conversation

CARDS = {"H20": "h20", "L20": "l20", "4090D": "rtx-4090d", "A800": "a800-80gb-sxm"}
EN = ["we can only legally buy {c}s", "we can only buy {c}s", "we can only get {c}s", "legally we can only buy {c}"]
ZH_BUY = ["只能合法买到{c}", "合法能买的只有{c}", "只能合法地买{c}", "能买到的卡只有{c}", "我们只能买{c}", "可以合法采购的只有{c}"]
ZH_GET = ["能租到的只有{c}", "能拿到的卡就只有{c}"]
JOB_EN = ["serve qwen2.5-72b to 30 users at once", "deploy llama 3.1 70b for 40 concurrent users"]
JOB_ZH = ["部署 qwen2.5-72b 给 30 人同时用", "部署llama 3.1 70b，40个人同时在线"]


def _only(text: str) -> list[str]:
    return [c.split("x ")[-1].strip() for c in understand(text).updates.get("only") or []]


@pytest.mark.parametrize("card", CARDS)
@pytest.mark.parametrize("template", EN)
@pytest.mark.parametrize("job", JOB_EN)
@pytest.mark.parametrize("order", ["card first", "job first"])
@pytest.mark.parametrize("tail", ["", " or should we just pay for the api instead?"])
def test_english_only_card_is_the_plan_card(card: str, template: str, job: str, order: str, tail: str) -> None:
    said = template.format(c=card)  # 'instead' of the API asks nothing about the card ('why not X instead?')
    text = (f"{said}. {job}" if order == "card first" else f"{job}, {said}") + tail
    u = understand(text)
    assert _only(text) == [CARDS[card]], text
    assert not u.ask.get("export") and not u.ask.get("legal_buy"), text  # a rule stated, not a question
    assert u.updates.get("only_sourced") is True


@pytest.mark.parametrize("card", CARDS)
@pytest.mark.parametrize("template", ZH_BUY + ZH_GET)
@pytest.mark.parametrize("job", JOB_ZH)
@pytest.mark.parametrize("order", ["card first", "job first"])
@pytest.mark.parametrize("tail", ["", "，还是直接调API划算？"])
def test_chinese_only_card_is_the_plan_card(card: str, template: str, job: str, order: str, tail: str) -> None:
    said = template.format(c=card)
    text = (f"{said}，{job}" if order == "card first" else f"{job}，{said}") + tail
    u = understand(text)
    assert _only(text) == [CARDS[card]], text
    assert not u.ask.get("export") and not u.ask.get("legal_buy"), text
    if template in ZH_BUY:
        assert u.updates.get("preference") == "buy", text


@pytest.mark.parametrize("text", [
    "深圳公司，合法能买的只有H20，DeepSeek-V3 671B 给60人同时用要几张？",
    "we're in shenzhen and can only legally buy h20s. deepseek v3 671b for ~60 concurrent users, how many h20?",
    "只能合法买到L20，部署qwen2.5-72b给30人同时用",
])
def test_the_plan_buys_the_only_card(text: str) -> None:
    data = payload(run_conversation([text])[-1])
    decision = data.get("decision") or {}
    assert decision.get("gpu") in {"h20", "l20"} and decision["gpu"].upper() in text.upper()
    assert decision.get("action") == "buy" and decision.get("fits")


def test_a_question_whether_a_card_may_be_bought_is_still_a_question() -> None:
    u = understand("can my team in shanghai legally buy h100s?")
    assert u.ask.get("export") == ["h100-sxm"] and not u.updates.get("only")
