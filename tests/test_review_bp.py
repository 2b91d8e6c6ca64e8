"""Session 20 review BP: a bit width is a format, never a count ('what about 4-bit on h100s' at the users question was
4 users); '1.58bit' is unsloth's IQ1_S file; a weight format said for a model on cards is serving; 'what about <card>'
before any plan is the card to size on."""
from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states


@pytest.mark.parametrize(("said", "pending"), itertools.product(
    ["what about 4-bit on h100s", "4bit", "8 bit please", "try 4 bit", "换成4bit呢", "用8bit"], [None, "users", "context"]))
def test_a_bit_width_is_no_count(said, pending):
    u = understand(said, pending)
    assert u.updates.get("precision") in ("int4", "int8") and "users" not in u.updates and "context" not in u.updates


@pytest.mark.parametrize(("said", "fmt"), [("那r1 671b 1.58bit呢", "iq1_s"), ("1.58-bit r1", "iq1_s"),
                                          ("deepseek r1 at 1.58 bit on my mac", "iq1_s"), ("r1 1.73-bit", "iq1_m")])
def test_unsloth_dynamic_bits_are_their_files(said, fmt):
    assert understand(said).updates.get("precision") == fmt


@pytest.mark.parametrize("said", ["deepseek v3 on h200s fp8, how many", "qwen2.5 72b int4 on 4090s, how many do i need",
                                  "llama 3.1 70b awq on a100s"])
def test_a_weight_format_on_cards_is_serving(said):
    assert understand(said).updates.get("phase") == "serve"


def test_a_format_for_fine_tuning_stays_fine_tuning():
    assert understand("qlora llama 3.1 8b 4-bit on a 4090").updates.get("phase") == "fine-tune"


def test_a_card_asked_about_before_any_plan_is_the_card_sized():
    last = run_states(["deepseek v3 on h200s fp8, how many", "what about 4-bit on h100s"])[-1]
    best = last["results"]["recommend"]["best"]
    assert best["gpu"] == "h100-sxm" and best["gpus"] == 8 and best["precision"] in ("int4", "awq", "gptq")


@pytest.mark.parametrize("said", ["用bge-large-zh给1亿条文本做向量化，三天内跑完", "embed 100M texts with bge-large-zh-v1.5 in 3 days",
                                  "BAAI/bge-large-zh-v1.5 向量化500万条"])
def test_the_chinese_bge_is_its_own_record(said):
    """Review BO #14: bge-large-zh was dropped and BGE-M3 sized in its place."""
    assert understand(said).updates.get("model") == "bge-large-zh-v1.5"
