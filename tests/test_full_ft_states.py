"""A full fine-tune that fits only with BF16 weights, gradients and AdamW states (the named framework's
default, no FP32 master copy) says so in the answer itself, with both memory figures, in the user's
language. With no framework named, full fine-tuning is sized in mixed precision (tests/test_full_ft_mixed.py)."""

from __future__ import annotations

import pytest

from gpu_advisor.knowledge import find_gpu
from gpu_advisor.tools.recommend import Workload, evaluate
from tests.conversation import run_conversation


def _full(model: str, gpu: str, n: int, framework: str | None = "hf-trainer"):
    return evaluate(Workload(phase="fine-tune", model=model, method="full", framework=framework), find_gpu(gpu), n)


# (model, card, count, GB per GPU with BF16 states, GB per GPU with FP32 master + states, usable GB)
BF16_ONLY = [
    ("llama-3.1-8b", "a100-80gb-sxm", 1, 73.6, 143.0, 85.0),
    ("qwen2.5-7b", "rtx-4090", 4, 22.2, 38.6, 25.5),
    ("qwen2.5-14b", "h200", 1, 132.2, 259.2, 149.9),
    ("qwen2.5-14b", "a100-80gb-sxm", 2, 70.0, 133.5, 85.0),
]


@pytest.mark.parametrize("model, gpu, n, bf16, fp32, capacity", BF16_ONLY)
def test_a_fit_that_needs_bf16_states_is_a_finding_with_both_figures(model, gpu, n, bf16, fp32, capacity):
    o = _full(model, gpu, n)
    assert o.trains
    [f] = o.findings
    assert f.code == "full_ft_bf16_states_only"
    assert f.values["bf16_bytes"] / 1e9 == pytest.approx(bf16, abs=0.05)
    assert f.values["fp32_bytes"] / 1e9 == pytest.approx(fp32, abs=0.05)
    assert f.values["capacity_bytes"] / 1e9 == pytest.approx(capacity, abs=0.05)
    assert f.values["bf16_bytes"] <= f.values["capacity_bytes"] < f.values["fp32_bytes"]


@pytest.mark.parametrize("model, gpu, n, framework", [
    ("llama-3.2-1b", "a100-80gb-sxm", 1, "hf-trainer"),  # fits with FP32 states too
    ("llama-3.1-8b", "h100-sxm", 8, "deepspeed"),   # the framework keeps an FP32 master copy already
    ("qwen2.5-1.5b", "rtx-4090", 1, "unsloth"),
])
def test_no_finding_when_fp32_states_fit_or_are_already_counted(model, gpu, n, framework):
    o = _full(model, gpu, n, framework)
    assert o.trains and o.findings == []


def test_no_finding_for_lora_or_when_it_does_not_fit_at_all():
    lora = evaluate(Workload(phase="fine-tune", model="llama-3.1-8b", method="lora"), find_gpu("a100-80gb-sxm"), 1)
    assert lora.findings == []
    too_big = _full("llama-3.1-70b", "h100-sxm", 8, "hf-trainer")
    assert not too_big.trains and too_big.findings == []


@pytest.mark.parametrize("message, says", [
    ("full fine-tune llama 3.1 8b with HF Trainer on my A100 80GB",
     ["⚠ This full fine-tune fits only because HF Trainer / TRL keeps the weights, gradients and AdamW states in "
      "BF16 (73.6 GB per GPU). With the usual mixed precision (an FP32 master copy and FP32 Adam "
      "states) it needs 143.0 GB per GPU, more than the 85.0 GB there is."]),
    ("full fine-tune qwen2.5-7b with trl on my 4 x rtx 4090", ["(22.2 GB per GPU)", "it needs 38.6 GB per GPU"]),
    ("在我的一张H200上用 HF Trainer 全参微调qwen2.5-14b",
     ["⚠ 这次全参微调能放下，只是因为 HF Trainer / TRL 把权重、梯度和 AdamW 状态都存成 BF16（每张 GPU 132.2 GB）。",
      "每张 GPU 需要 259.2 GB，超过可用的 149.9 GB。"]),
])
def test_the_answer_says_it_before_the_table_in_the_users_language(message, says):
    text = str(run_conversation([message])[-1].content)
    for words in says:
        assert words in text
        assert text.index(words) < text.index("|")  # up front, before the options table
    if "全参" in message:
        assert "BF16 updates" not in text and "mixed precision" not in text
