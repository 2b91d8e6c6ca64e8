"""Review round N, classes 3 and 6: 'why not X' / 'can't we use X' / 'what if X instead, how much more' / 'on a
single card?' after a fine-tuning plan get the reasons and the user's job kept (assistant/method_switch.py,
assistant/one_owned.py, reading/method_why.py), in both languages and over phrasings."""

from __future__ import annotations

import itertools

import pytest
from conversation import run_conversation

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.reading import understand

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


@pytest.mark.parametrize(("first", "lang"), [
    ("full finetune mistral 7b vs lora on mistral 7b for a domain classification task with 200k examples, which one "
     "and what hardware", "en"),
    ("lora or full fine-tune for mistral 7b, 200k examples, which one?", "en"),
    ("想微调 mistral 7b 做分类，数据 20 万条，全参还是 lora，要什么卡", "zh"),
    ("mistral 7b 全参微调和 LoRA 哪个好，20万条数据", "zh"),
])
def test_two_methods_weighed_with_a_job_get_a_verdict_and_both_cards(first, lang):
    replies = run_conversation([first])
    data = _data(replies[-1])
    switch = data["method_switch"]
    assert switch["weighed"] and (switch["from"], switch["to"], switch["code"]) == ("full", "lora", "lighter_enough")
    assert data["profile"]["method"] == "lora" and data["profile"]["train_examples"] == 200_000
    text = replies[-1].content
    assert say(lang, "switch.verdict.lighter_enough", new="LoRA", old=say(lang, "mcmp.name.full")) in text
    assert say(lang, "switch.other_plan", name=say(lang, "mcmp.name.full"), cards="", gb="", hours="")[:8] in text


@pytest.mark.parametrize(("first", "ask", "lang"), [
    ("want to run gemma 2 27b on my macbook m2 pro 32gb",
     "actually nvm i'll probably get a used 3090 instead, is that better for it", "en"),
    ("want to run gemma 2 27b on my macbook m2 pro 32gb", "thinking of buying a 3090 instead, better?", "en"),
    ("我的 macbook m2 pro 32g 想本地跑 gemma 2 27b", "算了，我打算买一张二手3090，会更好吗", "zh"),
    ("我的 macbook m2 pro 32g 想本地跑 gemma 2 27b", "准备入手一张 3090，是不是更快", "zh"),
])
def test_a_planned_card_replaces_the_owned_mac_and_is_compared(first, ask, lang):
    replies = run_conversation([first, ask])
    data = _data(replies[-1])
    assert data["planned"]["code"] == "faster" and data["planned"]["ratio"] > 2
    p = data["profile"]
    assert not p.get("owned") and p["only"] == ["1x rtx-3090"] and p["preference"] == "buy"
    assert say(lang, "reply.owns_nothing") not in replies[-1].content
    assert replies[-1].content.split("\n\n")[2].startswith(say(lang, "planned.faster.speed", this="", was="", new="",
                                                                old="", x="")[:4])


@pytest.mark.parametrize(("first", "ask"), [
    ("领导要求本地部署满血DeepSeek-R1，只能用国产卡，昇腾910B 64G的要几台机器", "那上w8a8量化能省多少"),
    ("领导要求本地部署满血DeepSeek-R1，只能用国产卡，昇腾910B 64G的要几台机器", "用int8能省几台"),
])
def test_a_saving_asked_when_the_plan_already_is_w8a8_is_said_against_bf16(first, ask):
    replies = run_conversation([first, ask])
    first_data = _data(replies[0])
    assert not first_data["profile"].get("owned")  # '本地部署' is on-prem, no card of their own invented
    assert first_data["profile"].get("preference") != "rent"
    saving = _data(replies[-1])["saving"]
    assert saving["code"] == "already" and saving["base_gpus"] > saving["new_gpus"]
    assert "BF16" in replies[-1].content


@pytest.mark.parametrize(("ask", "lang"), [("how much would int4 save?", "en"), ("换成 int4 能省多少", "zh"),
                                           ("what would int8 save us", "en")])
def test_a_saving_asked_is_set_against_the_plan_before(ask, lang):
    replies = run_conversation(["serve llama 3.1 70b in bf16 for 50 concurrent users on h100s, around the clock", ask])
    saving = _data(replies[-1])["saving"]
    assert saving["code"] == "versus" and saving["old_precision"] == "bf16"


@pytest.mark.parametrize("ask", ["is it worth it vs just renting gpus", "is it worth it compared to renting?",
                                 "值得吗，还是直接租卡划算", "跟直接租卡比划算吗"])
def test_worth_it_against_renting_is_the_rent_or_buy_answer(ask):
    replies = run_conversation(["mac studio m3 ultra 512gb, can it run deepseek r1 671b? what quant and how fast", ask])
    text = replies[-1].content
    lang = "zh" if any("\u4e00" <= ch <= "\u9fff" for ch in ask) else "en"
    assert text.startswith(say(lang, "rb.owned_serving", option="", alt="", month="", hour="", use="")[:4])
    assert "months_of_rent" in str(replies[-1].additional_kwargs)
    assert not text.startswith("## ")  # an answer to the question, not the plan again
