"""GGUF file sizes computed tensor by tensor, against published files (tests/reference/gguf_sizes.csv)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from gpu_advisor.knowledge import find_model, find_precision, load_config_file
from gpu_advisor.knowledge.gguf import FILE_TYPES, assign_types, file_size, normalise_file_type
from gpu_advisor.knowledge.loader import DATA_DIR
from gpu_advisor.tools import arch

REFERENCE = Path(__file__).parent / "reference" / "gguf_sizes.csv"
MODELS = {
    "Meta-Llama-3-8B-Instruct": lambda: find_model("llama-3-8b"),
    "Meta-Llama-3.1-8B-Instruct": lambda: find_model("llama-3.1-8b"),
    "Qwen2.5-7B": lambda: find_model("qwen2.5-7b"),
    "Qwen2.5-72B-Instruct": lambda: find_model("qwen2.5-72b"),
    "granite-3.0-8b-instruct": lambda: load_config_file(DATA_DIR / "configs" / "ibm-granite__granite-3.1-8b-instruct.json"),
}
ROWS = list(csv.DictReader(REFERENCE.open(encoding="utf-8")))


def _tolerance(row) -> float:
    """Relative tolerance: half a unit of the last printed digit, plus 0.3 % (metadata estimate)."""
    if row["unit_precision"] == "exact bytes":
        return 0.001
    digits = row["size_as_printed"].split()[0]
    last = 10 ** -len(digits.split(".")[1]) if "." in digits else 1
    return last / 2 / float(digits) + 0.003


@pytest.mark.parametrize("row", ROWS, ids=[f"{r['model']}-{r['file_type']}" for r in ROWS])
def test_computed_size_matches_the_published_file(row):
    m = MODELS[row["model"]]()
    size = file_size(m, row["file_type"], imatrix=row["imatrix"] == "yes")
    published = float(row["size_bytes"])
    assert size.total_bytes == pytest.approx(published, rel=_tolerance(row))


def test_three_architectures_are_checked():
    assert len({r["architecture"].split()[0] for r in ROWS}) >= 3


def test_every_llama_cpp_file_type_is_known_and_a_catalog_precision():
    m = find_model("llama-3-8b")
    for ft in FILE_TYPES:
        if ft in ("F32", "MXFP4_MOE"):
            continue
        pid = "gguf-bf16" if ft == "BF16" else ft.lower()
        p = find_precision(pid)
        assert arch.gguf_file_type(p) == ft
        assert 1.5 < file_size(m, ft).bits_per_weight < 16.1


def test_mixes_follow_llama_cpp_rules_for_llama_3_8b():
    m = find_model("llama-3-8b")
    types = {t.name: ty for t, ty in assign_types(m, "Q4_K_M")}
    assert types["output.weight"] == "Q6_K" and types["token_embd.weight"] == "Q4_K"
    assert types["blk.0.attn_v.weight"] == "Q6_K" and types["blk.5.attn_v.weight"] == "Q4_K"  # use_more_bits
    assert types["blk.0.ffn_down.weight"] == "Q6_K" and types["blk.0.attn_norm.weight"] == "F32"
    q2 = {t.name: ty for t, ty in assign_types(m, "Q2_K")}
    assert q2["blk.3.attn_v.weight"] == "Q4_K"  # GQA 4: attention V gets 4 bits
    assert q2["blk.3.ffn_down.weight"] == "Q3_K" and q2["blk.3.attn_output.weight"] == "Q3_K"


def test_rows_that_do_not_fit_a_block_fall_back():
    m = find_model("qwen2.5-72b")  # MLP width 29568 is not a multiple of 256
    types = {t.name: ty for t, ty in assign_types(m, "Q4_K_M")}
    assert types["blk.10.ffn_down.weight"] in ("Q5_0", "Q8_0")
    assert types["blk.10.attn_v.weight"] == "Q5_K"  # 80 x 8192: llama.cpp's 70B class bumps attention V


def test_llama_3_70b_q2_k_is_no_longer_12_percent_high():
    m = find_model("llama-3-70b")
    exact = file_size(m, "Q2_K").tensor_bytes
    old = m.total_params_b * 1e9 * 3.35 / 8  # the one figure per format from a 7B table
    assert old / exact > 1.1
    assert arch.weight_bytes(m, find_precision("q2_k")) == pytest.approx(exact)


def test_moe_experts_are_stacked_and_the_router_stays_f32():
    m = find_model("qwen3-30b-a3b")
    types = {t.name: ty for t, ty in assign_types(m, "Q4_K_M")}
    assert types["blk.0.ffn_gate_inp.weight"] == "F32"
    assert types["blk.0.ffn_up_exps.weight"] == "Q4_K"
    size = file_size(m, "Q4_K_M")
    assert size.parameters == pytest.approx(m.total_params_b * 1e9, rel=0.01)


def test_file_type_names_are_read_loosely():
    assert normalise_file_type("q4-k-m") == "Q4_K_M"
    assert normalise_file_type("gguf_q8_0") == "Q8_0"
    with pytest.raises(KeyError):
        normalise_file_type("Q7_K")


def test_a_model_known_by_size_alone_uses_the_average_bits():
    m = find_model("27B")
    p = find_precision("q4_k_s")
    assert arch.weight_bytes(m, p) == pytest.approx(27e9 * p.bits_per_weight / 8)
