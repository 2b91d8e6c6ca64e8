"""A card's memory put right by naming its family, not the variant: 'its actually the 8gb version of the 3060',
'my 3060 is the 8gb one', '3060是8G的', '其实是8G版的3060' after a plan on the 12 GB card: the held card becomes its
variant of that memory (assistant/reading/memory_variant.py, words in words/memory_variant.yaml). The RTX 3060 8GB is
its own card (128-bit bus, 240 GB/s), not the 12 GB one with less memory."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import find_gpu
from tests.conversation import run_states

# (the card held first, how the family is named, the memory said, the variant it becomes)
CARDS = [("rtx 3060 12gb", "3060", 8, "rtx-3060-8gb"), ("rtx 3060 8gb", "3060", 12, "rtx-3060-12gb"),
         ("a100 40gb", "a100", 80, "a100-80gb-sxm"), ("rtx 4060 ti 8gb", "4060 ti", 16, "rtx-4060-ti-16gb")]
EN = ["its actually the {m}gb version of the {f}", "it's the {m}GB version of the {f}", "actually the {f} is the {m}gb one",
      "my {f} is the {m}gb one", "the {f} is actually the {m} gb version"]
ZH = ["{f}是{m}G的", "其实是{m}G版的{f}", "{f}是{m}G版本的", "{f}其实是{m}GB的"]
FILLERS = {"en": ["", "oh wait ", "sorry, ", "oops "], "zh": ["", "不好意思，", "说错了，", "哦 "]}


@pytest.mark.parametrize(("held", "family", "memory", "variant"), CARDS)
@pytest.mark.parametrize(("lang", "form"), [("en", f) for f in EN] + [("zh", f) for f in ZH])
@pytest.mark.parametrize("filler", range(4))
def test_the_memory_said_of_the_family_is_read(held: str, family: str, memory: int, variant: str, lang: str,
                                               form: str, filler: int) -> None:
    text = FILLERS[lang][filler] + form.format(f=family, m=memory)
    u = understand(text)
    # read as the memory put right, or (the card's name and memory read as one name, 'a100是80G的') as that variant
    # put in the held card's place: either way the held card becomes the variant
    assert u.ask.get("memory_variant") == (float(memory), None) or (u.ask.get("replaced") or ("",))[0] == variant, text
    assert "owned" not in u.updates, text


@pytest.mark.parametrize("text", ["will it fit on the 8gb version of the 3060?", "what about a 3060",
                                  "we also have a 3060", "is the 8gb 3060 much slower?"])
def test_a_question_or_another_card_is_no_memory_put_right(text: str) -> None:
    assert "memory_variant" not in understand(text).ask


@pytest.mark.parametrize(("first", "fix", "variant"), [
    ("i have an rtx 3060 12gb + 32 gigs ram, wanna run gemma 3 12b locally for coding help. will it fit and how fast?",
     "oh wait sorry its actually the 8gb version of the 3060", "rtx-3060-8gb"),
    ("我有一张3060 12G，想本地跑qwen2.5 7b，能跑多快？", "不好意思，3060是8G的", "rtx-3060-8gb"),
    ("we have 4 a100 40gb, can we serve llama 3.1 70b to 20 users?", "sorry, it's the 80gb version of the a100",
     "a100-80gb-sxm"),
])
def test_the_plan_moves_to_the_variant_and_keeps_the_count(first: str, fix: str, variant: str) -> None:
    before, after = run_states([first, fix])
    count = before["profile"]["owned"][0].split("x ")[0]
    assert after["profile"]["owned"] == [f"{count}x {variant}"]
    assert find_gpu(variant).name in after["messages"][-1].content


def test_the_8gb_3060_has_its_own_bandwidth() -> None:
    small, big = find_gpu("rtx-3060-8gb"), find_gpu("rtx-3060-12gb")
    assert (small.memory_gb, small.memory_bandwidth_gbps) == (8, 240)
    assert (big.memory_gb, big.memory_bandwidth_gbps) == (12, 360)
    assert find_gpu("rtx 3060 8gb").id == "rtx-3060-8gb" and find_gpu("rtx 3060").id == "rtx-3060-12gb"
