"""Cards users named that the catalog lacked (issue 23 item 2): Tesla V100 (SXM2/PCIe, 16/32 GB), RTX 4060, RTX 4060 Ti
8GB, RTX 3080 12GB, and the domestic accelerators on record without full figures (Hygon DCU K100 AI, Cambricon
MLU370-X8/MLU590, Kunlunxin P800). Each resolves by its common spellings in both languages, is sized (or refused in
one line), and a card without BF16 says so."""

from __future__ import annotations

import itertools

import pytest
from conversation import run_conversation

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import NotFound, find_gpu, find_unsized_card
from gpu_advisor.tools.inference import InferenceMemoryInput, inference_memory
from gpu_advisor.tools.throughput import SpeedInput, speed
from gpu_advisor.tools.training_time import TrainingTimeInput, training_time

# id -> spellings people type (as a name lookup)
SPELLINGS = {
    "v100-sxm2-32gb": ["V100", "v100", "Tesla V100", "tesla v100", "v100 32g", "V100 32GB", "v100-32gb", "V100 SXM2",
                       "v100 sxm2 32gb", "Tesla V100-SXM2-32GB", "nvidia v100"],
    "v100-sxm2-16gb": ["v100 16g", "V100 16GB", "v100 sxm2 16gb", "Tesla V100-SXM2-16GB", "v100 16gb sxm2"],
    "v100-pcie-32gb": ["v100 pcie", "V100 PCIe 32GB", "Tesla V100-PCIE-32GB", "v100 32g pcie"],
    "v100-pcie-16gb": ["v100 pcie 16gb", "V100 16GB PCIe", "Tesla V100-PCIE-16GB"],
    "rtx-4060": ["4060", "RTX 4060", "rtx4060", "4060 8gb", "GeForce RTX 4060"],
    "rtx-4060-ti-8gb": ["4060 ti 8gb", "4060Ti 8G", "RTX 4060 Ti 8GB", "rtx-4060-ti-8gb"],
    "rtx-3080-12gb": ["3080 12gb", "3080 12G", "RTX 3080 12GB", "rtx-3080-12gb"],
}


@pytest.mark.parametrize(("gpu_id", "spelling"), [(g, s) for g, ss in SPELLINGS.items() for s in ss])
def test_every_spelling_finds_the_card(gpu_id, spelling):
    assert find_gpu(spelling).id == gpu_id


def test_the_siblings_keep_their_names():
    assert find_gpu("4060 ti").id == "rtx-4060-ti-16gb"  # a plain '4060 Ti' is the 16 GB card
    assert find_gpu("3080").id == "rtx-3080"
    assert find_gpu("4060 laptop").id == "rtx-4060-laptop"


# (message, the card read, count, owned?) in both languages, with fillers and orders
READ = [
    ("我们实验室有4张V100 32G，想微调qwen2.5-7b", "v100-sxm2-32gb", 4, True),
    ("我们有两张v100 16g，部署qwen2.5-7b", "v100-sxm2-16gb", 2, True),
    ("用8张Tesla V100部署llama 3 8b", "v100-sxm2-32gb", 8, False),
    ("we have 4 V100 PCIe cards, fine-tune qwen2.5-7b", "v100-pcie-32gb", 4, True),
    ("serve llama 3 8b on 2 tesla v100s", "v100-sxm2-32gb", 2, False),
    ("serve llama 3 8b on a v100 16gb pcie", "v100-pcie-16gb", 1, False),
    ("用一张4060部署llama 3 8b", "rtx-4060", 1, False),
    ("i have an rtx 4060, run llama 3 8b for myself", "rtx-4060", 1, True),
    ("serve llama 3 8b on rtx 4060 ti 8gb", "rtx-4060-ti-8gb", 1, False),
    ("我有一张4060Ti 8G，想跑llama 3 8b", "rtx-4060-ti-8gb", 1, True),
    ("serve llama 3 8b on two 3080 12g", "rtx-3080-12gb", 2, False),
    ("我有一张3080 12G，本地跑llama 3 8b", "rtx-3080-12gb", 1, True),
]


def _cards(u) -> list[str]:
    return list(u.updates.get("owned") or u.updates.get("only") or [])


@pytest.mark.parametrize(("text", "gpu_id", "count", "owned"), READ)
def test_messages_read_the_card_with_its_count(text, gpu_id, count, owned):
    u = understand(text)
    want = f"{count}x {gpu_id}" if count > 1 else gpu_id
    assert _cards(u) in ([want], [f"1x {gpu_id}"]), u.updates
    assert ("owned" in u.updates) is owned
    assert not [n for n, _ in u.notes if n in ("note.card_unknown", "note.card_memory_as_stated")]


# Llama 3 8B at bf16 for one user, 8k context: per-GPU memory and whether it fits, from the tool
@pytest.mark.parametrize(("gpu_id", "fits"), [("v100-sxm2-32gb", True), ("v100-sxm2-16gb", False), ("v100-pcie-32gb", True),
                                            ("v100-pcie-16gb", False), ("rtx-4060", False), ("rtx-4060-ti-8gb", False),
                                            ("rtx-3080-12gb", False)])
def test_llama3_8b_bf16_serving_fits_or_not(gpu_id, fits):
    r = inference_memory(InferenceMemoryInput(model="llama-3-8b", gpu=gpu_id, engine="transformers", context=8192))
    assert r.fits is fits
    assert 16e9 < r.per_gpu_total_bytes < 20e9  # the same model on every card: ~16 GB of weights plus KV
    assert r.gpu_capacity_bytes == pytest.approx(find_gpu(gpu_id).memory_gb * 2**30 * 0.99, rel=1e-3)


@pytest.mark.parametrize(("gpu_id", "bandwidth", "tflops", "arch"), [
    ("v100-sxm2-32gb", 900, 125, "volta"), ("v100-pcie-16gb", 900, 112, "volta"), ("rtx-4060", 272, 30.3, "ada"),
    ("rtx-4060-ti-8gb", 288, 44.2, "ada"), ("rtx-3080-12gb", 912, 61.3, "ampere")])
def test_figures_on_record(gpu_id, bandwidth, tflops, arch):
    g = find_gpu(gpu_id)
    assert (g.memory_bandwidth_gbps, g.bf16_tflops, g.arch) == (bandwidth, tflops, arch)
    assert g.source and str(g.as_of) == "2026-12-04"


@pytest.mark.parametrize("gpu_id", ["v100-sxm2-32gb", "v100-pcie-16gb", "rtx-2080-ti", "t4"])
def test_volta_and_turing_have_no_bf16(gpu_id):
    gpu = find_gpu(gpu_id)
    assert not gpu.native_bf16
    t = training_time(TrainingTimeInput(model="qwen2.5-7b", gpu=gpu_id, gpus=4, method="lora", tokens=20e6))
    assert any("has no BF16 support" in w and "fp16 mixed precision" in w for w in t.warnings)
    s = speed(SpeedInput(model="llama-3-8b", gpu=gpu_id, precision="bf16"))
    assert any("has no BF16 support" in w for w in s.warnings)
    assert not any("BF16" in w for w in speed(SpeedInput(model="llama-3-8b", gpu=gpu_id, precision="int8")).warnings)


@pytest.mark.parametrize("gpu_id", ["rtx-4060", "rtx-3080-12gb", "a100-80gb-sxm"])
def test_cards_with_bf16_say_nothing_of_it(gpu_id):
    assert find_gpu(gpu_id).native_bf16
    t = training_time(TrainingTimeInput(model="qwen2.5-7b", gpu=gpu_id, gpus=1, method="qlora", tokens=20e6))
    assert not any("BF16 support" in w for w in t.warnings)


def test_vllm_does_not_run_on_volta_but_lmdeploy_does():
    from gpu_advisor.knowledge import engines

    v100, by_id = find_gpu("v100"), {e.id: e for e in engines()}
    assert by_id["vllm"].support_on(v100) is None and by_id["sglang"].support_on(v100) is None
    assert by_id["lmdeploy"].support_on(v100) is not None and by_id["vllm"].support_on(find_gpu("t4")) is not None
    assert any("FlashAttention 2 does not run on Volta" in n for n in v100.market_notes)


@pytest.mark.parametrize(("turns", "zh"), [
    (["我们实验室有4张V100 32G，想微调qwen2.5-7b", "LoRA"], True),
    (["我们实验室有4张V100 32G，想用LoRA微调qwen2.5-7b"], True),
    (["our lab has 4 Tesla V100 32GB, we want to LoRA fine-tune qwen2.5-7b"], False),
])
def test_lab_with_v100s_keeps_them_owned_and_hears_bf16_is_unsupported(turns, zh):
    reply = run_conversation(turns)[-1].content
    card = "4 × NVIDIA Tesla V100 SXM2 32GB"
    assert card in reply
    assert ("你自己的 " + card if zh else "your " + card) in reply
    if zh:
        assert "不支持 BF16" in reply and "FP16 混合精度" in reply
    else:
        assert "has no BF16 support" in reply and "fp16 mixed precision" in reply


# Domestic accelerators on record without what sizing needs, or with it
UNSIZED = {
    "hygon-k100-ai": ["海光K100", "海光 K100", "DCU K100", "dcu k100 ai", "K100 AI", "k100-ai", "Hygon K100", "海光DCU K100"],
    "cambricon-mlu370-x8": ["MLU370-X8", "mlu370", "寒武纪MLU370", "Cambricon MLU370-X8", "思元370"],
    "cambricon-mlu590": ["MLU590", "寒武纪MLU590", "cambricon mlu590"],
    "kunlunxin-p800": ["P800", "昆仑芯P800", "Kunlunxin P800", "kunlun p800"],
    "huawei-atlas-300i-duo": ["Atlas 300I Duo", "300I Duo", "300i duo", "华为300I Duo", "atlas 300i-duo"],
}


@pytest.mark.parametrize(("card_id", "spelling"), [(c, s) for c, ss in UNSIZED.items() for s in ss])
def test_domestic_spellings_find_the_record(card_id, spelling):
    assert find_unsized_card(spelling).id == card_id


@pytest.mark.parametrize("card_id", list(UNSIZED))
def test_the_tools_refuse_an_unsized_card_in_one_line(card_id):
    with pytest.raises(NotFound) as e:
        find_gpu(card_id)
    text = str(e.value)
    assert "\n" not in text and find_unsized_card(card_id).name in text and "custom:memory" in text


def test_figures_left_unknown_are_empty_not_guessed():
    k100, p800 = find_unsized_card("k100"), find_unsized_card("p800")
    assert k100.memory_gb == 64 and k100.memory_bandwidth_gbps is None and k100.fp16_tflops is None
    assert k100.missing == ["memory_bandwidth_gbps", "fp16_tflops"] and k100.spec is None
    assert p800.missing == ["memory_gb", "memory_bandwidth_gbps", "fp16_tflops"]
    mlu = find_unsized_card("mlu370-x8")
    assert mlu.spec == "custom:memory=48GB,bandwidth=614.4GB/s,bf16=96,int8=256,power=250W,domestic=yes"  # (made in China)


FILLERS = {"en": ["", "hi, ", "quick question: "], "zh": ["", "你好，", "请问，"]}


@pytest.mark.parametrize(("lang", "filler", "count"), list(itertools.product(["en", "zh"], ["", "x"], [1, 4])))
def test_a_k100_is_said_with_what_is_known_and_waits_for_figures(lang, filler, count):
    fill = FILLERS[lang][1 if filler else 0]
    text = (f"{fill}我们有{count}张海光K100，部署qwen2.5-7b" if lang == "zh"
            else f"{fill}we have {count} hygon k100 ai cards, serve qwen2.5-7b")
    u = understand(text)
    notes = dict(u.notes)
    assert notes["note.card_unsized"]["figures"].startswith("64 GB")
    assert "note.accelerator_unknown" not in notes  # the specific card, not the vendor's name alone
    assert u.unknown_card is not None and u.unknown_card[1] is True and u.unknown_count == count
    assert not (u.updates.get("owned") or u.updates.get("only"))


@pytest.mark.parametrize(("turns", "want"), [
    (["我们有4张海光K100，部署qwen2.5-7b，10个用户", "64G显存，带宽896GB/s"], "4 × 海光 DCU K100 AI"),
    (["we have 2 hygon k100 ai, serve qwen2.5-7b for 10 users", "they have 64GB and 896 GB/s"], "2 × Hygon DCU K100 AI"),
])
def test_the_figures_given_later_size_all_the_cards_said(turns, want):
    assert want in run_conversation(turns)[-1].content


@pytest.mark.parametrize(("text", "count", "owned"), [
    ("serve qwen2.5-14b for 20 users on our 8 MLU370-X8 cards", 8, True),
    ("用4张寒武纪MLU370部署qwen2.5-14b", 4, False),
    ("我们有两张MLU370-X8，部署qwen2.5-7b", 2, True),
])
def test_an_mlu370_is_sized_from_its_sourced_figures(text, count, owned):
    u = understand(text)
    cards = u.updates["owned" if owned else "only"]
    assert len(cards) == 1 and cards[0].startswith(f"{count}x custom:memory=48GB,bandwidth=614.4GB/s")
    assert "name=Cambricon MLU370-X8" in cards[0]
    assert "note.card_figures_only" in dict(u.notes) and "note.accelerator_unknown" not in dict(u.notes)
    assert find_gpu(cards[0].split(" ", 1)[1]).bf16_tflops == 96


def test_mlu370_reply_says_engines_are_not_checked():
    reply = run_conversation(["serve qwen2.5-14b for 20 users on our 8 MLU370-X8 cards"])[-1].content
    assert "8 × Cambricon MLU370-X8" in reply and "engines named here are not checked" in reply
    zh = run_conversation(["我们有8张寒武纪MLU370-X8，部署qwen2.5-14b，20个用户"])[-1].content
    assert "8 × Cambricon MLU370-X8" in zh and "没有针对它核实过" in zh


@pytest.mark.parametrize(("text", "name"), [("用昆仑芯P800跑qwen2.5-7b", "昆仑芯 P800"), ("serve qwen2.5-7b on kunlunxin p800", "Kunlunxin P800"),
                                            ("寒武纪MLU590能跑qwen2.5-7b吗", "寒武纪 MLU590")])
def test_cards_with_no_figures_are_named_not_swapped(text, name):
    u = understand(text)
    note = dict(u.notes)["note.card_unsized"]
    assert note["name"] == name and note["figures"] == "-"
    assert not (u.updates.get("owned") or u.updates.get("only"))


@pytest.mark.parametrize(("text", "zh"), [
    ("GLM-4-9B 用 300I Duo 推理卡行不行，30个人用", True), ("用两张 Atlas 300I Duo 部署 qwen2.5-7b 给 20 人用", True),
    ("can a huawei atlas 300i duo serve glm-4-9b for 30 users?", False),
    ("serve qwen2.5-7b to 20 users on an atlas 300i duo", False)])
def test_an_atlas_300i_duo_is_sized_from_its_figures_not_replaced(text, zh):
    """Review S1 C3: the 300I Duo asked about was silently replaced by a 910B. It is sized from its figures on record
    (96 GB, 408 GB/s) as a described card, and named."""
    reply = run_conversation([text])[-1]
    body = str(reply.content)
    assert ("Atlas 300I Duo" in body) and ("408" in body)
    assert "910B" not in body.split("\n\n", 3)[0]  # the headline is the card asked about
    data = reply.additional_kwargs["gpu_advisor"]
    if data["kind"] == "answer":
        best = data["results"]["recommend"]["best"]
        assert best["gpu"].startswith("custom:") and best["capacity_bytes"] > 90e9
