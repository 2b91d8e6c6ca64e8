"""Fine-tuning on a card you own that HF Trainer's QLoRA cannot hold: Unsloth's QLoRA is tried before
anything is rented, on CUDA cards only (it runs nowhere else)."""

from __future__ import annotations

import pytest

from gpu_advisor.tools.recommend import Workload, _recommend, recommend
from gpu_advisor.tools.training import TrainingMemoryInput, training_memory


def _workload(owned: str, model: str = "qwen2.5-32b") -> Workload:
    return Workload(phase="fine-tune", model=model, method="lora", train_tokens=20e6, owned=[owned])


def test_unsloth_qlora_is_offered_on_a_4090_when_hf_trainer_qlora_does_not_fit():
    hf = training_memory(TrainingMemoryInput(model="qwen2.5-32b", method="qlora"))
    unsloth = training_memory(TrainingMemoryInput(model="qwen2.5-32b", method="qlora", framework="unsloth"))
    assert hf.per_gpu_total_bytes > 25.5e9 > unsloth.per_gpu_total_bytes
    as_asked = _recommend(_workload("1x rtx-4090"), with_levers=True)
    assert not as_asked.best.owned
    assert [lever.change for lever in as_asked.levers][:1] == ["qlora-unsloth"]
    mine = as_asked.levers[0].option
    assert mine.owned and mine.ok and mine.gpu == "rtx-4090"
    assert mine.train_per_gpu_bytes == pytest.approx(unsloth.per_gpu_total_bytes, rel=0.01)
    # the LoRA asked keeps its adapters with a 4-bit base: on your own card first, before renting (review L)
    rec = recommend(_workload("1x rtx-4090"))
    assert rec.best.owned and rec.relaxed == "qlora-unsloth" and rec.best.gpu == "rtx-4090"
    assert rec.best.train_per_gpu_bytes == pytest.approx(unsloth.per_gpu_total_bytes, rel=0.01)


def test_no_unsloth_lever_on_cards_it_does_not_run_on():
    rec = recommend(_workload("1x mi300x", model="llama-3.1-405b"))
    assert "qlora-unsloth" not in [lever.change for lever in rec.levers]
