"""Common cards people own are on record, and a card with its memory said is sized as the user's, never replaced by
a purchase (review CT E1: 'got an rx 6800 16gb in my gaming pc, can i run mistral nemo 12b' was told to buy an RTX
4060 Ti; E7: '2x rtx a5000' was not known). The RDNA 2 Radeons, NVIDIA's Ampere and Ada workstation cards resolve
by their usual spellings, are read as the user's own in English and Chinese, and get a plan on them; a card no
record holds, named with its memory, is sized as a card of that memory with its assumed bandwidth said."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import engines_on, find_gpu, format_support
from gpu_advisor.knowledge.assumed_card import assumed_figures
from tests.conversation import run_conversation

# card id -> spellings people type (the first is the one used in the owned phrasings)
SPELLINGS = {
    "rx-6600": ["rx 6600", "RX6600", "radeon rx 6600"],
    "rx-6600-xt": ["rx 6600 xt", "6600xt", "RX 6600XT"],
    "rx-6650-xt": ["rx 6650 xt", "6650 xt", "rx6650xt"],
    "rx-6700-xt": ["rx 6700 xt", "6700xt", "Radeon RX 6700 XT"],
    "rx-6750-xt": ["rx 6750 xt", "6750XT", "amd radeon rx 6750 xt"],
    "rx-6800": ["rx 6800", "RX6800", "radeon 6800", "rx 6800 16gb"],
    "rx-6800-xt": ["rx 6800 xt", "6800xt", "RX 6800XT", "6800 xt 16gb"],
    "rx-6900-xt": ["rx 6900 xt", "6900xt", "radeon rx 6900 xt"],
    "rx-6950-xt": ["rx 6950 xt", "6950 XT", "rx6950xt"],
    "rtx-a2000-12gb": ["rtx a2000 12gb", "A2000", "rtx a2000"],
    "rtx-a4000": ["rtx a4000", "A4000", "a4000 16gb", "nvidia rtx a4000"],
    "rtx-a4500": ["rtx a4500", "a4500", "A4500 20GB"],
    "rtx-a5000": ["rtx a5000", "A5000", "rtxa5000", "a5000 24gb"],
    "rtx-a5500": ["rtx a5500", "A5500"],
    "rtx-2000-ada": ["rtx 2000 ada", "2000 Ada", "nvidia rtx 2000 ada"],
    "rtx-4000-ada": ["rtx 4000 ada", "RTX 4000 Ada Generation"],
    "rtx-4000-sff-ada": ["rtx 4000 sff ada", "RTX 4000 SFF", "4000 sff"],
    "rtx-4500-ada": ["rtx 4500 ada", "4500 Ada"],
    "rtx-5000-ada": ["rtx 5000 ada"],
}
ADDED = [card for card in SPELLINGS if card not in ("rtx-4000-ada", "rtx-5000-ada")]


@pytest.mark.parametrize(("card", "spelling"), [(c, s) for c, said in SPELLINGS.items() for s in said])
def test_spelling_resolves(card: str, spelling: str) -> None:
    assert find_gpu(spelling).id == card


@pytest.mark.parametrize(("card", "memory", "bandwidth"), [
    ("rx-6800", 16, 512), ("rx-6800-xt", 16, 512), ("rx-6950-xt", 16, 576), ("rx-6700-xt", 12, 384),
    ("rx-6600", 8, 224), ("rtx-a5000", 24, 768), ("rtx-a4000", 16, 448), ("rtx-a4500", 20, 640),
    ("rtx-a2000-12gb", 12, 288), ("rtx-2000-ada", 16, 224), ("rtx-4000-sff-ada", 20, 280), ("rtx-4500-ada", 24, 432),
])
def test_sourced_memory_and_bandwidth(card: str, memory: int, bandwidth: int) -> None:
    g = find_gpu(card)
    assert (g.memory_gb, g.memory_bandwidth_gbps) == (memory, bandwidth)
    assert g.source and g.as_of.isoformat() == "2026-12-07"


@pytest.mark.parametrize("card", [c for c in ADDED if c.startswith("rx-")])
def test_rdna2_has_no_matrix_cores_and_runs_llama_cpp(card: str) -> None:
    """RDNA 2: packed FP16 and dot4 INT8 on the shaders (INT8 twice FP16), no BF16, no FP8; GGUF on llama.cpp
    (ROCm or Vulkan), no vLLM build."""
    g = find_gpu(card)
    assert g.arch == "rdna2" and g.stack == "rocm" and g.segment == "consumer"
    assert g.fp8_tflops is None and not g.native_bf16
    assert g.int8_tops == pytest.approx(2 * g.bf16_tflops, abs=0.02)
    assert g.bf16_tflops < 50  # no WMMA: well under the RDNA 3 cards (RX 7800 XT: 74.65)
    names = [e.id for e, _shown in engines_on(g)]
    assert "llama.cpp" in names and "vllm" not in names
    int4 = next(f for f in format_support() if f.id == "int4").path("rdna2")
    assert int4 is not None and int4.engines == ["llama.cpp"]


@pytest.mark.parametrize("card", [c for c in ADDED if c.startswith("rtx-")])
def test_workstation_tensor_rates(card: str) -> None:
    """Dense rates from the datasheet's sparse tensor figure: Ampere has no FP8 and INT8 twice BF16; Ada has FP8
    and INT8 twice BF16."""
    g = find_gpu(card)
    assert g.segment == "workstation" and g.native_bf16
    assert g.int8_tops == pytest.approx(2 * g.bf16_tflops, rel=0.01)
    assert (g.fp8_tflops is None) == (g.arch == "ampere")


# --- the user's own card ----------------------------------------------------------------------------------------

OWNED_EN = ["i have an {c}, can it run {m}? just me", "got a {c} in my gaming pc, can i run {m} for roleplay",
            "my {c} - is it enough for {m}? only for myself", "I already own a {c}. want to run {m} locally, just for me"]
OWNED_ZH = ["我有一张{c}，能跑{m}吗，就我自己用", "我的显卡是{c}，想本地跑{m}", "手上有块{c}，跑{m}够不够"]
SMALL = {"rx-6600": "qwen2.5 3b", "rx-6600-xt": "llama 3.2 3b", "rx-6650-xt": "qwen2.5 3b", "rx-6700-xt": "llama 3.1 8b",
         "rx-6750-xt": "qwen2.5 7b", "rx-6800": "mistral nemo 12b", "rx-6800-xt": "qwen2.5 14b", "rx-6900-xt": "llama 3.1 8b",
         "rx-6950-xt": "qwen2.5 7b", "rtx-a2000-12gb": "llama 3.1 8b", "rtx-a4000": "qwen2.5 7b", "rtx-a4500": "qwen2.5 14b",
         "rtx-a5000": "qwen2.5 14b", "rtx-a5500": "llama 3.1 8b", "rtx-2000-ada": "llama 3.1 8b",
         "rtx-4000-sff-ada": "qwen2.5 7b", "rtx-4500-ada": "qwen2.5 14b"}


@pytest.mark.parametrize("card", ADDED)
@pytest.mark.parametrize("template", OWNED_EN + OWNED_ZH)
def test_added_card_read_as_owned(card: str, template: str) -> None:
    u = understand(template.format(c=SPELLINGS[card][0], m=SMALL[card]))
    assert u.updates.get("owned") == [f"1x {card}"], u.updates
    assert not any(key.startswith("note.card_unknown") for key, _v in u.notes)


def _heads(reply: str) -> list[str]:
    return [line for line in reply.splitlines() if line.startswith("## ")]


@pytest.mark.parametrize(("card", "template"), [
    ("rx-6800", OWNED_EN[1]), ("rx-6700-xt", OWNED_ZH[0]), ("rx-6600-xt", OWNED_EN[0]), ("rx-6950-xt", OWNED_ZH[1]),
    ("rtx-a5000", OWNED_EN[3]), ("rtx-a4000", OWNED_ZH[0]), ("rtx-2000-ada", OWNED_EN[2]),
    ("rtx-4500-ada", OWNED_ZH[2]), ("rtx-a2000-12gb", OWNED_EN[0]),
])
def test_plan_is_on_the_owned_card(card: str, template: str) -> None:
    text = template.format(c=SPELLINGS[card][0], m=SMALL[card])
    reply = str(run_conversation([text])[-1].content)
    heads = _heads(reply)
    name = find_gpu(card).name
    zh = template in OWNED_ZH
    assert heads and heads[0].startswith("## 使用你自己的 1 × " if zh else "## Use your 1 × ") and name in heads[0], heads
    assert not any(h.startswith(("## Buy", "## 购买")) for h in heads), heads


def test_review_e1_rx_6800_roleplay() -> None:
    """The review's turn: the RX 6800 runs Mistral Nemo 12B at 8k in q8_0, at about 20-25 tokens/s, no purchase."""
    reply = str(run_conversation(["got an rx 6800 16gb in my gaming pc, can i run mistral nemo 12b for roleplay? "
                                  "want like 8k ctx and decent speed"])[-1].content)
    assert "## Use your 1 × AMD Radeon RX 6800 16GB for serving" in reply
    assert "## Buy" not in reply and "4060 Ti" not in reply and "beyond the" not in reply
    assert "Mistral Nemo 12B, q8_0, 1 user × 8,192 tokens" in reply and "23 tokens/s per user" in reply


def test_review_e7_a5000_known() -> None:
    u = understand("want to serve gemma-3-27b-it on 2x rtx a5000 for our team of 15")
    assert u.updates.get("only") == ["2x rtx-a5000"] and u.updates.get("users") == 15
    assert not any(key.startswith("note.card_unknown") for key, _v in u.notes)
    owned = understand("we have 2x rtx a5000, want to serve gemma-3-27b-it for our team of 15")
    assert owned.updates.get("owned") == ["2x rtx-a5000"], owned.updates


# --- a card no record holds, named with its memory --------------------------------------------------------------

INVENTED = ["zx 9000", "qx-7000", "nx 3300", "ZX9000", "vortex 880"]
UNKNOWN_EN = ["i have a {c} {gb}gb, can it run {m}?", "got a {c} ({gb}gb) in my pc, can i run {m}",
              "my {c} has {gb}gb. is it enough for {m}? just me", "we have 2 {c} {gb}gb cards, can they run {m}"]
UNKNOWN_ZH = ["我有一张{c} {gb}G，能跑{m}吗", "我们有两张{c} {gb}G 显卡，想跑{m}"]


@pytest.mark.parametrize("card", INVENTED)
@pytest.mark.parametrize("template", UNKNOWN_EN + UNKNOWN_ZH)
@pytest.mark.parametrize(("gb", "model"), [(16, "llama 3.1 8b"), (24, "qwen2.5 14b"), (12, "qwen2.5 7b")])
def test_unknown_owned_card_sized_as_said(card: str, template: str, gb: int, model: str) -> None:
    u = understand(template.format(c=card, gb=gb, m=model))
    count = 2 if "2 {c}" in template or "两张" in template else 1
    [owned] = u.updates["owned"]
    figures = assumed_figures(gb)
    assert owned.startswith(f"{count}x custom:memory={gb}GB,bandwidth={figures.bandwidth_gbps:g}GB/s,"), owned
    assert owned.endswith(f"name={card} {gb}GB"), owned
    notes = dict(u.notes)
    assert notes["note.card_unknown_memory"]["gb"] == str(gb)
    assert notes["note.card_unknown_memory"]["bandwidth"] == f"{figures.bandwidth_gbps:g}"


@pytest.mark.parametrize(("text", "heading", "said"), [
    ("i have a zx 9000 16gb, can it run llama 3.1 8b?", "## Use your 1 × zx 9000 16GB",
     "I sized it as a 16 GB card at 576 GB/s"),
    ("got an rx 5995 16gb in my gaming pc, can i run mistral nemo 12b for roleplay? want like 8k ctx",
     "## Use your 1 × rx 5995 16GB", "I sized it as a 16 GB card at 576 GB/s"),
    ("I have a Radeon Pro W7800 (32gb). can it run qwen2.5 14b for coding? just me",
     "## Use your 1 × Radeon Pro W7800 32GB", "beyond the 32 GB you said"),
    ("我有一张zx 9000 24G，能跑qwen2.5 14b吗，就我自己用", "## 使用你自己的 1 × zx 9000 24GB", "只知道你说的 24 GB 显存"),
])
def test_unknown_owned_card_plan_said_as_theirs(text: str, heading: str, said: str) -> None:
    reply = str(run_conversation([text])[-1].content)
    assert heading in reply and said in reply, reply[:600]
    assert "## Buy" not in reply and "## 购买" not in reply


def test_assumed_bandwidth_is_the_median_of_that_memory() -> None:
    sixteen = assumed_figures(16)
    assert sixteen.peer_memory_gb == 16 and sixteen.peers >= 10
    assert sixteen.bandwidth_gbps == 576  # the median of the 16 GB desktop and workstation cards on record
    odd = assumed_figures(22)  # no 22 GB card: the nearer memory, the smaller one on a tie (20 GB and 24 GB)
    assert odd.peer_memory_gb == 20


@pytest.mark.parametrize("text", ["i have a ryzen 7950x 64gb ram, can it run llama 3.1 8b?",
                                  "my server 128gb, can it run qwen2.5 7b",
                                  "i have a zx 9000 with 64gb of ram, can it run llama 3.1 8b?"])
def test_not_a_card(text: str) -> None:
    u = understand(text)
    assert not any("custom:" in o for o in u.updates.get("owned") or []), u.updates
