"""Hardware facts and speeds an expert would sign (review O1 #3/#7/#10/#14/#18, O2 C14, O3 #19): formats per
architecture (native, weight-only, no kernel), the stated network between servers in pipeline plans, the MoE
bytes a decode step reads on a Mac, llama.cpp's CPU offload bounded by system memory, and the Ascend 910C's
dies counted as packages. Calibration facts with their sources: tests/data/physics_review_o.csv."""

from __future__ import annotations

import csv
import itertools
from pathlib import Path

import pytest

from gpu_advisor.assistant.catalog import localise
from gpu_advisor.knowledge import find_gpu, find_precision
from gpu_advisor.knowledge.gguf import file_size
from gpu_advisor.tools import arch
from gpu_advisor.tools.models import resolve_model
from gpu_advisor.tools.offload import OffloadInput, SpillInput, offload, spill
from gpu_advisor.tools.recommend import Workload, serving_precision
from gpu_advisor.tools.throughput import SpeedInput, format_unit_warnings, speed
from tests.conversation import run_conversation

FACTS = {r["id"]: r for r in csv.DictReader((Path(__file__).parent / "data" / "physics_review_o.csv").open(encoding="utf-8"))}
GIB = 2 ** 30


def test_every_calibration_fact_names_its_source_and_date():
    assert FACTS and all(r["source"].startswith("https://") and r["read_on"] for r in FACTS.values())


# ---- formats per architecture ----------------------------------------------------------------------------

VOLTA = ["v100-sxm2-32gb", "v100-sxm2-16gb", "v100-pcie-32gb", "v100-pcie-16gb"]
TURING = ["t4", "rtx-2080-ti"]
AMPERE = ["a100-80gb-sxm", "a800-80gb-sxm", "rtx-3090", "a10", "rtx-a6000"]
FP8_CARDS = ["h100-sxm", "h800-sxm", "l40s", "rtx-4090", "h20"]
MODEL = Workload(phase="serve", model="qwen2.5-7b").model


@pytest.mark.parametrize("gpu_id", VOLTA + TURING + AMPERE + FP8_CARDS)
def test_the_default_serving_format_is_one_the_cards_tensor_cores_compute(gpu_id: str):
    gpu = find_gpu(gpu_id)
    fmt = serving_precision(Workload(phase="serve", model=MODEL), resolve_model(MODEL), gpu)
    if gpu_id in VOLTA:  # no FP8, no INT8 tensor cores, no BF16: FP16 (vLLM's W8A8 needs Turing+, Marlin Ampere+)
        assert fmt == "fp16" and not gpu.native_bf16
    elif gpu_id in FP8_CARDS:
        assert fmt == "fp8" and gpu.fp8_tflops
    else:  # Turing and Ampere: INT8 tensor cores, no FP8
        assert fmt == "int8" and gpu.int8_tops and not gpu.fp8_tflops


@pytest.mark.parametrize(("gpu_id", "fmt"), itertools.product(VOLTA[:1] + TURING[:1] + AMPERE[:2] + FP8_CARDS[:2],
                                                             ["fp8", "w8a8-int8", "int8", "bf16", "awq"]))
def test_each_format_on_each_architecture_is_native_weight_only_or_without_a_kernel(gpu_id: str, fmt: str):
    gpu, precision = find_gpu(gpu_id), find_precision(fmt)
    said = " ".join(format_unit_warnings(precision, gpu))
    if fmt == "fp8" and gpu.fp8_tflops:
        assert said == ""  # native W8A8 on FP8 tensor cores
    elif fmt == "fp8" and gpu.arch == "ampere":
        assert "weight-only" in said and "Marlin" in said  # W8A16: memory saved, not compute
    elif fmt == "fp8":
        assert "no FP8 kernel in vLLM" in said  # Volta, Turing: Marlin needs Ampere
    elif fmt in ("w8a8-int8", "int8") and not gpu.int8_tops:
        assert "no INT8 tensor cores" in said
    else:
        assert said == ""
    for sentence in format_unit_warnings(precision, gpu):  # each said in Chinese too, with no English left
        zh = localise("zh", sentence)
        assert zh != sentence and ("张量核心" in zh)
        assert "weight-only" not in zh and "tensor cores" not in zh


def test_fp8_on_ampere_is_weight_only_in_the_format_record():
    assert find_precision("fp8").weight_only_archs == ["ampere"]
    assert "vllm_marlin_archs" in FACTS and "ampere" in FACTS["vllm_marlin_archs"]["value"]


V100_TURNS = {
    "zh": "服务器有8张V100 16G的老卡，能跑Qwen2.5-7B推理吗？V100不支持bf16吧，要注意什么",
    "en": "our server has 8x V100 16GB, old cards. can it serve qwen2.5 7b for 5 users? the V100 has no bf16 right, what should we watch out for",
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_v100_serves_in_fp16_on_the_16gb_cards_said(lang: str):
    reply = run_conversation([V100_TURNS[lang]])[-1]
    text = reply.content
    assert "V100 SXM2 32GB" not in text  # the bare 'V100' later in the message is the same 16 GB cards
    best = reply.additional_kwargs["gpu_advisor"]["results"]["recommend"]["best"]
    # 15 GB of FP16 weights do not sit on one 16 GB card with a KV cache: tensor parallel over 2 or more of them
    assert best["gpu"] == "v100-sxm2-16gb" and best["precision"] == "fp16" and best["gpus"] >= 2
    v100_rows = [line for line in text.splitlines() if "V100" in line and line.startswith("|")]
    assert v100_rows and not any("int8" in line.lower() for line in v100_rows)  # rented A100s may take int8
    assert "in int8" not in text and "以 int8" not in text
    assert ("FP8 也没有 INT8 张量核心" in text) if lang == "zh" else ("neither FP8 nor INT8 tensor cores" in text)


@pytest.mark.parametrize(("lang", "turn"), [("en", "we own 2 nodes of 8x A800 80GB, serve deepseek v3 in fp8, 100 concurrent"),
                                            ("zh", "我们有2台8卡A800，用fp8部署DeepSeek-V3，100个人同时用")])
def test_fp8_sized_on_ampere_says_weight_only(lang: str, turn: str):
    text = run_conversation([turn])[-1].content
    assert ("FP8 runs weight-only there" in text) if lang == "en" else ("只量化权重（W8A16" in text)


# ---- the stated network between servers ------------------------------------------------------------------

@pytest.mark.parametrize("model", ["deepseek-v3", "llama-3.1-405b"])
def test_pipeline_plans_slow_down_as_the_network_said_gets_slower(model: str):
    runs = [speed(SpeedInput(model=model, precision="fp8", gpu="h800-sxm", gpus=8, pp=2, batch=64, context=8192,
                             engine="vllm", network_gbit_per_s=g)) for g in (400, 200, 100, 25, 10, 1)]
    tps = [r.decode_tokens_per_s for r in runs]
    ttft = [r.time_to_first_token_s for r in runs]
    assert tps == sorted(tps, reverse=True) and tps[0] > tps[-1]
    assert ttft == sorted(ttft) and ttft[-1] > ttft[0]
    assert any("the 10 Gb/s network said" in a for a in runs[4].assumptions)
    default = speed(SpeedInput(model=model, precision="fp8", gpu="h800-sxm", gpus=8, pp=2, batch=64, context=8192,
                               engine="vllm"))
    assert default.decode_tokens_per_s == pytest.approx(runs[0].decode_tokens_per_s)  # 400 Gb/s per GPU assumed


@pytest.mark.parametrize(("turns", "gbit", "lang"), [
    (["we own 2 nodes of 8x A800 80GB, serve deepseek v3 in fp8, 100 concurrent", "nodes are connected with 200Gb roce"], 200, "en"),
    (["我们有2台8卡A800，部署DeepSeek-V3给100个人同时用", "两台机器之间是100G IB"], 100, "zh"),
])
def test_the_network_said_is_the_one_the_layout_uses(turns: list[str], gbit: int, lang: str):
    reply = run_conversation(turns)[-1]
    best = reply.additional_kwargs["gpu_advisor"]["results"]["recommend"]["best"]
    assert best["pp"] == 2 and best["pipeline_network_gbit"] == gbit
    assert (f"the {gbit} Gb/s network you said" in reply.content) if lang == "en" else (f"你说的 {gbit} Gb/s" in reply.content)
    assert "400 Gb/s per GPU assumed" not in reply.content and "约 400 Gb/s" not in reply.content


# ---- Macs and MoE decode bytes ---------------------------------------------------------------------------

def test_deepseek_gguf_tensors_follow_its_shape():
    # q_lora, v_head and the first three dense layers: the Q4_K_M file within 1 % of the published one
    size = file_size(resolve_model("deepseek-r1"), "Q4_K_M").tensor_bytes
    assert size == pytest.approx(float(FACTS["r1_q4_k_m_file"]["value"]) * GIB, rel=0.01)


@pytest.mark.parametrize(("model", "fmt"), [("deepseek-r1", "q4_k_m"), ("deepseek-r1", "iq1_s"), ("qwen3-30b-a3b", "q4_k_m"),
                                            ("qwen3-235b-a22b", "q3_k_m"), ("mixtral-8x7b", "q4_k_m")])
def test_a_moe_token_reads_its_shared_tensors_in_full_and_its_experts_by_share(model: str, fmt: str):
    m, p = resolve_model(model), find_precision(fmt)
    read, routed = arch.moe_bytes_read_per_step(m, p, 1)
    whole = file_size(m, fmt.upper(), imatrix=fmt.startswith("iq")).tensor_bytes
    assert 0 < routed < read < whole
    # more than the file's average bits over the active parameters: the shared tensors carry more bits
    assert read > whole * m.active_params_b / m.total_params_b * 0.95
    batch = arch.moe_bytes_read_per_step(m, p, 64)
    assert batch[0] > read and batch[1] > routed  # a batch touches more experts


MACS = ["apple-m2-ultra-192gb", "apple-m3-ultra-512gb", "apple-m2-max-96gb", "apple-m4-max-128gb", "apple-m3-max-128gb"]


@pytest.mark.parametrize(("gpu_id", "model", "fmt"), [(g, m, f) for g in MACS for m, f in
                                                      [("deepseek-r1", "iq1_s"), ("qwen3-30b-a3b", "q4_k_m"),
                                                       ("llama-3.1-8b", "q4_k_m"), ("llama-3.3-70b", "q4_k_m")]])
def test_a_mac_decodes_no_faster_than_its_bandwidth_over_the_bytes_a_token_reads(gpu_id: str, model: str, fmt: str):
    gpu, m = find_gpu(gpu_id), resolve_model(model)
    fits = file_size(m, fmt.upper(), imatrix=fmt.startswith("iq")).total_bytes < gpu.memory_gb * 1e9 * 0.95
    if not fits:
        pytest.skip("the file does not fit this Mac")
    r = speed(SpeedInput(model=model, precision=fmt, gpu=gpu_id, context=2048, engine="llama.cpp"))
    read = r.terms[0].inputs["weight_bytes_read"] + r.terms[0].inputs["kv_bytes_read"]
    assert r.decode_tokens_per_s < gpu.memory_bandwidth_gbps * 1e9 / read
    lo, hi = r.decode_tokens_per_s_range
    assert lo < r.decode_tokens_per_s < hi


def test_m3_ultra_r1_q4_k_m_matches_the_measured_rate():
    r = speed(SpeedInput(model="deepseek-r1", precision="q4_k_m", gpu="apple-m3-ultra-512gb", context=64, engine="llama.cpp"))
    measured = float(FACTS["r1_q4_k_m_m3_ultra_tg128"]["value"])
    assert r.decode_tokens_per_s == pytest.approx(measured, rel=0.05)
    lo, hi = r.decode_tokens_per_s_range
    assert lo < measured < hi


def test_a_mac_is_no_faster_than_two_h100s_on_the_same_file():
    mac = speed(SpeedInput(model="deepseek-r1", precision="iq1_s", gpu="apple-m2-ultra-192gb", context=2048, engine="llama.cpp"))
    h100 = speed(SpeedInput(model="deepseek-r1", precision="iq1_s", gpu="h100-sxm", gpus=2, context=2048, engine="llama.cpp"))
    assert mac.decode_tokens_per_s < h100.decode_tokens_per_s
    # the January 2025 measurement on 2 x H100 sits in that plan's band (the CUDA build of the time)
    lo, hi = h100.decode_tokens_per_s_range
    assert lo < float(FACTS["r1_ud_iq1_s_2xh100"]["value"]) < hi


# ---- CPU offload -----------------------------------------------------------------------------------------

@pytest.mark.parametrize(("model", "fmt"), [("deepseek-r1-distill-llama-70b", "q4_k_m"), ("llama-3.3-70b", "q4_k_m"),
                                            ("qwen2.5-32b", "q8_0")])
def test_offload_gets_slower_as_more_of_the_model_sits_in_ram(model: str, fmt: str):
    cards = ["rtx-3060-12gb", "rtx-4080", "rtx-4090", "rtx-5090"]  # less card memory: more layers in RAM
    plans = [offload(OffloadInput(model=model, gpu=g, precision=fmt, context=8192, mode="layers")) for g in cards]
    plans = [p for p in plans if p.fits and p.gpu_layers < p.layers]
    assert len(plans) >= 2
    ram_share = [p.ram_gb / (p.ram_gb + p.gpu_gb) for p in plans]
    tps = [p.decode_tokens_per_s for p in plans]
    order = sorted(range(len(plans)), key=lambda i: ram_share[i])
    assert [tps[i] for i in order] == sorted(tps, reverse=True)
    for p in plans:  # bounded by the RAM-side bytes over the fastest system memory in the band
        lo, hi = p.decode_tokens_per_s_range
        ram_read = next(t for t in p.terms if t.key == "decode_tokens_per_s").inputs["ram_read_bytes"]
        assert p.decode_tokens_per_s <= hi < 200e9 / ram_read
        assert lo < p.decode_tokens_per_s


@pytest.mark.parametrize("gpu_id", ["a100-80gb-sxm", "rtx-4090", "l40s"])
def test_spilling_a_larger_share_is_slower(gpu_id: str):
    for through in ("pcie", "ram"):
        s = spill(SpillInput(gpu=gpu_id, weights_bytes=16e9, tpot_s=0.02, through=through, shares=(0.05, 0.1, 0.25, 0.5)))
        tps = [row.tokens_per_s for row in s.rows]
        assert tps == sorted(tps, reverse=True) and all(t < s.all_on_card_tokens_per_s for t in tps)
        for row in s.rows:  # no faster than the spilled bytes over the fastest link in the band allow
            assert row.tokens_per_s_range[1] <= 1 / (row.spilled_bytes / (s.link_gbps[2] * 1e9)) + 1e-9


@pytest.mark.parametrize(("turns", "lang"), [
    (["想在家里用两张 3090 跑 DeepSeek-R1-Distill-Llama-70B，int4 量化，能跑多少 token/s？", "要是换成一张 4090 加 CPU offload 呢"], "zh"),
    (["running deepseek-r1-distill-llama-70b at q4 on my two 3090s, just for me, how many tokens/s?", "what if i switch to one 4090 with cpu offload"], "en"),
])
def test_offload_asked_on_one_named_card_is_sized(turns: list[str], lang: str):
    reply = run_conversation(turns)[-1]
    offload_ = reply.additional_kwargs["gpu_advisor"]["results"]["recommend"]["offload"]
    assert offload_ is not None and offload_["gpu"] == "NVIDIA GeForce RTX 4090 24GB"
    assert 0.5 < offload_["decode_tokens_per_s"] < 5  # 70B Q4_K_M with ~40 % of its layers in RAM
    assert ("-ngl" in reply.content) and (("部分放进内存" in reply.content) if lang == "zh" else ("system RAM" in reply.content))


# ---- Ascend 910C ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("lang", ["en", "zh"])
def test_910c_npus_are_said_as_packages_of_128gb(lang: str):
    turn = {"en": "we must use domestic chips only: deploy deepseek-r1 671b on ascend 910c for 50 users, how many",
            "zh": "领导要求全部国产化，要部署DeepSeek-R1 671B满血版，昇腾910C要多少台"}[lang]
    text = run_conversation([turn])[-1].content
    assert ("packages of 128 GB" in text) if lang == "en" else ("每颗 128 GB" in text)


# ---- a card named again by its bare name ------------------------------------------------------------------

@pytest.mark.parametrize(("text", "card"), [
    (f"{lead}{n}{unit}{name}{tail}", card)
    for (lead, unit, tail), (name, card), n in itertools.product(
        [("服务器有", "张", "的老卡，能跑Qwen2.5-7B推理吗？V100不支持bf16吧"),
         ("我们有", "卡", "，部署qwen2.5 7b。V100 能用 bf16 吗"),
         ("we have ", "x ", ", can it serve qwen2.5 7b? does the V100 do bf16"),
         ("our box: ", " ", " cards. serving llama 3.1 8b. is the v100 too old?")],
        [("V100 16G", "v100-sxm2-16gb"), ("v100 16gb", "v100-sxm2-16gb"), ("V100 PCIe 16GB", "v100-pcie-16gb")],
        [2, 8])
])
def test_a_bare_repeat_in_a_later_sentence_is_the_same_cards(text: str, card: str):
    from gpu_advisor.assistant.reading import understand

    u = understand(text, {})
    cards = u.updates.get("owned") or u.updates.get("only") or []
    assert len(cards) == 1 and cards[0].endswith(card), cards


@pytest.mark.parametrize("text", ["compare v100 16gb and v100", "对比一下 V100 16G 和 V100"])
def test_two_variants_in_one_sentence_stay_two(text: str):
    from gpu_advisor.assistant.reading import understand

    u = understand(text, {})
    assert len(set(u.compare_gpus)) == 2
