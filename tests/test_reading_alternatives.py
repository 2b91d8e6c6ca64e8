"""A bare size offered as the other option after a named model keeps the named model as the job; memory
said in 'gigs' is gigabytes (a lone 'gig' of a network stays gigabits)."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand

NAMED = [("deepseek r1 distill qwen 14b", "deepseek-r1-distill-qwen-14b"), ("qwen2.5 32b", "qwen2.5-32b"),
         ("llama 3.1 70b", "llama-3.1-70b")]
EN_ALTERNATIVES = ["possible?? or should i go with the 7b one", "doable, or the 8b?", "or maybe a 7b model",
                   "vs the 3b one"]
ZH_ALTERNATIVES = ["还是7b的", "能跑吗，还是用14b的", "或者8b的也行"]


@pytest.mark.parametrize(("text", "model"), [
    (f"on my 4090, {name} {alt}", model) for (name, model), alt in itertools.product(NAMED, EN_ALTERNATIVES)
] + [(f"4090上跑{name}{alt}", model) for (name, model), alt in itertools.product(NAMED, ZH_ALTERNATIVES)])
def test_the_named_model_is_the_job_and_the_bare_size_its_alternative(text, model):
    assert understand(text).updates.get("model") == model, text


@pytest.mark.parametrize("text", ["fine-tune a 27B model", "serve a 70b model to 20 users"])
def test_a_bare_size_alone_is_still_the_model(text):
    assert understand(text).updates.get("model", "")[0].isdigit(), text


@pytest.mark.parametrize(("text", "gb"), [(f"{lead} {n} gigs{tail}", n) for lead, n, tail in itertools.product(
    ["my 3090 box has", "4090 and"], [32, 64, 128], [" of ram", " ram", " of system memory"])])
def test_gigs_of_ram_are_gigabytes(text, gb):
    assert understand(text + ", qwen3 30b a3b").updates.get("system_ram_gb") == float(gb), text


def test_a_mac_with_gigs_takes_that_memory_and_a_gig_network_stays_gigabits():
    assert understand("mac mini m4 pro with 48 gigs, llama 3.3 70b q4").updates["owned"] == ["1x apple-m4-pro-20c-48gb"]
    assert understand("10 gig ethernet between two 8x a100 boxes").updates.get("network_gbit") == 10.0


@pytest.mark.parametrize("fix", ["or rather", "or actually", "or make it", "or instead"])
def test_a_correction_after_or_is_the_job(fix):
    assert understand(f"serve llama 3.1 8b, {fix} a 70b").updates.get("model") == "70B"
