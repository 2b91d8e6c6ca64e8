"""Cards that are not in the catalog: custom:key=value specs and the user's own gpus.yaml."""

from __future__ import annotations

import pytest

from gpu_advisor.knowledge import BadValue, KnowledgeError, find_gpu, loader, resolve
from gpu_advisor.tools.inference import InferenceMemoryInput, inference_memory


def test_custom_spec_becomes_a_validated_gpu():
    g = find_gpu("custom:memory=96GB,bandwidth=1.8TB/s,bf16=500")
    assert (g.memory_gb, g.memory_bandwidth_gbps, g.bf16_tflops) == (96, 1800, 500)
    assert g.interconnect == "pcie" and g.stack == "cuda"
    assert "user-described" in g.source and g.as_of


def test_custom_spec_units_and_optional_fields():
    g = find_gpu("CUSTOM: mem=80 GiB, bw=3350 GB/s, fp16=989, fp8=1979, tdp=700W, nvlink=900GB/s, vendor=nvidia, "
                 "price=$30000, name=My H100")
    assert g.memory_gb == pytest.approx(80 * 1.073741824)
    assert g.fp8_tflops == 1979 and g.tdp_w == 700 and g.has_nvlink and g.buy_price_usd == 30000
    assert g.name == "My H100"


def test_missing_compute_is_an_assumption_from_the_catalog():
    g = find_gpu("custom:memory=96GB,bandwidth=1.8TB/s")
    assert g.bf16_tflops > 0
    assert any("bf16 not given" in n for n in g.market_notes)


@pytest.mark.parametrize("spec, match", [
    ("custom:memory=0GB,bandwidth=1.8TB/s", "memory must be more than zero"),
    ("custom:memory=96GB", "needs at least memory and bandwidth"),
    ("custom:memory=96GB,bandwidth=fast", "not a number"),
    ("custom:memory=96XB,bandwidth=1TB/s", "unit 'XB'"),
    ("custom:memory=96GB,bandwidth=1TB/s,colour=red", "unknown key 'colour'"),
    ("custom:memory=96GB,bandwidth=1TB/s,vendor=intel", "vendor 'intel'"),
    ("custom:96GB", "not key=value"),
])
def test_bad_custom_specs_are_one_clear_line(spec, match):
    with pytest.raises(BadValue, match=match) as e:
        find_gpu(spec)
    assert "\n" not in str(e.value)


def test_tools_size_on_a_custom_card():
    r = inference_memory(InferenceMemoryInput(model="llama-3-8b", gpu="custom:memory=96GB,bandwidth=1.8TB/s,bf16=500"))
    assert r.fits and r.gpu.startswith("custom:")


def test_a_custom_cards_id_gives_the_same_card_back():
    """Options carry the card's id; looking it up again (ranking, the math) must give the same card."""
    card = find_gpu("custom:memory=96GB,bandwidth=1.8TB/s")
    assert find_gpu(card.id) == card and card.as_of == find_gpu("custom:bandwidth=1.8TB/s,memory=96GB").as_of


@pytest.fixture
def user_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("GPU_ADVISOR_CONFIG_DIR", str(tmp_path))
    for f in (loader.gpus, loader.prices, resolve._gpu_index):
        f.cache_clear()
    yield tmp_path
    monkeypatch.delenv("GPU_ADVISOR_CONFIG_DIR")
    for f in (loader.gpus, loader.prices, resolve._gpu_index):
        f.cache_clear()


USER_GPU = """
- id: my-lab-card
  name: Lab accelerator 48GB
  aliases: [lab card]
  vendor: nvidia
  segment: workstation
  memory_gb: 48
  memory_bandwidth_gbps: 960
  memory_type: gddr
  bf16_tflops: 180
  interconnect: pcie
  tdp_w: 300
  source: our purchase order 2026-10
  as_of: 2026-10-01
"""


def test_user_gpus_file_lives_in_the_config_folder(user_dir):
    assert loader.user_gpus_path() == user_dir / "gpus.yaml"
    assert loader.user_prices_path() == user_dir / "prices.yaml"


def test_user_gpus_are_added_and_found(user_dir):
    (user_dir / "gpus.yaml").write_text(USER_GPU)
    (user_dir / "prices.yaml").write_text(
        "- {provider: our cloud, gpu: my-lab-card, region: global, offering: lab, price_low: 1.0, price_high: 1.2,"
        " source: internal price list, as_of: 2026-10-01}\n")
    assert find_gpu("lab card").id == "my-lab-card"
    assert any(p.gpu == "my-lab-card" for p in loader.prices())
    assert len(loader.gpus()) == len(loader.builtin_gpus()) + 1


def test_user_gpus_are_validated_like_the_built_in_data(user_dir):
    (user_dir / "gpus.yaml").write_text(USER_GPU.replace("memory_gb: 48", "memory_gb: 0"))
    with pytest.raises(KnowledgeError, match=r"gpus.yaml: record 0 \(id 'my-lab-card'\): field 'memory_gb'"):
        loader.gpus()


def test_user_gpus_cannot_shadow_a_catalog_card(user_dir):
    (user_dir / "gpus.yaml").write_text(USER_GPU.replace("id: my-lab-card", "id: h100-sxm"))
    with pytest.raises(KnowledgeError, match="already has a GPU with that id"):
        loader.gpus()
