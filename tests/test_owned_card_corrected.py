"""A correction of the user's own card replaces it (review: 'wait no sorry its the 5070 12gb not the 5080, my bad'
excluded the RTX 5080 and kept it owned, and the RTX 5070 was not on record). Every phrasing of a card put right,
in English and Chinese, with or without the card's memory, with 'its'/'it's', for several card pairs both ways: the
new card is the one owned (the count said before kept), nothing is ruled out, the headline names the new card. And
the consumer cards people type are on record, each by its usual spellings."""

from __future__ import annotations

import pytest
from conversation import run_states

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import find_gpu, find_unsized_card

# (old card id, how it is typed; new card id, how it is typed bare, and with its memory)
PAIRS = [
    ("rtx-5080", "5080", "rtx-5070", "5070", "5070 12gb"),
    ("rtx-5070", "5070", "rtx-5080", "5080", "5080 16gb"),
    ("rtx-4090", "4090", "rtx-3090", "3090", "3090 24gb"),
    ("rtx-3090", "3090", "rtx-4090", "4090", "4090 24G"),
    ("rtx-5060-ti-16gb", "5060 ti", "rtx-4060-ti-16gb", "4060 ti", "4060 ti 16gb"),
    ("rx-7900-xtx", "7900 xtx", "rx-9070-xt", "9070 xt", "9070 xt 16gb"),
]

# Corrections that name both cards ({x}: the right one, {y}: the one said wrong)
BOTH = [
    "wait no sorry its the {x} not the {y}, my bad",
    "it's the {x} not the {y}",
    "its the {x} not the {y}",
    "sorry, {x} not {y}",
    "i meant the {x}, not the {y}",
    "oops, it's a {x} not a {y}",
    "不是{y}，是{x}",
    "我的是{x}不是{y}",
    "不好意思，是{x}不是{y}",
    "说错了，是{x}，不是{y}",
]
# Corrections that name only the right card
ONLY_NEW = [
    "wait no, it's a {x}",
    "wait no its a {x}",
    "actually it's a {x}",
    "actually its a {x}",
    "I meant {x}",
    "my bad, {x}",
    "oops it's actually a {x}",
    "说错了，是{x}",
    "更正一下，卡是{x}",
    "其实是{x}",
]


def _said(pair: tuple[str, str, str, str, str], with_memory: bool) -> tuple[str, str, str, str]:
    old, old_typed, new, new_typed, new_memory = pair
    return old, old_typed, new, new_memory if with_memory else new_typed


@pytest.mark.parametrize("pair", PAIRS, ids=[p[0] + ">" + p[2] for p in PAIRS])
@pytest.mark.parametrize("with_memory", [False, True], ids=["bare", "memory"])
@pytest.mark.parametrize("template", BOTH)
def test_both_cards_named_put_the_card_right(pair, with_memory: bool, template: str) -> None:
    old, old_typed, new, new_typed = _said(pair, with_memory)
    u = understand(template.format(x=new_typed, y=old_typed))
    assert u.ask.get("replaced") == (new, old, None), (u.ask, u.updates)
    assert "exclude" not in u.updates and not u.updates.get("owned")  # nothing ruled out, no new card had


@pytest.mark.parametrize("pair", PAIRS, ids=[p[0] + ">" + p[2] for p in PAIRS])
@pytest.mark.parametrize("with_memory", [False, True], ids=["bare", "memory"])
@pytest.mark.parametrize("template", ONLY_NEW)
def test_the_right_card_alone_puts_the_card_right(pair, with_memory: bool, template: str) -> None:
    _old, _old_typed, new, new_typed = _said(pair, with_memory)
    u = understand(template.format(x=new_typed))
    assert u.ask.get("replaced") == (new, None, None), (u.ask, u.updates)
    assert "exclude" not in u.updates and not u.updates.get("owned")


@pytest.mark.parametrize("text", ["actually, how fast is the 5070?", "actually compare it with a 5070",
                                  "what about a 5070 instead?", "not the 5080 please", "不要5080",
                                  "sorry, why not the 5070?"])
def test_no_correction_without_a_card_put_right(text: str) -> None:
    assert "replaced" not in understand(text).ask


# --- the conversation: the profile and the headline ---------------------------------------------------------------

FIRST = {
    "en": "got a {c} + 64 gigs ddr5. can i run qwen3-coder-30b-a3b at q4 with like 32k ctx for local coding? ollama or llama.cpp?",
    "zh": "我有一张{c}和64G内存，想本地用 qwen3-coder-30b-a3b q4 写代码，32k 上下文，ollama 还是 llama.cpp？",
}
FIRST_TWO = {
    "en": "I have two {c}s and 128gb ram, can i run qwen2.5 32b at q4 for myself?",
    "zh": "我有两张{c}，128G内存，想自己跑 qwen2.5 32b q4",
}
CONVERSATIONS = [  # (language, first card typed, correction, new card id, old card id)
    ("en", "5080 16gb", "wait no sorry its the 5070 12gb not the 5080, my bad", "rtx-5070", "rtx-5080"),
    ("en", "5080 16gb", "actually it's a 5070 12gb", "rtx-5070", "rtx-5080"),
    ("en", "5070", "its the 5080 not the 5070", "rtx-5080", "rtx-5070"),
    ("en", "4090", "wait no, it's a 3090", "rtx-3090", "rtx-4090"),
    ("zh", "5080", "不是5080，是5070", "rtx-5070", "rtx-5080"),
    ("zh", "3090", "更正一下，卡是4090", "rtx-4090", "rtx-3090"),
    ("zh", "5070 12G", "说错了，是5060 Ti 16G", "rtx-5060-ti-16gb", "rtx-5070"),
]


def _profile(state) -> dict:
    p = state["profile"]
    return p.model_dump(exclude_defaults=True) if hasattr(p, "model_dump") else dict(p)


@pytest.mark.parametrize(("lang", "card", "fix", "new", "old"), CONVERSATIONS)
def test_the_owned_card_is_replaced_and_headlined(lang: str, card: str, fix: str, new: str, old: str) -> None:
    states = run_states([FIRST[lang].format(c=card), fix])
    assert _profile(states[0]).get("owned") == [f"1x {old}"]
    after = _profile(states[1])
    assert after.get("owned") == [f"1x {new}"] and not after.get("exclude"), after
    reply = str(states[1]["messages"][-1].content)
    head = next(line for line in reply.split("\n") if line.startswith("## "))
    said = next(line for line in reply.split("\n") if line.startswith(("**From what you said", "**你说的")))
    for line in (head, said):
        assert find_gpu(new).name in line and find_gpu(old).name not in line, line
    updated = next(line for line in reply.split("\n") if line.startswith("_"))
    assert ("owned GPUs" if lang == "en" else "自有 GPU") in updated, updated  # the card changed
    assert ("not wanted" if lang == "en" else "排除的卡") not in reply


@pytest.mark.parametrize(("lang", "fix"), [("en", "sorry, I meant 4090s not 3090s"), ("en", "wait no, they're 4090s"),
                                           ("zh", "不是3090，是4090")])
def test_the_count_said_before_stays_with_the_right_card(lang: str, fix: str) -> None:
    states = run_states([FIRST_TWO[lang].format(c="3090"), fix])
    assert _profile(states[0]).get("owned") == ["2x rtx-3090"]
    after = _profile(states[1])
    assert after.get("owned") == ["2x rtx-4090"] and not after.get("exclude"), after


# --- the cards added to the catalog, by their usual spellings ------------------------------------------------------

SPELLINGS = {
    "rtx-5070": ["5070", "rtx 5070", "RTX 5070 12GB", "RTX5070", "5070 12g", "rtx5070 12gb", "GeForce RTX 5070",
                 "rtx-5070"],
    "rtx-5060": ["5060", "RTX 5060", "rtx5060", "5060 8gb", "geforce rtx 5060"],
    "rtx-5060-ti-16gb": ["5060 ti", "5060ti", "RTX 5060 Ti", "rtx 5060 ti 16gb", "5060 Ti 16G", "RTX5060Ti"],
    "rtx-5060-ti-8gb": ["5060 ti 8gb", "5060ti 8g", "RTX 5060 Ti 8GB"],
    "rx-9070-xt": ["9070 xt", "9070xt", "RX 9070 XT", "rx9070xt", "Radeon RX 9070 XT", "9070 XT 16GB"],
    "rx-9070": ["9070", "RX 9070", "rx9070", "Radeon RX 9070", "9070 16gb"],
    "rx-7800-xt": ["7800 xt", "7800xt", "RX 7800 XT", "rx7800xt", "Radeon RX 7800 XT"],
    "rx-7700-xt": ["7700 xt", "7700xt", "RX 7700 XT", "rx7700xt", "7700 XT 12GB"],
}
# (id, memory GB, bandwidth GB/s, TDP W, launch price $)
FIGURES = [("rtx-5070", 12, 672, 250, 549), ("rtx-5060", 8, 448, 145, 299), ("rtx-5060-ti-16gb", 16, 448, 180, 429),
           ("rtx-5060-ti-8gb", 8, 448, 180, 379), ("rx-9070-xt", 16, 640, 304, 599), ("rx-9070", 16, 640, 220, 549),
           ("rx-7800-xt", 16, 624, 263, 499), ("rx-7700-xt", 12, 432, 245, 449)]


@pytest.mark.parametrize(("gpu_id", "spelling"), [(g, s) for g, ss in SPELLINGS.items() for s in ss])
def test_every_spelling_finds_the_card(gpu_id: str, spelling: str) -> None:
    assert find_gpu(spelling).id == gpu_id


@pytest.mark.parametrize(("gpu_id", "memory", "bandwidth", "tdp", "price"), FIGURES)
def test_added_cards_carry_their_sourced_figures(gpu_id: str, memory: int, bandwidth: int, tdp: int, price: int) -> None:
    g = find_gpu(gpu_id)
    assert (g.memory_gb, g.memory_bandwidth_gbps, g.tdp_w, g.buy_price_usd) == (memory, bandwidth, tdp, price)
    assert g.segment == "consumer" and g.bf16_tflops > 0 and g.int8_tops and g.source.startswith("http")
    assert str(g.as_of) == "2026-12-07"


def test_the_siblings_keep_their_names() -> None:
    assert find_gpu("5070 ti").id == "rtx-5070-ti" and find_gpu("5070 ti 16gb").id == "rtx-5070-ti"
    assert find_gpu("5080").id == "rtx-5080" and find_gpu("4060").id == "rtx-4060"
    assert find_gpu("7900 xt").id == "rx-7900-xt" and find_gpu("7900 xtx").id == "rx-7900-xtx"


def test_arc_b580_is_on_record_but_not_sized() -> None:
    card = find_unsized_card("arc b580")
    assert card is not None and (card.memory_gb, card.memory_bandwidth_gbps, card.tdp_w) == (12, 456, 190)
    assert find_unsized_card("Intel Arc B580").id == card.id


@pytest.mark.parametrize(("text", "gpu_id"), [
    ("I have an RTX 5070, can it run qwen2.5 14b for coding? just me", "rtx-5070"),
    ("i have a 5070 12gb. can it run qwen2.5 7b?", "rtx-5070"),
    ("我有一张5060 Ti 16G，想本地跑qwen2.5 14b", "rtx-5060-ti-16gb"),
    ("got a 9070 xt, can i run llama 3 8b locally?", "rx-9070-xt"),
    ("我有一张7800XT，本地跑qwen2.5 7b", "rx-7800-xt"),
])
def test_an_added_card_owned_is_read(text: str, gpu_id: str) -> None:
    u = understand(text)
    assert u.updates.get("owned") == [f"1x {gpu_id}"], u.updates
    assert not any(key.startswith("note.card_unknown") for key, _v in u.notes)
