"""A card said to be out of stock ('B200 国内没货', 'h100缺货', 'b200 out of stock') is out of reach: excluded, as
'can't get b200' is; '有货吗' stays a question about availability."""
from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand

CARDS = [("B200", "b200"), ("H100", "h100-sxm"), ("H20", "h20")]
ZH_SAID = ["{card} 国内没货", "{card}在国内没货", "{card}缺货", "{card} 断货了", "{card}没有货"]
EN_SAID = ["{card} is out of stock", "{card}s are out of stock", "{card} sold out"]
JOBS = [("，部署 qwen2.5 72b 给 20 人同时用", "serve"), ("，llama 3.1 70b lora 微调用什么卡", "fine-tune")]
EN_JOBS = [(", serve qwen2.5 72b to 20 users", "serve"), (", what should we use for a llama 3.1 70b lora", "fine-tune")]


@pytest.mark.parametrize("card, said, job", list(itertools.product(CARDS, ZH_SAID, JOBS)))
def test_chinese_out_of_stock_excludes_the_card(card, said, job):
    name, card_id = card
    u = understand(said.format(card=name) + job[0])
    assert card_id in (u.updates.get("exclude") or [])
    assert u.updates.get("phase") == job[1]


@pytest.mark.parametrize("card, said, job", list(itertools.product(CARDS, EN_SAID, EN_JOBS)))
def test_english_out_of_stock_excludes_the_card(card, said, job):
    name, card_id = card
    u = understand(said.format(card=name) + job[0])
    assert card_id in (u.updates.get("exclude") or [])


@pytest.mark.parametrize("text", ["B200 现在有货吗", "H100 有现货吗"])
def test_asking_about_stock_excludes_nothing(text):
    u = understand(text)
    assert not u.updates.get("exclude") and "availability" in u.intents
