"""Review round N, classes 3 and 6: 'why not X' / 'can't we use X' / 'what if X instead, how much more' / 'on a
single card?' after a fine-tuning plan get the reasons and the user's job kept (assistant/method_switch.py,
assistant/one_owned.py, reading/method_why.py), in both languages and over phrasings."""

from __future__ import annotations

import itertools

import pytest
from conversation import run_conversation

from assistant.catalog import say
from assistant.reading import understand

FULL_ZH = "我们实验室有 8 张 A800 80G，想全参微调 Qwen2.5-32B，数据大概 10 万条，平均 2k token，大概要跑多久？"
FULL_EN = "our lab has 8 A800 80GB, we want to full fine-tune qwen2.5 32b on 100k samples of 2k tokens, how long?"
WHY_LORA = {
    "zh": ["为什么不用 LoRA？全参有必要吗", "为什么不用LoRA", "全参有必要吗", "不能用 LoRA 吗", "全参微调真的有必要吗？"],
    "en": ["why not lora? is full fine-tuning really necessary?", "why not just use lora instead?",
           "is a full fine-tune really necessary?", "can't we use lora?"],
}


def _data(reply):
    return reply.additional_kwargs["gpu_advisor"]


@pytest.mark.parametrize(("lang", "ask"), [(lang, a) for lang, asks in WHY_LORA.items() for a in asks])
def test_why_not_lora_after_full_plan_reasons_and_keeps_job(lang, ask):
    first = FULL_ZH if lang == "zh" else FULL_EN
    replies = run_conversation([first, ask])
    data = _data(replies[-1])
    switch = data["method_switch"]
    assert (switch["from"], switch["to"], switch["code"]) == ("full", "lora", "lighter_enough")
    assert switch["old_gpus"] == switch["new_gpus"] == 8  # on their own 8 cards
    assert switch["new_hours"] < switch["old_hours"]
    profile = data["profile"]
    assert profile["method"] == "lora" and profile["train_examples"] == 100_000 and profile["seq_len"] == 2000
    text = replies[-1].content
    verdict = say(lang, "switch.verdict.lighter_enough", new="LoRA", old=say(lang, "mcmp.name.full"))
    assert verdict in text
    assert text.count("## ") == 1  # one answer, not a LoRA plan and the full plan again


@pytest.mark.parametrize("ask", ["why not just qlora on a single 4090", "why not qlora?", "what about qlora instead?"])
def test_qlora_when_lora_already_fits_is_no_gain(ask):
    replies = run_conversation(["lora fine-tune mistral 7b on one rtx 4090, 200k examples of 1k tokens", ask])
    switch = _data(replies[-1])["method_switch"]
    assert (switch["from"], switch["to"], switch["code"]) == ("lora", "qlora", "no_gain")
    assert switch["hours_ratio"] > 1.1  # QLoRA is slower on the same card
    assert _data(replies[-1])["profile"]["train_examples"] == 200_000
    assert say("en", "switch.verdict.no_gain", old="LoRA", new="QLoRA",
               was="1 × NVIDIA GeForce RTX 4090 24GB") in replies[-1].content


@pytest.mark.parametrize(("first", "ask"), list(itertools.product(
    ["我们要用 DeepSeek-V3 做 LoRA 微调，数据 5 万条，有多少卡能搞？"],
    ["为什么要这么多卡？不能用 QLoRA 吗", "不能用QLoRA吗", "不可以用 qlora 么", "为啥不用qlora"])) + [
    ("we want to lora fine-tune deepseek-v3 on 50k examples, how many gpus?", "can't we use qlora?"),
    ("we want to lora fine-tune deepseek-v3 on 50k examples, how many gpus?", "why not qlora instead?")])
def test_cant_we_use_qlora_sizes_it_and_says_yes(first, ask):
    replies = run_conversation([first, ask])
    switch = _data(replies[-1])["method_switch"]
    assert (switch["from"], switch["to"], switch["code"]) == ("lora", "qlora", "fewer_cards")
    assert switch["new_gpus"] < switch["old_gpus"]
    assert _data(replies[-1])["profile"]["train_examples"] == 50_000


@pytest.mark.parametrize("ask", ["what if i do full fine tune instead of qlora, how much more",
                                 "what if full fine-tuning instead of qlora? how much more would it cost",
                                 "full fine-tune instead of qlora, how much more?"])
def test_what_if_full_instead_keeps_the_data(ask):
    first = ("need to qlora llama 3.1 70b on about 40k instruction samples avg 1.5k tokens, 3 epochs. "
             "whats the cheapest way to rent for this, deadline is end of next week")
    replies = run_conversation([first, ask])
    data = _data(replies[-1])
    assert data["method_switch"]["code"] == "heavier"
    p = data["profile"]
    assert (p["method"], p["train_examples"], p["epochs"], p["seq_len"]) == ("full", 40_000, 3, 1500)
    assert p["deadline_hours"] == _data(replies[0])["profile"]["deadline_hours"]
    assert "usd_diff" in data["method_switch"] and "hours_ratio" in data["method_switch"]


@pytest.mark.parametrize(("first", "ask"), [
    ("实验室有8张V100 32G，想全参微调Qwen2.5-7B，能跑吗？是不是得上deepspeed zero3", "那如果改成LoRA呢，单卡能跑不"),
    ("实验室有8张V100 32G，想全参微调Qwen2.5-7B", "改成 lora 的话一张卡行吗"),
    ("we have 8 V100 32GB, want to full fine tune qwen2.5 7b", "what if lora, would it run on a single card?"),
    ("we have 8 V100 32GB, want to full fine tune qwen2.5 7b", "lora instead, does it fit on one card?"),
])
def test_single_card_is_one_of_the_owned_cards(first, ask):
    replies = run_conversation([first, ask])
    data = _data(replies[-1])
    one = data["one_owned"]
    assert (one["gpu"], one["gpus"], one["fits"]) == ("v100-sxm2-32gb", 1, True)
    assert data["profile"]["owned"] == ["8x v100-sxm2-32gb"]  # asking about one is not owning one
    assert data["profile"]["method"] == "lora"
    lang = "zh" if "张" in first else "en"
    assert replies[-1].content.startswith(say(lang, "one_owned.yes_hours", option="", used="", capacity="",
                                              hours="")[:6])


@pytest.mark.parametrize(("text", "method", "questioned"), [
    ("为什么不用 LoRA？全参有必要吗", "lora", "full"), ("全参有必要吗", "lora", "full"),
    ("全参有没有必要", "lora", "full"), ("is full fine-tuning really necessary?", "lora", "full"),
    ("why not qlora, is lora really needed", "qlora", "lora"),
])
def test_questioned_method_is_not_the_one_chosen(text, method, questioned):
    u = understand(text)
    assert u.updates.get("method") == method
    assert u.ask.get("method_questioned") == questioned
    assert "why_not" in u.intents


@pytest.mark.parametrize(("text", "method"), [("不能用 QLoRA 吗", "qlora"), ("不可以用lora么", "lora"),
                                              ("为什么要这么多卡？不能用 QLoRA 吗", "qlora")])
def test_cant_we_use_x_is_a_proposal_not_a_ban(text, method):
    u = understand(text)
    assert u.updates.get("method") == method
    assert not u.updates.get("exclude")


@pytest.mark.parametrize("text", ["不能用英伟达的卡", "我们不能用 A100"])
def test_a_rule_against_a_card_still_excludes(text):
    assert understand(text).updates.get("exclude")
