"""Catalog validation: every data file loads, ids and aliases are unambiguous, the guide's cards and
model families are present, quantized formats carry their real bit widths, and a malformed file fails
loudly, naming the file, the record and the field."""

from __future__ import annotations

import copy
from collections import defaultdict
from pathlib import Path

import pytest
import yaml

from gpu_advisor.knowledge import (
    Gpu,
    KnowledgeError,
    ModelArch,
    NotFound,
    find_gpu,
    find_model,
    find_precision,
    gpus,
    models,
    precisions,
    prices,
    purchase_usd,
    rules,
)
from gpu_advisor.knowledge.hf_config import count_params, shape_params
from gpu_advisor.knowledge.loader import DATA_DIR, load_models, load_records
from gpu_advisor.knowledge.resolve import normalise


def _raw(name: str) -> list[dict]:
    with (DATA_DIR / name).open(encoding="utf-8") as f:
        return yaml.safe_load(f)


def _lookup_names(record) -> list[str]:
    names = [record.id, record.name, *record.aliases]
    for hf in getattr(record, "hf_ids", []):
        names += [hf, hf.split("/", 1)[-1]]
    return names


CATALOGS = {"gpu": gpus, "model": models, "precision": precisions}
FINDERS = {"gpu": find_gpu, "model": find_model, "precision": find_precision}


# --- every record loads ---------------------------------------------------------------------------

@pytest.mark.parametrize("file_name, loader", [
    ("gpus.yaml", gpus), ("models.yaml", models), ("precisions.yaml", precisions), ("prices.yaml", prices),
])
def test_every_record_in_each_data_file_loads(file_name, loader):
    raw = _raw(file_name)
    loaded = loader()
    assert len(raw) > 0
    assert len(loaded) == len(raw)


def test_catalog_sizes_are_not_trivially_small():
    assert len(gpus()) >= 30
    assert len(models()) >= 50
    assert len(precisions()) >= 18
    assert len(prices()) >= 100


def test_rules_load_with_the_guides_thresholds():
    r = rules()
    assert (r.inference_headroom_low, r.inference_headroom_high) == (0.20, 0.40)
    assert (r.buy_utilisation_low, r.buy_utilisation_high) == (0.60, 0.70)
    assert 0 < r.default_mfu_training < 1
    # every card the capability table and scenarios name is in the GPU catalog
    ids = {g.id for g in gpus()}
    for row in r.capability_table:
        assert set(row.typical_cards) <= ids, row
    for sc in r.scenarios:
        for pick in sc.picks:
            assert pick.split("x", 1)[-1].strip() in ids, (sc.id, pick)


@pytest.mark.parametrize("kind", ["gpu", "model", "precision"])
def test_ids_are_unique(kind):
    ids = [r.id for r in CATALOGS[kind]()]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("kind", ["gpu", "model", "precision"])
def test_no_name_or_alias_belongs_to_two_records(kind):
    owners: dict[str, set[str]] = defaultdict(set)
    for r in CATALOGS[kind]():
        for name in _lookup_names(r):
            owners[name.strip().lower()].add(r.id)
    clashes = {k: v for k, v in owners.items() if len(v) > 1}
    assert clashes == {}


@pytest.mark.parametrize("kind", ["gpu", "model", "precision"])
def test_no_normalised_lookup_key_resolves_to_two_ids(kind):
    """The resolver compares names after normalise(); two records must not share a key there either."""
    owners: dict[str, set[str]] = defaultdict(set)
    for r in CATALOGS[kind]():
        for name in _lookup_names(r):
            key = normalise(name)
            if key:  # keys that normalise to nothing are the subject of the test below
                owners[key].add(r.id)
    clashes = {k: v for k, v in owners.items() if len(v) > 1}
    assert clashes == {}


@pytest.mark.parametrize("kind", ["gpu", "model", "precision"])
def test_every_ascii_name_and_alias_resolves_to_its_own_record(kind):
    find = FINDERS[kind]
    wrong = {}
    for r in CATALOGS[kind]():
        for name in _lookup_names(r):
            if not name.isascii():
                continue
            got = find(name).id
            if got != r.id:
                wrong[name] = (got, r.id)
    # By design a bare "Qwen-72B" reads as "qwen 72b", the newest Qwen 72B; the Qwen-1 checkpoints stay
    # reachable by their ids, aliases and full HF ids (see test_resolve.py).
    # The same holds for "Qwen-72B-Chat": "chat" names today's chat model.
    shadowed = {f"Qwen-{size}{chat}": (new, old) for size, new, old in (
        ("7B", "qwen2.5-7b", "qwen1-7b"), ("14B", "qwen3-14b", "qwen1-14b"), ("72B", "qwen2.5-72b", "qwen1-72b"))
        for chat in ("", "-Chat")}
    assert wrong == (shadowed if kind == "model" else {})


@pytest.mark.parametrize("alias, expected", [("半精度", "bf16"), ("四位", "int4"), ("八位", "int8")])
def test_chinese_precision_aliases_resolve(alias, expected):
    assert find_precision(alias).id == expected


def test_every_price_names_a_catalog_gpu():
    ids = {g.id for g in gpus()}
    assert {p.gpu for p in prices()} <= ids


def test_every_price_is_ordered_and_dated():
    for p in prices():
        assert 0 < p.price_low <= p.price_high, p
        assert p.as_of.year >= 2024, p


# --- the guide's cards ----------------------------------------------------------------------------

@pytest.mark.parametrize("name, gpu_id", [
    ("RTX 4090", "rtx-4090"),
    ("RTX 5090", "rtx-5090"),
    ("L40S", "l40s"),
    ("RTX 6000 Ada", "rtx-6000-ada"),
    ("RTX A6000", "rtx-a6000"),
    ("A100 40GB", "a100-40gb-sxm"),
    ("A100 80GB", "a100-80gb-sxm"),
    ("H100 SXM", "h100-sxm"),
    ("H100 PCIe", "h100-pcie"),
    ("H20", "h20"),
    ("H200", "h200"),
    ("B200", "b200"),
    ("A800", "a800-80gb-sxm"),
    ("H800", "h800-sxm"),
    ("RTX 3090", "rtx-3090"),
    ("L4", "l4"),
    ("L20", "l20"),
    ("A10", "a10"),
    ("MI300X", "mi300x"),
])
def test_every_gpu_the_guide_names_resolves(name, gpu_id):
    assert find_gpu(name).id == gpu_id


@pytest.mark.parametrize("gpu_id, memory_gb", [
    ("rtx-4090", 24), ("rtx-3090", 24), ("rtx-5090", 32), ("l40s", 48), ("rtx-6000-ada", 48),
    ("rtx-a6000", 48), ("a100-40gb-sxm", 40), ("a100-80gb-sxm", 80), ("h100-sxm", 80), ("h20", 96),
    ("h200", 141), ("mi300x", 192),
])
def test_guide_cards_have_their_published_memory(gpu_id, memory_gb):
    assert find_gpu(gpu_id).memory_gb == memory_gb


def test_an_apple_unified_memory_entry_exists():
    apple = [g for g in gpus() if g.vendor == "apple"]
    assert apple
    for g in apple:
        assert g.unified_memory is True
        assert g.interconnect == "unified"
        assert g.memory_type == "lpddr"
    assert not any(g.unified_memory for g in gpus() if g.vendor != "apple")


def test_nvlink_flag_follows_interconnect():
    assert find_gpu("h100-sxm").has_nvlink
    assert not find_gpu("l40s").has_nvlink
    assert not find_gpu("rtx-4090").has_nvlink
    assert find_gpu("mi300x").has_nvlink  # Infinity Fabric counts as a GPU-to-GPU link
    assert find_gpu("ascend-910b").has_nvlink  # so does Huawei's HCCS


# --- purchase units and host machines -------------------------------------------------------------

BOARD_PARTS = {"a100-40gb-sxm", "a100-80gb-sxm", "a800-80gb-sxm", "h100-sxm", "h800-sxm", "h20", "h200",
               "b200", "b300", "mi300x", "mi325x", "mi355x", "gaudi-3", "ascend-910b"}
RACK_PARTS = {"gb200": 72, "ascend-910c": 16, "ascend-310p": 2}  # GB200 is sold as NVL72 racks only; the 910C per NPU: 8 packages = 16; the 310P: 2 per card


def test_board_parts_are_sold_as_eight_gpu_units_and_cards_singly():
    for g in gpus():
        expected = RACK_PARTS.get(g.id, 8 if g.id in BOARD_PARTS else 1)
        assert g.sold_in == expected, g.id


@pytest.mark.parametrize("gpu_id, kind, at_home", [
    ("rtx-4090", "consumer", True),
    ("rtx-3090", "consumer", True),
    ("rtx-a6000", "workstation", True),
    ("rtx-6000-ada", "workstation", True),
    ("apple-m3-max-128gb", "apple", True),
    ("l40s", "datacenter-pcie", False),
    ("h100-pcie", "datacenter-pcie", False),
    ("t4", "datacenter-pcie", False),
    ("h100-sxm", "datacenter-board", False),
    ("mi300x", "datacenter-board", False),
    ("ascend-910b", "datacenter-board", False),
])
def test_host_kind_and_at_home_follow_segment_and_unit(gpu_id, kind, at_home):
    g = find_gpu(gpu_id)
    assert g.host_kind == kind
    assert g.at_home is at_home


def test_rules_price_every_host_kind():
    hosts = rules().host_systems
    assert {k: (h.usd, h.gpus) for k, h in hosts.items()} == {
        "consumer": (1500, 2), "workstation": (6000, 4), "datacenter-pcie": (15000, 8),
        "datacenter-board": (80000, 8), "apple": (0, 1),
    }
    assert all(h.note for h in hosts.values())
    assert {g.host_kind for g in gpus()} <= set(hosts)


@pytest.mark.parametrize("gpu_id, n, usd", [
    ("h100-sxm", 1, 8 * 30_000 + 80_000),        # one module means a whole HGX server
    ("h100-sxm", 8, 8 * 30_000 + 80_000),
    ("h100-sxm", 9, 16 * 30_000 + 2 * 80_000),
    ("rtx-4090", 1, 1599 + 1500),                # a card needs a PC around it
    ("rtx-4090", 2, 2 * 1599 + 1500),
    ("rtx-4090", 3, 3 * 1599 + 2 * 1500),
    ("rtx-a6000", 4, 4 * 4649 + 6000),
    ("l40s", 2, 2 * 8500 + 15_000),
    ("mi300x", 4, 8 * 15_000 + 80_000),
    ("apple-m3-max-128gb", 1, 5000),             # the price already is the whole computer
])
def test_purchase_counts_whole_units_and_hosts(gpu_id, n, usd):
    assert purchase_usd(find_gpu(gpu_id), n) == pytest.approx(usd)


def test_purchase_of_a_card_without_a_price_is_unknown():
    assert purchase_usd(find_gpu("b200"), 8) is None
    assert purchase_usd(find_gpu("ascend-910b"), 8) is None
    with pytest.raises(ValueError):
        purchase_usd(find_gpu("rtx-4090"), 0)


# --- software stacks and the Ascend 910B ----------------------------------------------------------

def test_stack_follows_vendor():
    expected = {"nvidia": "cuda", "amd": "rocm", "apple": "metal", "huawei": "cann", "intel": "gaudi"}
    for g in gpus():
        assert g.stack == expected[g.vendor], g.id
    assert find_gpu("mi300x").stack == "rocm"
    assert find_gpu("m2 ultra").stack == "metal"
    assert find_gpu("h100").stack == "cuda"


def test_stack_that_contradicts_the_vendor_is_rejected(tmp_path, good_gpu):
    path = _write(tmp_path, "stack.yaml", [{**good_gpu, "stack": "rocm"}])
    with pytest.raises(KnowledgeError, match=r"stack 'rocm' does not match vendor 'nvidia'"):
        load_records(path, Gpu)


def test_ascend_910b_record():
    g = find_gpu("ascend-910b")
    assert (g.vendor, g.stack, g.segment, g.interconnect) == ("huawei", "cann", "datacenter", "hccs")
    assert (g.memory_gb, g.memory_bandwidth_gbps, g.bf16_tflops, g.int8_tops) == (64, 1600, 320, 640)
    assert g.fp8_tflops is None
    assert (g.sold_in, g.china_specific, g.export_limited) == (8, True, False)
    notes = " ".join(g.market_notes)
    for word in ("CANN", "vLLM-Ascend", "MindIE", "LLaMA-Factory", "Confirm"):
        assert word in notes


@pytest.mark.parametrize("name", ["Ascend 910B", "910B", "910b", "昇腾910B", "昇腾 910B", "Huawei 910B",
                                  "huawei ascend 910b", "华为昇腾910B"])
def test_ascend_910b_names_resolve(name):
    assert find_gpu(name).id == "ascend-910b"


def test_china_market_cards_are_flagged():
    for gpu_id in ("h20", "a800-80gb-sxm", "h800-sxm"):
        assert find_gpu(gpu_id).china_specific, gpu_id
    assert not find_gpu("h100-sxm").china_specific


# --- model families -------------------------------------------------------------------------------

def _ids(pred) -> list[str]:
    return [m.id for m in models() if pred(m)]


@pytest.mark.parametrize("family, pred", [
    ("Llama 2", lambda m: m.id.startswith("llama-2-")),
    ("Llama 3", lambda m: m.id.startswith("llama-3-")),
    ("Llama 3.1", lambda m: m.id.startswith("llama-3.1-")),
    ("Llama 3.3", lambda m: m.id.startswith("llama-3.3-")),
    ("Qwen2.5", lambda m: m.id.startswith("qwen2.5-")),
    ("Qwen3 dense", lambda m: m.id.startswith("qwen3-") and not m.is_moe),
    ("Qwen3 MoE", lambda m: m.id.startswith("qwen3-") and m.is_moe),
    ("Mistral", lambda m: m.id.startswith("mistral-")),
    ("Mixtral", lambda m: m.id.startswith("mixtral-") and m.is_moe),
    ("Gemma 2", lambda m: m.id.startswith("gemma-2-")),
    ("Gemma 3", lambda m: m.id.startswith("gemma-3-")),
    ("Phi-3", lambda m: m.id.startswith("phi-3-")),
    ("Phi-4", lambda m: m.id.startswith("phi-4")),
    ("DeepSeek-V3", lambda m: m.id == "deepseek-v3"),
    ("DeepSeek-R1", lambda m: m.id == "deepseek-r1"),
    ("gpt-oss", lambda m: m.id.startswith("gpt-oss-") and m.is_moe),
])
def test_model_family_is_in_the_catalog(family, pred):
    assert _ids(pred), family


def test_catalog_covers_mla_moe_and_sliding_window_layouts():
    assert "deepseek-v3" in _ids(lambda m: m.attention == "mla")
    assert {"mixtral-8x7b", "qwen3-30b-a3b", "deepseek-v3"} <= set(_ids(lambda m: m.is_moe))
    assert "mistral-7b-v0.1" in _ids(lambda m: m.attention == "sliding")
    assert {"gemma-2-9b", "gpt-oss-20b"} <= set(_ids(lambda m: m.attention == "hybrid"))


def test_mla_models_carry_latent_widths():
    ds = find_model("deepseek-v3")
    assert (ds.kv_lora_rank, ds.qk_rope_head_dim) == (512, 64)
    assert (ds.total_params_b, ds.active_params_b) == (671.0, 37.0)
    assert (ds.num_experts, ds.experts_per_token) == (256, 8)


@pytest.mark.parametrize("model", models(), ids=lambda m: m.id)
def test_published_parameter_count_matches_the_architecture(model: ModelArch):
    """Embeddings + attention (MLA's compressed projections included) + gated MLP from the layout (an
    MoE's routed and shared experts, its dense layers), plus the vision tower of a vision-language
    model, land within 2% of the published total: a typo in a width, a layer count or the vision size
    would show here."""
    total, _ = shape_params(model)
    # the towers beside the language model: a vision tower, and an audio encoder (Gemma 3n) since session 19
    assert total / 1e9 + model.vision_params_b + model.audio_params_b == pytest.approx(model.total_params_b, rel=0.02)


def test_shape_params_is_count_params_of_the_same_fields():
    ds = find_model("deepseek-v3")
    total, active = count_params(
        hidden=7168, layers=61, heads=128, kv_heads=128, head_dim=192, intermediate=2048, vocab=129280, tied=False,
        experts=256, experts_per_token=8, shared_experts=1, shared_intermediate=2048, dense_layers=3,
        dense_intermediate=18432, mla={"kv_lora_rank": 512, "qk_rope_head_dim": 64, "v_head_dim": 128, "q_lora_rank": 1536},
    )
    assert shape_params(ds) == (total, active)
    assert round(total / 1e9, 1) == 671.0


# --- vision-language models and native checkpoint formats -----------------------------------------

@pytest.mark.parametrize("model_id, vision_b, image_tokens, total_b", [
    ("qwen2.5-vl-7b", 0.68, 1369, 8.29),
    ("qwen2.5-vl-72b", 0.70, 1369, 73.4),
    ("gemma-3-4b", 0.42, 256, 4.3),
    ("gemma-3-12b", 0.42, 256, 12.2),
    ("gemma-3-27b", 0.42, 256, 27.4),
    ("mistral-small-3.1-24b", 0.44, 1406, 24.0),
])
def test_vision_language_models_count_their_vision_tower(model_id, vision_b, image_tokens, total_b):
    m = find_model(model_id)
    assert m.modality == "vision-language"
    assert (m.vision_params_b, m.image_tokens, m.total_params_b) == (vision_b, image_tokens, total_b)


def test_every_vision_language_model_has_a_vision_size_and_text_models_none():
    for m in models():
        if m.modality == "vision-language":
            assert 0 < m.vision_params_b < m.total_params_b, m.id
            assert m.image_tokens, m.id
        else:
            assert (m.vision_params_b, m.image_tokens) == (0, None), m.id


def test_qwen25_vl_layouts_are_the_qwen25_language_models():
    for size in ("7b", "72b"):
        vl, text = find_model(f"qwen2.5-vl-{size}"), find_model(f"qwen2.5-{size}")
        fields = ("num_layers", "hidden_size", "intermediate_size", "num_attention_heads", "num_kv_heads",
                  "head_dim", "vocab_size", "tied_embeddings", "attention")
        assert [getattr(vl, f) for f in fields] == [getattr(text, f) for f in fields]
        assert vl.max_context == 128_000
        assert vl.hf_ids == [f"Qwen/Qwen2.5-VL-{size.upper()}-Instruct"]


@pytest.mark.parametrize("model_id, native", [
    ("gpt-oss-20b", "mxfp4"), ("gpt-oss-120b", "mxfp4"), ("deepseek-v3", "fp8"), ("deepseek-r1", "fp8"),
    ("llama-3.3-70b", None), ("qwen2.5-72b", None),
])
def test_native_checkpoint_precision(model_id, native):
    assert find_model(model_id).native_precision == native


def test_every_native_precision_is_a_known_precision():
    ids = {p.id for p in precisions()}
    assert {m.native_precision for m in models()} - {None} <= ids


def test_unknown_native_precision_names_file_record_and_field(tmp_path):
    record = _raw("models.yaml")[0]
    record = {**record, "as_of": str(record["as_of"]), "id": "typo-model", "native_precision": "mxfp5"}
    path = _write(tmp_path, "models_native.yaml", [record])
    with pytest.raises(KnowledgeError, match=r"models_native\.yaml: record 0 \(id 'typo-model'\): field "
                                             r"'native_precision': unknown precision id 'mxfp5'"):
        load_models(path)


def test_text_model_with_a_vision_tower_is_rejected(tmp_path):
    record = _raw("models.yaml")[0]
    record = {**record, "as_of": str(record["as_of"]), "id": "blind", "vision_params_b": 0.4}
    path = _write(tmp_path, "models_vision.yaml", [record])
    with pytest.raises(KnowledgeError, match=r"text-only model has no vision tower"):
        load_records(path, ModelArch)


def test_sliding_layers_never_exceed_layers_and_have_a_window():
    for m in models():
        assert m.sliding_layers <= m.num_layers
        if m.sliding_layers:
            assert m.sliding_window is not None and m.sliding_window > 0, m.id
            assert m.attention in ("sliding", "hybrid"), m.id


# --- precisions -----------------------------------------------------------------------------------

def test_gguf_k_quants_are_not_flat_bit_widths():
    assert find_precision("q4_k_m").bits_per_weight > 4.5
    assert find_precision("q4_0").bits_per_weight == pytest.approx(4.5, abs=0.1)  # 4 bits + one f16 scale per 32
    assert find_precision("q8_0").bits_per_weight == pytest.approx(8.5)
    for p in precisions():
        if p.family == "gguf" and "_k" in p.id:
            assert p.bits_per_weight != int(p.bits_per_weight), p.id


def test_gguf_formats_order_by_bits():
    order = ["q2_k", "q3_k_m", "q4_0", "q4_k_m", "q5_k_m", "q6_k", "q8_0", "f16"]
    bits = [find_precision(p).bits_per_weight for p in order]
    assert bits == sorted(bits)
    assert len(set(bits)) == len(bits)


@pytest.mark.parametrize("pid", ["gptq-int4", "awq", "nf4"])
def test_group_quantized_4bit_formats_carry_their_scales(pid):
    p = find_precision(pid)
    assert 4.0 < p.bits_per_weight < 4.5
    assert p.quantizes_embeddings is False  # embeddings and head stay at 16 bits


def test_gptq_int8_carries_group_scales():
    assert 8.0 < find_precision("gptq-int8").bits_per_weight < 8.5


def test_only_flat_int4_is_exactly_four_bits():
    assert [p.id for p in precisions() if p.bits_per_weight == 4.0] == ["int4"]


def test_mxfp4_is_four_bits_plus_a_shared_scale_per_32():
    p = find_precision("mxfp4")
    assert p.bits_per_weight == 4 + 8 / 32 == 4.25
    assert (p.family, p.quantizes_embeddings, p.compute, p.usable_for_kv) == ("mx", False, "bf16", False)
    assert set(p.engines) == {"vllm", "transformers", "llama.cpp"}
    assert find_precision("MXFP4").id == "mxfp4"


def test_kv_formats_name_their_kv_bits():
    for p in precisions():
        if p.usable_for_kv:
            assert p.kv_bits is not None and p.kv_bits > 0, p.id
    assert find_precision("fp8").kv_bits == 8
    assert find_precision("bf16").kv_bits == 16


# --- a malformed file fails loudly ----------------------------------------------------------------

@pytest.fixture
def good_gpu() -> dict:
    record = copy.deepcopy(_raw("gpus.yaml")[0])
    record["as_of"] = str(record["as_of"])
    return record


def _write(tmp_path: Path, name: str, records) -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(records, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def test_two_valid_records_load(tmp_path, good_gpu):
    second = {**good_gpu, "id": "second-gpu", "aliases": []}
    loaded = load_records(_write(tmp_path, "ok.yaml", [good_gpu, second]), Gpu)
    assert [g.id for g in loaded] == [good_gpu["id"], "second-gpu"]


def test_wrong_field_type_names_file_record_id_and_field(tmp_path, good_gpu):
    bad = {**good_gpu, "id": "broken-gpu", "memory_gb": "lots"}
    path = _write(tmp_path, "bad_gpus.yaml", [good_gpu, bad])
    with pytest.raises(KnowledgeError) as e:
        load_records(path, Gpu)
    msg = str(e.value)
    assert "bad_gpus.yaml" in msg
    assert "record 1" in msg
    assert "broken-gpu" in msg
    assert "memory_gb" in msg


def test_missing_field_names_file_record_id_and_field(tmp_path, good_gpu):
    bad = {k: v for k, v in good_gpu.items() if k != "memory_bandwidth_gbps"}
    bad["id"] = "no-bandwidth"
    path = _write(tmp_path, "missing_field.yaml", [good_gpu, bad])
    with pytest.raises(KnowledgeError) as e:
        load_records(path, Gpu)
    msg = str(e.value)
    assert "missing_field.yaml" in msg
    assert "record 1" in msg
    assert "no-bandwidth" in msg
    assert "memory_bandwidth_gbps" in msg


def test_unknown_field_is_rejected_by_name(tmp_path, good_gpu):
    bad = {**good_gpu, "id": "typo-gpu", "memroy_gb": 24}
    path = _write(tmp_path, "extra_field.yaml", [good_gpu, bad])
    with pytest.raises(KnowledgeError) as e:
        load_records(path, Gpu)
    assert "record 1" in str(e.value) and "memroy_gb" in str(e.value)


def test_out_of_range_value_is_rejected(tmp_path, good_gpu):
    bad = {**good_gpu, "id": "zero-memory", "memory_gb": 0}
    path = _write(tmp_path, "zero.yaml", [good_gpu, bad])
    with pytest.raises(KnowledgeError, match=r"zero\.yaml: record 1 \(id 'zero-memory'\): field 'memory_gb'"):
        load_records(path, Gpu)


def test_duplicate_id_names_file_both_records_and_id(tmp_path, good_gpu):
    path = _write(tmp_path, "dup.yaml", [good_gpu, copy.deepcopy(good_gpu)])
    with pytest.raises(KnowledgeError) as e:
        load_records(path, Gpu)
    msg = str(e.value)
    assert "dup.yaml" in msg
    assert "record 1" in msg
    assert good_gpu["id"] in msg
    assert "duplicate id" in msg
    assert "record 0" in msg


def test_invalid_yaml_names_the_file(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text("- id: x\n  name: [unclosed\n", encoding="utf-8")
    with pytest.raises(KnowledgeError, match=r"broken\.yaml: not valid YAML"):
        load_records(path, Gpu)


def test_top_level_mapping_instead_of_list_is_rejected(tmp_path, good_gpu):
    path = _write(tmp_path, "mapping.yaml", good_gpu)
    with pytest.raises(KnowledgeError, match=r"mapping\.yaml: expected a list of records, got dict"):
        load_records(path, Gpu)


def test_non_mapping_record_is_rejected(tmp_path, good_gpu):
    path = _write(tmp_path, "scalar.yaml", [good_gpu, "just a string"])
    with pytest.raises(KnowledgeError, match=r"scalar\.yaml: record 1: expected a mapping, got str"):
        load_records(path, Gpu)


def test_missing_file_names_the_file(tmp_path):
    with pytest.raises(KnowledgeError, match=r"absent\.yaml: data file is missing"):
        load_records(tmp_path / "absent.yaml", Gpu)


def test_inconsistent_model_record_is_rejected(tmp_path):
    record = _raw("models.yaml")[0]
    record = {**record, "as_of": str(record["as_of"]), "id": "inverted", "active_params_b": record["total_params_b"] * 2}
    path = _write(tmp_path, "models_bad.yaml", [record])
    with pytest.raises(KnowledgeError, match=r"record 0 \(id 'inverted'\).*active_params_b exceeds total_params_b"):
        load_records(path, ModelArch)


def test_unknown_name_is_not_silently_matched():
    with pytest.raises(NotFound):
        find_gpu("voodoo 5")


# --- the parsed-file cache ------------------------------------------------------------------------

def test_cached_copy_loads_the_same_records(tmp_path, monkeypatch, good_gpu):
    cache = tmp_path / "cache"
    monkeypatch.setenv("GPU_ADVISOR_CACHE_DIR", str(cache))
    path = _write(tmp_path, "cached.yaml", [good_gpu])
    first = load_records(path, Gpu)
    written = list(cache.glob("cached-*.json"))
    assert len(written) == 1
    second = load_records(path, Gpu)  # now read from the JSON copy
    assert second == first
    assert second[0].as_of == first[0].as_of  # dates survive the JSON round trip as dates


def test_edited_file_is_not_served_from_a_stale_cache(tmp_path, monkeypatch, good_gpu):
    monkeypatch.setenv("GPU_ADVISOR_CACHE_DIR", str(tmp_path / "cache"))
    path = _write(tmp_path, "edited.yaml", [good_gpu])
    assert load_records(path, Gpu)[0].memory_gb == good_gpu["memory_gb"]
    _write(tmp_path, "edited.yaml", [{**good_gpu, "memory_gb": 999}])
    assert load_records(path, Gpu)[0].memory_gb == 999


def test_corrupt_cache_file_is_ignored(tmp_path, monkeypatch, good_gpu):
    cache = tmp_path / "cache"
    monkeypatch.setenv("GPU_ADVISOR_CACHE_DIR", str(cache))
    path = _write(tmp_path, "corrupt.yaml", [good_gpu])
    load_records(path, Gpu)
    (cached,) = cache.glob("corrupt-*.json")
    cached.write_text("{ truncated", encoding="utf-8")
    assert [g.id for g in load_records(path, Gpu)] == [good_gpu["id"]]


def test_malformed_record_fails_the_same_way_when_cached(tmp_path, monkeypatch, good_gpu):
    monkeypatch.setenv("GPU_ADVISOR_CACHE_DIR", str(tmp_path / "cache"))
    path = _write(tmp_path, "bad_twice.yaml", [good_gpu, {**good_gpu, "id": "broken-gpu", "memory_gb": "lots"}])
    messages = []
    for _ in range(2):
        with pytest.raises(KnowledgeError) as e:
            load_records(path, Gpu)
        messages.append(str(e.value))
    assert messages[0] == messages[1]
    assert "bad_twice.yaml: record 1 (id 'broken-gpu'): field 'memory_gb'" in messages[0]
