"""A card named as a rental option in turn 1 is one side of the buy-or-rent question, not a rule for the next turns
(review BY #4): 'should i buy a 5090 or just rent h100s for lora finetuning qwen2.5 14b?' then 'what if i just do
qlora on the 5090, is it worth buying then' answered 'Rent 1 × H100 ... only these cards, as you asked: NVIDIA H100'
and priced an 8 × H100 server. Turn 2 now answers the question asked: QLoRA fits the 5090 (and LoRA does not), how
long a run takes on it, and the 5090 bought against the H100 rent the user pays twice a month: keep renting."""

from __future__ import annotations

import pytest

from gpu_advisor.knowledge import find_gpu
from tests.conversation import payload, run_conversation

FIRST = {
    "en": ["i got eight thousand bucks. should i buy a 5090 or just rent h100s for lora finetuning qwen2.5 14b? i'd "
           "finetune maybe twice a month, ~20k samples each time",
           "should i buy a 5090 or keep renting h100s? lora finetune of qwen2.5 14b twice a month, 20k samples"],
    "zh": ["我有八千美元。买一张5090还是直接租h100做lora微调qwen2.5 14b？大概一个月微调两次，每次两万条数据",
           "买5090还是继续租H100？每月两次用lora微调qwen2.5 14b，每次2万条样本"],
}
SECOND = {
    "en": ["what if i just do qlora on the 5090, is it worth buying then",
           "and with qlora on a 5090, is buying one worth it then?",
           "what about qlora on the 5090, worth buying?"],
    "zh": ["那如果在5090上做qlora呢，值得买吗", "改成qlora在5090上跑的话，买5090划算吗", "用qlora的话5090值得买吗"],
}
CASES = [(lang, a, b) for lang in ("en", "zh") for a in FIRST[lang] for b in SECOND[lang]]


@pytest.mark.parametrize("lang,first,second", CASES)
def test_qlora_on_the_card_to_buy_answers_the_buy_question(lang, first, second):
    reply = run_conversation([first, second])[-1]
    data, text = payload(reply), reply.content
    assert data["profile"]["method"] == "qlora"
    # the buy question on the 5090, weighed again on the QLoRA job: the card alone against the H100 rent paid now
    v = data["buy_or_rent"]
    assert (v["buy"], v["rented"], v["code"]) == ("rtx-5090", "h100-sxm", "rent")
    assert v["purchase_usd"] == pytest.approx(find_gpu("rtx-5090").buy_price_usd)
    assert v["fits"] == {"full": False, "lora": False, "qlora": True}
    assert v["runs_per_month"] == 2 and 0 < v["rent_usd_per_month"] < 40  # twice a month of a short run
    assert v["payback_months"] > 36
    # the plan is QLoRA on the 5090, not an H100 the user was said to have limited themselves to
    decision = data["decision"]
    assert (decision["gpu"], decision["gpus"]) == ("rtx-5090", 1)
    switch = data["method_switch"]
    # from LoRA on an H100 to QLoRA on the 5090: LoRA does not fit the 5090 (from LoRA on 2 × 5090, the plan in yuan
    # prices: QLoRA needs one card fewer)
    moved = "smaller_card" if switch["old_gpu"] != "rtx-5090" else "fewer_cards"
    assert (switch["from"], switch["to"], switch["code"]) == ("lora", "qlora", moved)
    assert switch["new_gpu"] == "rtx-5090" and switch["new_gpus"] == 1
    only = "only these cards" if lang == "en" else "只用这些卡"
    assert only not in text and "8 × NVIDIA H100" not in text
    assert "320,000" not in text  # no H100 server priced
    # the buy verdict first, before the plan's headline; no serving words (first token, users) for a training run
    head = "keep renting" if lang == "en" else "继续租"
    assert head in text and text.index(head) < text.index("##")
    assert ("first token" if lang == "en" else "首 token") not in text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_first_turn_still_weighs_the_5090_against_h100_rent(lang):
    data = payload(run_conversation([FIRST[lang][0]])[-1])
    v = data["buy_or_rent"]
    assert (v["buy"], v["rented"], v["code"]) == ("rtx-5090", "h100-sxm", "rent")
    assert data["profile"]["method"] == "lora"


def test_a_card_asked_about_after_an_unrelated_plan_is_no_buy_question():
    """Without a buy-or-rent in the turn before, 'is the 5090 worth buying' stays the card's own verdict."""
    data = payload(run_conversation(["lora finetune qwen2.5 14b, 20k samples, twice a month",
                                     "what about qlora on the 5090, worth buying?"])[-1])
    assert "buy_or_rent" not in data
