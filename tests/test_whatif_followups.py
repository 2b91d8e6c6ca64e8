"""Hypothetical follow-ups are questions, not changes (assistant/reading/whatif.py, engine, writers.tried_added and
writers.against_before).

1. A card tried in a question ('what if we use H20s instead', '如果换成H20呢') is never owned: it is sized as many
   as the job needs, beside the plan ('instead?') or as the plan's card (a switch, '换成'), compared with the plan
   before.
2. Someone else's cards ('our partner has them', '合作方有') are said to be theirs, count not stated.
3. A card added in a question ('would adding a third 3090 help?', '再加一张3090有用吗') is tried as the cards you have
   plus it; nothing is recorded as owned; the reply says yes or no with the figures, and for serving whether the
   new count can split a copy by tensor parallelism.
4. A method changed in a question ('qlora on cheaper cards instead?') is compared with the plan before.
"""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states

CARDS = [("H20", "h20"), ("L40S", "l40s"), ("A100 80GB", "a100-80gb-sxm"), ("RTX 4090", "rtx-4090"),
         ("H100", "h100-sxm")]

TRIED = {
    "en": ["what if we use {card}s instead", "what if we used {card}s instead?", "suppose we go with {card}s instead",
           "what if we switch to {card}s instead, our partner has them", "what about {card}s instead?"],
    "zh": ["如果换成{card}呢", "要是换成{card}呢，合作方有", "如果用{card}会怎样", "假如换成{card}呢"],
}


def _ids(lang: str) -> list[tuple[str, str, str]]:
    return [(form, card, gpu_id) for form, (card, gpu_id) in itertools.product(TRIED[lang], CARDS)]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_card_tried_in_a_question_is_no_card_owned_nor_the_only_one(lang):
    for form, card, gpu_id in _ids(lang):
        text = form.format(card=card)
        got = understand(text, None)
        assert "owned" not in got.updates, (text, got.updates)
        # a switch ('换成H20呢') plans on the card, as many as it takes; 'instead?' puts it beside the plan
        assert got.updates.get("only", [gpu_id]) == [gpu_id], (text, got.updates)
        assert gpu_id in got.compare_gpus or got.updates.get("only") == [gpu_id], (text, got)
        assert got.ask.get("hypothetical"), (text, got.ask)
        assert got.lang == lang, text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_someone_elses_cards_are_said_to_be_theirs(lang):
    partner = {"en": "what if we use {card}s instead, our partner has them", "zh": "如果换成{card}呢，合作方有"}[lang]
    plain = {"en": "what if we use {card}s instead", "zh": "如果换成{card}呢"}[lang]
    for card, _gpu_id in CARDS:
        with_partner = understand(partner.format(card=card), None)
        assert [k for k, _v in with_partner.notes].count("note.partner_cards") == 1, (card, with_partner.notes)
        without = understand(plain.format(card=card), None)
        assert "note.partner_cards" not in [k for k, _v in without.notes], (card, without.notes)


ADDED = {
    "en": ["would adding a third {card} help?", "what if we had one more {card}?", "would another {card} help?",
           "what if we add a second {card}?", "would adding another {card} be faster?"],
    "zh": ["再加一张{card}有用吗", "如果再加一张{card}呢", "再加一张{card}能快多少", "要是再加一张{card}会怎样"],
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_card_added_in_a_question_is_tried_not_owned(lang):
    for form, (card, gpu_id) in itertools.product(ADDED[lang], CARDS):
        text = form.format(card=card)
        got = understand(text, None)
        assert got.added_cards == {gpu_id: 1} and not got.adds_owned, (text, got.added_cards, got.adds_owned)
        assert "owned" not in got.updates and got.ask.get("hypothetical"), (text, got.updates, got.ask)


def test_a_card_added_without_a_question_is_still_yours():
    got = understand("再加一张3090", None)  # told, not asked: one more of your own (tests/test_reading_owned_class.py)
    assert got.added_cards == {"rtx-3090": 1} and got.adds_owned


def _options(state: dict) -> list[dict]:
    """The options of the last answer: those asked about and the recommendation's."""
    results = state["results"]
    return [*results.get("options", []), *results["recommend"]["options"]]


def _run(turns: list[str]) -> tuple[list[str], dict]:
    states = run_states(turns)
    return [str(s["messages"][-1].content) for s in states], states[-1]


SERVE_70B = {"en": ["serve llama 3.1 70b for 40 users at 8k context in us", "around the clock"],
             "zh": ["部署llama 3.1 70b，40个用户同时用，8k上下文，在美国", "全天"]}


@pytest.mark.parametrize("lang,ask", [("en", "what if we use H20s instead, our partner has them"),
                                      ("zh", "如果换成H20呢，合作方有")])
def test_h20s_tried_below_a_70b_plan(lang, ask):
    replies, state = _run([*SERVE_70B[lang], ask])
    last = replies[-1]
    assert not state["profile"].get("owned"), state["profile"]
    assert state["profile"].get("only") in (None, ["h20"]), state["profile"]
    options = _options(state)
    h20 = [o for o in options if o["gpu"] == "h20" and not o["owned"]]
    assert h20 and h20[0]["ok"] and h20[0]["gpus"] >= 2, h20  # 70B for 40 users needs more than one H20
    assert f"{h20[0]['gpus']} × NVIDIA H20 96GB" in last
    assert ("someone else's" if lang == "en" else "别人的卡") in last
    assert ("Your 1 × NVIDIA H20" not in last) and ("你的 1 × NVIDIA H20" not in last)
    if state["profile"].get("only"):  # planned on the H20s: what changed against the plan before is said
        assert ("**Against the plan before**" if lang == "en" else "**与之前的方案相比**") in last, last[:800]
    else:  # beside the plan: the H20s answered first (assistant.direct), against its pick
        assert last.startswith(("**Yes**", "**够**")) and "_The plan above is unchanged" in last, last[:800]


@pytest.mark.parametrize("lang,first,ask,word", [
    ("en", ["we have two 3090s and want to fine-tune qwen2.5-7b", "lora"], "would adding a third 3090 help?",
     "**Yes, it helps**"),
    ("zh", ["我们有两张3090，想微调qwen2.5-7b", "lora"], "再加一张3090有用吗", "**有用**"),
])
def test_a_third_3090_for_fine_tuning(lang, first, ask, word):
    replies, state = _run([*first, ask])
    last = replies[-1]
    assert state["profile"]["owned"] == ["2x rtx-3090"], state["profile"]["owned"]
    assert word in last and "3 × NVIDIA GeForce RTX 3090 24GB" in last, last[:600]
    three = next(o for o in _options(state) if o["gpu"] == "rtx-3090" and o["gpus"] == 3)
    two = state["results"]["recommend"]["best"]
    assert two["owned"] and two["gpus"] == 2 and two["gpu"] == "rtx-3090"
    assert three["job_hours"] < two["job_hours"]


@pytest.mark.parametrize("lang,first,ask,word", [
    ("en", ["we have two 3090s and want to serve qwen2.5-32b to 20 people", "around the clock"],
     "would adding a third 3090 help?", "40 attention heads"),
    ("zh", ["我们有两张3090，想部署qwen2.5-32b给20个人用", "全天"], "再加一张3090有用吗", "40 个注意力头"),
])
def test_three_cards_cannot_split_a_copy_with_40_heads(lang, first, ask, word):
    replies, state = _run([*first, ask])
    assert state["profile"]["owned"] == ["2x rtx-3090"], state["profile"]["owned"]
    assert word in replies[-1], replies[-1][:800]
    three = next(o for o in _options(state) if o["gpu"] == "rtx-3090" and o["gpus"] == 3)
    assert (three.get("tp") or 1) != 3


@pytest.mark.parametrize("lang,first,ask,head", [
    ("en", ["we have two 3090s and want to fine-tune qwen2.5-7b", "full fine-tune"], "qlora on cheaper cards instead?",
     "**Against the plan before**"),
    ("zh", ["我们有两张3090，想微调qwen2.5-7b", "全参微调"], "换成qlora呢？", "**与之前的方案相比**"),
])
def test_a_method_asked_about_is_compared_with_the_plan_before(lang, first, ask, head):
    replies, state = _run([*first, ask])
    assert state["profile"]["method"] == "qlora"
    assert head in replies[-1], replies[-1][:600]


SPILL = {"en": ["how much slower if it spills into system RAM?", "what if we offload part of it to cpu ram, how slow?",
                "how much slower would it be if the weights spill over into system memory?",
                "whats the speed hit if it spills into ram"],
         "zh": ["显存不够放内存会慢多少", "如果放到内存里速度会慢多少", "卸载到cpu内存会变慢多少？", "放内存的话速度掉多少"]}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_spill_into_system_ram_is_a_question_about_the_plan(lang):
    for text in SPILL[lang]:
        got = understand(text, None)
        assert "offload" in got.intents and not got.updates, (text, got.intents, got.updates)
        assert got.lang == lang


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_spill_is_answered_from_the_plans_own_figures(lang):
    replies, state = _run([*SERVE_70B[lang], SPILL[lang][0]])
    best = state["results"]["recommend"]["best"]
    data = state["messages"][-1].additional_kwargs
    last = replies[-1]
    assert f"{best['gpus']} × {best['gpu_name']}" in last
    assert "PCIe" in last and last.count("\n- ") == 3, last
    assert ("10% of each GPU" if lang == "en" else "权重有 10%") in last
    assert state["profile"].get("owned") is None and data  # nothing changed, a reply with its data
    # slower with more spilled, and never faster than all on the card
    found = [float(x) for x in __import__("re").findall(r"(?:about|约每秒) (\d+(?:\.\d+)?)", last)]
    assert len(found) == 3 and found == sorted(found, reverse=True) and found[0] < 1 / best["tpot_s"], found
