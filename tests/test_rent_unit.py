"""A rented plan on part of a server of a card sold only in whole servers (review CE #4: 4 x B200 for a one-off full
fine-tune, while B200 'usually comes as 8-GPU nodes'): the reply says why that count is to be had (the providers on
record that rent an instance of it, the clouds that rent only whole nodes), or the instance the plan must pay for and
its price an hour (tools.rent_unit), in both languages."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.rent_unit_reply import rent_unit_lines
from gpu_advisor.knowledge import find_gpu, prices
from gpu_advisor.tools.rent_unit import rent_unit
from tests.conversation import payload, run_conversation

FULL_FT = {
    "en": ["got 2x 3090 (24gb each) in my home rig no nvlink. wanna qlora mistral small 24b on ~20k samples, seq len "
           "4096. does it fit and how long per epoch roughly?", "ok and what if i do full finetune instead"],
    "zh": ["我们在海外，家里有两张3090 24g没有nvlink，想用qlora微调mistral small 24b，两万条数据，序列长度4096，放得下吗，一轮多久",
           "那如果改成全参微调呢"],
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_four_b200_rented_for_a_full_fine_tune_says_why_four_are_to_be_had(lang):
    reply = run_conversation(FULL_FT[lang])[-1]
    rec = payload(reply)["results"]["recommend"]
    best, unit = rec["best"], rec["rent_unit"]
    assert rec["action"] == "rent" and (best["gpus"], best["gpu"]) == (4, "b200") and find_gpu("b200").sold_in == 8
    assert unit["unit"] == 4 and unit["providers"] and set(unit["whole_only"]) >= {"aws", "gcp"}
    # every provider named rents a 4-GPU instance of it on record
    offered = {p.provider for p in prices() if p.gpu == "b200" and p.gpus_per_instance == 4}
    assert set(unit["providers"]) <= offered
    line = next(x for x in reply.content.splitlines() if x.startswith("NVIDIA B200 180GB (HGX)"))
    assert all(p in line for p in unit["providers"])
    assert ("AWS" in line and "rent it only as 8-GPU nodes" in line) if lang == "en" else ("谷歌云" in line and "只按 8 卡整机出租" in line)


def test_a_count_no_offer_rents_in_one_machine_pays_for_the_instance_that_holds_it():
    # H200 is on record only in 1-GPU instances (and as 8-GPU nodes at the big clouds): 4 cards in one machine for a
    # training run means a whole 8-GPU node; 4 single-GPU serving copies do not need one machine
    together = rent_unit("h200", 4, "global", 14.0, together=4)
    assert together is not None and together.unit == 8 and together.unit_usd_per_hour == pytest.approx(28.0)
    apart = rent_unit("h200", 4, "global", 14.0, together=1)
    assert apart is not None and apart.unit == 4 and apart.providers
    assert rent_unit("h200", 8, "global", 28.0, together=8) is None  # a whole server: nothing to say
    assert rent_unit("rtx-4090", 2, "global", 1.0, together=2) is None  # sold one at a time


@pytest.mark.parametrize("lang, words", [("en", "means renting 8, about $28.00 an hour"), ("zh", "就得租 8 张，每小时约 $28.00")])
def test_the_instance_paid_for_is_said_with_its_price(lang, words):
    reply = run_conversation(FULL_FT["en"])[-1]
    from gpu_advisor.tools.recommend import Recommendation

    rec = Recommendation.model_validate(payload(reply)["results"]["recommend"])
    unit = rent_unit("h200", 4, "global", 14.0, together=4)
    best = rec.best.model_copy(update={"gpu": "h200", "gpu_name": find_gpu("h200").name})
    lines = rent_unit_lines(rec.model_copy(update={"rent_unit": unit, "best": best}), lang)
    assert lines and words in lines[0] and find_gpu("h200").name in lines[0]
