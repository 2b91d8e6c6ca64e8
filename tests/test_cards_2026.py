"""Cards added for issue 23. Laptop GPUs: the catalog holds the RTX 4060/4070/4080/4090 and RTX 5090 Laptop GPUs with the
memory, bus and power range NVIDIA publishes; every way people name one ('RTX 4090 laptop', '笔记本4090', 'my
laptop has a 4080') is read as that laptop card, owned, never as the desktop card of the same number.
The 48 GB RTX 4090 and 4090 D sold modified in China, and the A800 PCIe 40GB."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import find_gpu, gpus, rules
from tests.conversation import run_conversation

# id: (memory GB, bus bits, GB/s, NVIDIA AI TOPS, TGP range W, the desktop card of the same number or None)
LAPTOP_CARDS = {
    "rtx-4090-laptop": (16, 256, 576, 686, (80, 150), "rtx-4090"),
    "rtx-4080-laptop": (12, 192, 432, 542, (60, 150), "rtx-4080"),
    "rtx-4070-laptop": (8, 128, 256, 321, (35, 115), None),
    "rtx-4060-laptop": (8, 128, 256, 233, (35, 115), None),
    "rtx-5090-laptop": (24, 256, 896, 1824, (95, 150), "rtx-5090"),
}


@pytest.mark.parametrize("gpu_id", LAPTOP_CARDS)
def test_laptop_card_carries_the_published_figures(gpu_id):
    memory, bus, bandwidth, ai_tops, (low_w, high_w), desktop = LAPTOP_CARDS[gpu_id]
    g = find_gpu(gpu_id)
    assert (g.memory_gb, g.memory_bandwidth_gbps, g.tdp_w) == (memory, bandwidth, high_w)
    assert bandwidth % (bus // 8) == 0  # a whole number of Gbps per pin on that bus
    # NVIDIA's AI TOPS are sparse: FP8 (Ada) or FP4 (Blackwell) with FP16 accumulate; dense BF16 with FP32
    # accumulate is an eighth (Ada) or a sixteenth (Blackwell) of them, as in the desktop GeForce records
    assert g.bf16_tflops == pytest.approx(ai_tops / (16 if g.arch == "blackwell" else 8), abs=0.06)
    assert f"{low_w}-{high_w} W" in " ".join(g.market_notes)
    assert g.laptop and g.buy_price_usd is None and g.at_home
    if desktop:
        assert g.memory_gb < find_gpu(desktop).memory_gb and g.memory_bandwidth_gbps < find_gpu(desktop).memory_bandwidth_gbps


def test_only_laptop_records_are_laptops():
    assert {g.id for g in gpus() if g.laptop} == set(LAPTOP_CARDS)


NUMBERS = {"rtx-4090-laptop": "4090", "rtx-4080-laptop": "4080", "rtx-4070-laptop": "4070", "rtx-4060-laptop": "4060",
           "rtx-5090-laptop": "5090"}
EN_SPELLINGS = ["RTX {n} laptop", "{n} laptop GPU", "GeForce RTX {n} Laptop GPU", "RTX {n} mobile", "laptop {n}", "{n}m"]
EN_FRAMES = ["I have an {c}, can I run qwen2.5 7b?", "serve llama 3.1 8b to 3 users on my {c}",
             "fine-tune qwen2.5 7b with lora on my {c}", "my {c} here, serve qwen3 8b"]
ZH_SPELLINGS = ["笔记本{n}", "{n}笔记本", "{n} 移动版", "笔记本 RTX {n}"]
ZH_FRAMES = ["我有一台{c}，能跑qwen2.5 7b吗", "用我的{c}部署qwen3 8b给3个人用", "手上是{c}，想LoRA一下qwen2.5 7b"]


def _texts():
    for gpu_id, n in NUMBERS.items():
        for spelling, frame in itertools.product(EN_SPELLINGS, EN_FRAMES):
            yield gpu_id, frame.format(c=spelling.format(n=n))
        for spelling, frame in itertools.product(ZH_SPELLINGS, ZH_FRAMES):
            yield gpu_id, frame.format(c=spelling.format(n=n))


def test_every_spelling_of_a_laptop_card_is_that_card_and_owned():
    texts = list(_texts())
    assert len(texts) >= 150
    failures = []
    for gpu_id, text in texts:
        u = understand(text)
        if u.updates.get("owned") != [f"1x {gpu_id}"] or u.updates.get("only") or u.whatif_gpus:
            failures.append(f"{text!r}: owned {u.updates.get('owned')} only {u.updates.get('only')} notes {u.notes}")
    assert not failures, f"{len(failures)} of {len(texts)}:\n" + "\n".join(failures[:25])


@pytest.mark.parametrize("text, want", [
    ("my laptop has a 4080, can I run qwen2.5 7b?", "1x rtx-4080-laptop"),
    ("my laptop has an RTX 4090, serve llama 3.1 8b", "1x rtx-4090-laptop"),
    ("我的笔记本是4090，想跑qwen3 8b", "1x rtx-4090-laptop"),
    ("I have a 4090, serve qwen3 8b", "1x rtx-4090"),          # the desktop card stays the desktop card
    ("I have an RTX 4080, serve qwen3 8b", "1x rtx-4080"),
    ("我有一张4090，部署qwen3 8b", "1x rtx-4090"),
])
def test_the_laptop_word_before_a_card_makes_it_the_laptop_card(text, want):
    assert understand(text).updates.get("owned") == [want]


@pytest.mark.parametrize("text", ["I have an RTX 3080 Ti laptop, can I run qwen2.5 7b?", "my laptop with a 4070 Ti",
                                  "笔记本3080跑qwen2.5 7b"])
def test_a_laptop_card_the_catalog_lacks_is_still_reported(text):
    u = understand(text)
    assert "owned" not in u.updates and any(k == "note.card_laptop" for k, _ in u.notes)


@pytest.mark.parametrize("text, name", [
    ("my laptop has a 4080, can I run qwen2.5 7b for myself?", "NVIDIA GeForce RTX 4080 Laptop GPU 12GB"),
    ("笔记本4090能跑qwen2.5 7b吗，就我一个人用", "NVIDIA GeForce RTX 4090 Laptop GPU 16GB"),
])
def test_the_answer_uses_the_laptop_the_user_has(text, name):
    reply = run_conversation([text])[-1].content
    assert name in reply
    assert "Rent " not in reply.splitlines()[0] and "租" not in reply.splitlines()[0]


@pytest.mark.parametrize("modded, stock, yuan", [("rtx-4090-48gb", "rtx-4090", 24599), ("rtx-4090d-48gb", "rtx-4090d", 21999)])
def test_a_48gb_modified_card_is_the_stock_card_with_twice_the_memory(modded, stock, yuan):
    m, s = find_gpu(modded), find_gpu(stock)
    same = ("memory_bandwidth_gbps", "bf16_tflops", "fp8_tflops", "int8_tops", "tdp_w", "arch", "interconnect")
    assert [getattr(m, f) for f in same] == [getattr(s, f) for f in same]
    assert (m.memory_gb, s.memory_gb) == (48, 24)
    assert m.china_specific and "Not an NVIDIA product" in m.market_notes[0]
    assert m.buy_price_usd == round(yuan * rules().usd_per_cny)


@pytest.mark.parametrize("text, want", [("we have 2 a800 40g", "2x a800-40gb-pcie"), ("我们有两张A800 40GB", "2x a800-40gb-pcie"),
                                        ("we have 2 a800", "2x a800-80gb-sxm"), ("我们有2张4090D 48G", "2x rtx-4090d-48gb"),
                                        ("I own 2 4090s modded to 48 GB", "2x rtx-4090-48gb")])
def test_a800_40gb_and_the_48gb_cards_are_read_by_their_memory(text, want):
    assert understand(text).updates.get("owned") == [want]


def test_a800_40gb_is_the_a100_40gb_pcie_in_china():
    a800, a100 = find_gpu("a800 40gb"), find_gpu("a100-40gb-pcie")
    same = ("memory_gb", "memory_bandwidth_gbps", "bf16_tflops", "int8_tops", "tdp_w", "arch")
    assert [getattr(a800, f) for f in same] == [getattr(a100, f) for f in same]
    assert a800.china_specific and not a100.china_specific


# The laptop said twice: a laptop word before a laptop card's own name ('my laptop has an rtx 4070 laptop
# 8gb'), with or without its memory. Once read as a second laptop word it made the card 'not in my catalog'.
LAPTOP_OPENERS = ["my laptop has an {c}, can it run phi-4", "gaming laptop with {c}, serve qwen3 8b for me",
                  "我的笔记本是{c}，能跑qwen2.5 7b吗", "笔记本电脑，显卡 {c}，想跑 qwen3 8b"]
MEMORY_SAID = ["", " {m}gb", " {m}GB", " {m}g"]


def test_a_laptop_card_named_in_full_after_a_laptop_word_is_that_card():
    failures = []
    texts = 0
    for gpu_id, n in NUMBERS.items():
        memory = LAPTOP_CARDS[gpu_id][0]
        for opener, spelling, said in itertools.product(LAPTOP_OPENERS, EN_SPELLINGS[:4], MEMORY_SAID):
            text = opener.format(c=spelling.format(n=n) + said.format(m=memory))
            texts += 1
            u = understand(text)
            if u.updates.get("owned") != [f"1x {gpu_id}"] or any(k == "note.card_laptop" for k, _ in u.notes):
                failures.append(f"{text!r}: owned {u.updates.get('owned')} notes {u.notes}")
    assert texts == 5 * 4 * 4 * 4
    assert not failures, f"{len(failures)} of {texts}:\n" + "\n".join(failures[:25])
