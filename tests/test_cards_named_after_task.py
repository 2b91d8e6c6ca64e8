"""Cards named after the task are the ones the plan uses (review BR C5): '全参微调llama3 8b…zero3要几张卡' then
'卡是A100 40G的' planned on rented H800s with the A100 40G as an aside; the kind said is the plan's card, how many is
the question. 'Our cards are …' stays the user's own cards."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states

CARDS = [("A100 40G", "a100-40gb-sxm"), ("a100 40gb", "a100-40gb-sxm"), ("H20", "h20"), ("4090", "rtx-4090"),
         ("L40S", "l40s")]
EN = ["the cards are {c}", "cards are {c}", "the gpus are {c}", "gpus: {c}", "the hardware is {c}", "the gpu is {c}"]
ZH = ["卡是{c}的", "卡是{c}", "显卡是{c}", "卡都是{c}", "GPU是{c}", "显卡就是{c}"]


@pytest.mark.parametrize(("text", "card"), [
    (t.format(c=said), card) for t, (said, card) in itertools.product(EN + ZH, CARDS)])
def test_the_cards_said_are_the_plans(text, card):
    got = understand(text).updates
    assert got.get("only") == [card], (text, got)
    assert "owned" not in got, (text, got)


@pytest.mark.parametrize(("text", "card"), [
    (t.format(c=said), card) for t, (said, card) in itertools.product(
        ["我们的卡是{c}", "我们的卡都是{c}", "our gpus are {c}"], CARDS[:3])])
def test_our_cards_stay_owned(text, card):
    got = understand(text).updates
    assert got.get("owned") == [f"1x {card}"], (text, got)


@pytest.mark.parametrize(("first", "second"), [
    ("全参微调llama3 8b要多少显存啊 用deepspeed zero3的话要几张卡", "卡是A100 40G的"),
    ("全参微调llama3 8b，zero3要几张卡", "显卡是A100 40G"),
    ("full fine-tune llama 3 8b with deepspeed zero3, how many gpus?", "the cards are a100 40gb"),
    ("full fine-tune llama 3 8b with deepspeed zero3, how many gpus?", "gpus are A100 40GB")])
def test_the_plan_uses_the_cards_said_after_the_task(first, second):
    state = run_states([first, second])[-1]
    assert state["profile"]["only"] == ["a100-40gb-sxm"]
    headline = state["messages"][-1].content.splitlines()[0]
    assert "A100 SXM4 40GB" in headline and "H800" not in headline, headline
