"""QLoRA of a 70B-class model on two 24 GB cards owned ('qwen2.5 72b 用qlora … 我手上有两张3090', review BK #8): not as
planned (32.5 GB a card), but FSDP + QLoRA with CPU offload (Answer.AI's recipe) fits, sized by tools.owned_qlora and
offered with its limits (system RAM, the sequence cut where it must be, much slower than one large card)."""

from __future__ import annotations

import pytest

from gpu_advisor.tools.owned_qlora import fsdp_qlora_on_owned
from gpu_advisor.tools.recommend import Workload, recommend
from tests.conversation import run_states


@pytest.mark.parametrize(("model", "owned", "seq", "gpu_gb", "cpu_gb"), [
    ("qwen2.5-72b", "2x rtx-3090", 2048, 8.5, 45),
    ("qwen2.5-72b", "2x rtx-4090", 2048, 8.5, 45),
])
def test_fsdp_qlora_sized_on_two_consumer_cards(model: str, owned: str, seq: int, gpu_gb: float | None,
                                                cpu_gb: float | None) -> None:
    w = Workload(phase="fine-tune", model=model, method="qlora", owned=[owned], train_tokens=5e6)
    rec = recommend(w)
    found = fsdp_qlora_on_owned(w, rec)
    assert found is not None and found.gpus == 2 and found.seq_len == seq
    assert found.per_gpu_bytes <= 0.9 * found.capacity_bytes
    if gpu_gb is not None:
        assert found.per_gpu_bytes / 1e9 == pytest.approx(gpu_gb, abs=0.1)
        assert found.cpu_bytes / 1e9 == pytest.approx(cpu_gb, abs=1)


def test_not_offered_when_the_cards_hold_it_or_one_card() -> None:
    four = Workload(phase="fine-tune", model="llama-3.1-70b", method="qlora", owned=["4x rtx-3090"])
    assert fsdp_qlora_on_owned(four, recommend(four)) is None  # four 24 GB cards hold it sharded, as planned
    small = Workload(phase="fine-tune", model="qwen2.5-7b", method="qlora", owned=["2x rtx-3090"])
    assert fsdp_qlora_on_owned(small, recommend(small)) is None
    one = Workload(phase="fine-tune", model="qwen2.5-72b", method="qlora", owned=["1x rtx-3090"])
    assert fsdp_qlora_on_owned(one, recommend(one)) is None


@pytest.mark.parametrize(("text", "line"), [
    ("想微调一下qwen2.5 72b 用qlora 数据五千条左右 对了我手上有两张3090",
     "**不过 2 × NVIDIA GeForce RTX 3090 24GB 也有办法**：按 Answer.AI 的 FSDP + QLoRA 做法"),
    ("qlora qwen2.5 72b on 5000 examples, i have 2x rtx 3090",
     "**Your 2 × NVIDIA GeForce RTX 3090 24GB can still do it another way:** FSDP + QLoRA as Answer.AI runs it"),
])
def test_review_bk8(text: str, line: str) -> None:
    reply = run_states([text])[-1]["messages"][-1].content
    assert line in reply, reply[:1500]
    assert "8.5 GB" in reply and "45 GB" in reply
