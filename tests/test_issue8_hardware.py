"""Issue 8, Hardware: every accelerator the issue names resolves by the name people type and is listed by
`gpu-advisor gpus`; the new records keep their sources, dates and dense figures, Gaudi's software stack has
an entry wherever the other non-CUDA stacks do, and no new card joins the default candidate lists."""

from __future__ import annotations

import json
from typing import get_args

import pytest

from gpu_advisor.knowledge import find_gpu, gpus
from gpu_advisor.knowledge.schema import Stack
from gpu_advisor.tools.recommend import BUYING_EXTRA, CANDIDATES, STACK_PENALTY, STACK_PENALTY_TRAINING
from gpu_advisor.tools.training_time import STACK_TRAINING_EFFICIENCY
from gpu_advisor.tui.cli import main

# (what a person types, the catalog id it must reach): every GPU the issue's Hardware section names, and
# the aliases asked for alongside them.
ISSUE_GPUS = [
    ("RTX PRO 6000 Blackwell", "rtx-pro-6000-blackwell"),
    ("B300", "b300"),
    ("b300", "b300"),
    ("GB200", "gb200"),
    ("gb200", "gb200"),
    ("H200 NVL", "h200-nvl"),
    ("h200 nvl", "h200-nvl"),
    ("MI325X", "mi325x"),
    ("MI355X", "mi355x"),
    ("mi355x", "mi355x"),
    ("Gaudi 3", "gaudi-3"),
    ("gaudi3", "gaudi-3"),
    ("Ascend 910B", "ascend-910b"),
    ("Ascend 910C", "ascend-910c"),
    ("910c", "ascend-910c"),
    ("昇腾910C", "ascend-910c"),
    ("RTX 3090 Ti", "rtx-3090-ti"),
    ("4060 Ti 16GB", "rtx-4060-ti-16gb"),
    ("5070 Ti", "rtx-5070-ti"),
    ("rtx 5070 ti", "rtx-5070-ti"),
    ("5080", "rtx-5080"),
    ("DGX Spark", "dgx-spark"),
    ("GB10", "dgx-spark"),
    ("Ryzen AI Max+ 395", "ryzen-ai-max-395"),
    ("strix halo", "ryzen-ai-max-395"),
    ("M1 Pro", "apple-m1-pro-32gb"),
    ("M1 Max", "apple-m1-max-64gb"),
    ("M1 Ultra", "apple-m1-ultra-128gb"),
    ("M2 Pro", "apple-m2-pro-32gb"),
    ("M2 Max", "apple-m2-max-96gb"),
    ("M2 Ultra", "apple-m2-ultra-192gb"),
    ("mac studio m2 ultra", "apple-m2-ultra-192gb"),
    ("M3 Pro", "apple-m3-pro-36gb"),
    ("M3 Max", "apple-m3-max-128gb"),
    ("M3 Ultra", "apple-m3-ultra-512gb"),
    ("m3 ultra 512gb", "apple-m3-ultra-512gb"),
    ("M4 Pro", "apple-m4-pro-64gb"),
    ("M4 Max", "apple-m4-max-128gb"),
    ("macbook pro m4 max 128gb", "apple-m4-max-128gb"),
]
ISSUE_IDS = sorted({gpu_id for _, gpu_id in ISSUE_GPUS})
# Records this issue added (the earlier ones: RTX 3090 Ti, RTX PRO 6000, DGX Spark, 4060 Ti 16GB).
NEW_IDS = ["b300", "gb200", "h200-nvl", "mi325x", "mi355x", "gaudi-3", "ascend-910c", "rtx-5070-ti", "rtx-5080",
           "ryzen-ai-max-395", "apple-m1-pro-32gb", "apple-m1-max-64gb", "apple-m1-ultra-128gb",
           "apple-m2-pro-32gb", "apple-m2-max-96gb", "apple-m3-pro-36gb", "apple-m3-ultra-512gb",
           "apple-m4-pro-64gb", "rtx-3090-ti", "rtx-pro-6000-blackwell", "dgx-spark", "rtx-4060-ti-16gb"]


@pytest.fixture
def no_user_cards(tmp_path, monkeypatch):
    """Only the built-in catalog: no gpus.yaml from the developer's own config folder."""
    monkeypatch.setenv("GPU_ADVISOR_CONFIG_DIR", str(tmp_path / "config"))


@pytest.mark.parametrize("typed, gpu_id", ISSUE_GPUS)
def test_every_gpu_the_issue_names_resolves_by_what_people_type(typed, gpu_id):
    assert find_gpu(typed).id == gpu_id


def test_every_gpu_the_issue_names_is_listed_by_gpu_advisor_gpus(no_user_cards, capsys):
    assert main(["gpus", "--json"]) in (0, None)
    listed = {g["id"] for g in json.loads(capsys.readouterr().out)}
    assert set(ISSUE_IDS) <= listed
    assert main(["gpus"]) in (0, None)
    table = capsys.readouterr().out
    missing = [gpu_id for gpu_id in ISSUE_IDS if gpu_id not in table]
    assert missing == []


@pytest.mark.parametrize("gpu_id", NEW_IDS)
def test_new_records_are_sourced_dated_and_say_where_the_price_comes_from(gpu_id):
    g = find_gpu(gpu_id)
    assert g.source.startswith("http") and g.as_of.year >= 2026
    # a price or its absence is explained in a note: the buy price is dated and sourced or left empty on purpose
    assert any("buy_price_usd" in note for note in g.market_notes), gpu_id
    if g.fp8_tflops:
        assert g.fp8_tflops >= g.bf16_tflops  # dense FP8 is never below dense BF16
    if g.vendor == "apple":
        assert g.unified_memory and g.stack == "metal" and g.interconnect == "unified"
        assert any("llama.cpp" in note and "MLX" in note for note in g.market_notes), gpu_id


def test_dense_figures_are_not_the_sparse_headline():
    # NVIDIA prints GB200 at 5 PFLOPS BF16 and 10 PFLOPS FP8 with sparsity, B300's HGX board at 36 / 72 for
    # eight GPUs; the catalog keeps the dense halves.
    assert (find_gpu("gb200").bf16_tflops, find_gpu("gb200").fp8_tflops) == (2500, 5000)
    assert (find_gpu("b300").bf16_tflops, find_gpu("b300").fp8_tflops) == (2250, 4500)
    assert find_gpu("mi355x").fp8_tflops == pytest.approx(256 * 8192 * 2.4e9 / 1e12, rel=1e-3)


def test_apple_machines_are_described_by_chip_gpu_cores_and_memory():
    apple = [g for g in gpus() if g.vendor == "apple"]
    chips = {g.name.split(" (")[0] for g in apple}
    for gen in ("M1", "M2", "M3", "M4"):
        for tier in ("Pro", "Max"):
            assert f"Apple {gen} {tier}" in chips
    assert {"Apple M1 Ultra", "Apple M2 Ultra", "Apple M3 Ultra"} <= chips
    for g in apple:
        assert "-core GPU, " in g.name and g.name.endswith("GB)"), g.name
    assert find_gpu("m3 ultra").memory_gb == 512


def test_ascend_910c_says_which_frameworks_run_it():
    g = find_gpu("910c")
    notes = " ".join(g.market_notes)
    for framework in ("vLLM-Ascend", "MindIE", "LLaMA-Factory"):
        assert framework in notes
    assert g.stack == "cann" and g.china_specific and g.has_nvlink


def test_gaudi_3_runs_on_its_own_stack_with_an_entry_wherever_rocm_and_cann_have_one():
    g = find_gpu("gaudi 3")
    assert (g.vendor, g.stack) == ("intel", "gaudi")
    assert g.has_nvlink  # the RoCE ports wire an 8-card server all-to-all
    for table in (STACK_PENALTY, STACK_PENALTY_TRAINING, STACK_TRAINING_EFFICIENCY):
        assert set(table) == set(get_args(Stack))
    assert STACK_PENALTY["gaudi"] == STACK_PENALTY["cann"]
    assert STACK_PENALTY_TRAINING["gaudi"] == STACK_PENALTY_TRAINING["cann"]
    assert STACK_TRAINING_EFFICIENCY["gaudi"] == STACK_TRAINING_EFFICIENCY["cann"]


def test_new_cards_are_only_chosen_when_named_or_owned():
    defaults = {gpu_id for ids in CANDIDATES.values() for gpu_id in ids} | set(BUYING_EXTRA)
    # the 4060 Ti 16GB and (since it has a sourced price) the RTX PRO 6000 are weighed for purchases
    added_here = {gpu_id for gpu_id in NEW_IDS if gpu_id not in ("rtx-4060-ti-16gb", "rtx-pro-6000-blackwell")}
    assert defaults.isdisjoint(added_here)
