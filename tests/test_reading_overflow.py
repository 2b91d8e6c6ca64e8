"""Cards a lab, team or company 'has' are owned however the owner is named; 'rent more if needed' / '不够就租'
lets renting add to them, it is not a preference for renting (and the card named there is not the only one)."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand

EN_OWNERS = ["lab has", "our lab has", "the team has", "company already has", "our startup has", "my group has"]
ZH_OWNERS = ["课题组有", "实验室里有", "工作室有", "公司目前有", "团队有", "组里有", "手上有"]
EN_CARDS = [("four 8xH100 servers", "32x h100-sxm"), ("2 a100 80gb", "2x a100-80gb-sxm"), ("8 rtx 4090s", "8x rtx-4090")]
ZH_CARDS = [("一台8卡4090服务器", "8x rtx-4090"), ("两张A100 80G", "2x a100-80gb-sxm"), ("4张L20", "4x l20")]
EN_JOBS = ["full fine tune llama 3.1 70b on 5B tokens", "qlora qwen2.5 32b, 30k samples"]
ZH_JOBS = ["qlora微调llama3.3 70b，三万条", "全参微调qwen3 32b，十亿token"]
EN_OVERFLOW = ["rent more if needed", "we can rent extra if necessary", "can also rent some if it's not enough",
               "rent more as needed"]
ZH_OVERFLOW = ["不够就租", "不够可以再租", "不够的话可以租", "不够也可以租"]


@pytest.mark.parametrize(("text", "owned"), [
    (f"{who} {cards}, {job}", owned) for who, (cards, owned), job in itertools.product(EN_OWNERS, EN_CARDS, EN_JOBS)
] + [(f"{who}{cards}，{job}", owned) for who, (cards, owned), job in itertools.product(ZH_OWNERS, ZH_CARDS, ZH_JOBS)])
def test_cards_an_organisation_has_are_owned(text, owned):
    assert understand(text).updates.get("owned") == [owned], text


@pytest.mark.parametrize("text", [
    f"we have 2 a100 80gb, {job}, {more}" for job, more in itertools.product(EN_JOBS, EN_OVERFLOW)
] + [f"我们有两张A100 80G，{job}，{more}" for job, more in itertools.product(ZH_JOBS, ZH_OVERFLOW)])
def test_renting_as_overflow_is_no_preference_and_is_said(text):
    u = understand(text)
    assert u.updates.get("owned") == ["2x a100-80gb-sxm"], text
    assert "preference" not in u.updates, (text, u.updates)
    assert ("note.rent_overflow", {}) in u.notes, (text, u.notes)


@pytest.mark.parametrize("text", ["we'd rather rent, lora llama 3.1 8b", "我们只租不买，lora微调llama 3.1 8b",
                                  "renting is fine for us, serve qwen2.5 7b to 20 users"])
def test_a_plain_wish_to_rent_is_still_a_preference(text):
    assert understand(text).updates.get("preference") == "rent", text


def test_a_card_to_rent_if_needed_is_not_the_only_card():
    u = understand("we have 4 A100 80G, also rent 8 h100s if needed, full finetune llama 3.1 70b")
    assert u.updates.get("owned") == ["4x a100-80gb-sxm"] and "only" not in u.updates
