"""Issue 8, Macs by chip, GPU cores and memory: every M1-M4 configuration Apple sold is sized with its own
bandwidth and compute (an M3 Max with 36 GB is the 30-core, 300 GB/s chip), the ids round-trip, a catalog
configuration is the catalog record, and one Apple never sold gets one clear line."""

from __future__ import annotations

import pytest

from gpu_advisor.knowledge import BadValue, find_gpu
from gpu_advisor.knowledge.apple import parse_apple
from gpu_advisor.knowledge.loader import apple_chips


@pytest.mark.parametrize(("text", "gpu_id", "bandwidth", "tflops"), [
    ("M3 Max 30-core 36GB", "apple-m3-max-30c-36gb", 300, 10.65),
    ("m3 max 36gb", "apple-m3-max-30c-36gb", 300, 10.65),            # only the 30-core came with 36 GB
    ("M3 Max 16-core CPU 40-core GPU 64GB", "apple-m3-max-40c-64gb", 400, 14.2),
    ("M4 Max 36GB", "apple-m4-max-32c-36gb", 410, 14.72),
    ("MacBook Air M3 16GB", "apple-m3-10c-16gb", 100, 3.55),
    ("M4 16GB", "apple-m4-10c-16gb", 120, 4.6),
    ("M1 Max 32GB", "apple-m1-max-32c-32gb", 400, 10.4),
    ("Mac Studio M3 Ultra 256GB", "apple-m3-ultra-80c-256gb", 819, 28.4),
    ("M4 Pro 24GB", "apple-m4-pro-20c-24gb", 273, 9.2),
])
def test_a_mac_by_chip_cores_and_memory(text, gpu_id, bandwidth, tflops):
    g = find_gpu(text)
    assert (g.id, g.memory_bandwidth_gbps, g.bf16_tflops) == (gpu_id, bandwidth, tflops)
    assert g.stack == "metal" and g.unified_memory and g.segment == "apple"
    again = find_gpu(g.id)  # the id names the same configuration
    assert (again.id, again.name, again.memory_bandwidth_gbps, again.bf16_tflops) == (g.id, g.name, bandwidth, tflops)


def test_a_configuration_the_catalog_has_is_the_catalog_record():
    assert find_gpu("M3 Max 40-core 128GB").id == "apple-m3-max-128gb"
    assert find_gpu("m2 max 96gb").buy_price_usd == 4500


def test_the_chip_table_covers_m1_to_m4_with_pro_max_and_ultra():
    ids = {c.id for c in apple_chips()}
    assert {f"m{g}{t}" for g in "1234" for t in ("", "-pro", "-max")} | {"m1-ultra", "m2-ultra", "m3-ultra"} == ids
    assert max(m for v in next(c for c in apple_chips() if c.id == "m3-ultra").variants for m in v.memory_gb) == 512


@pytest.mark.parametrize(("text", "message"), [
    ("M4 Max 32GB", "Apple sold the M4 Max with 36, 48, 64 or 128 GB, not 32 GB"),
    ("M2 Max 12-core", "Apple sold the M2 Max with a 30 or 38-core GPU, not 12"),
])
def test_a_configuration_apple_never_sold_is_one_clear_line(text, message):
    with pytest.raises(BadValue) as e:
        find_gpu(text)
    assert str(e.value) == message


def test_text_without_an_apple_chip_is_not_a_mac():
    assert parse_apple("mi300x") is None
    assert parse_apple("m2 ssd") is None or parse_apple("m2 ssd").vendor == "apple"  # a bare chip name only
    assert parse_apple("M5 32GB") is None
