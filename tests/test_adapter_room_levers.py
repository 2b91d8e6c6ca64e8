"""What gives an adapter run room, and one card's margin said like the plan's (reviews CUB #6, CUA #8).

- A LoRA/QLoRA run's optimizer states are the adapters' (tens of MB): 8-bit AdamW or ZeRO-Offload free next to
  nothing, so they are never offered for it; a chunked/fused cross-entropy (the logits of a 152k vocabulary) and, for
  LoRA, QLoRA on a stack that runs bitsandbytes, are.
- 'LoRA on one of your cards?' at 80.3 of 85.0 GB: the 8-card plan called that much 'likely OOM'; on one card the
  answer says how tight it is against both margins and offers QLoRA on the one card with its figure."""

from __future__ import annotations

import pytest
from conversation import run_states

from gpu_advisor.knowledge import find_gpu
from gpu_advisor.tools.recommend import Workload, evaluate
from gpu_advisor.tools.train_margin import margin_bytes, room_levers, roomy
from gpu_advisor.tools.training import TrainingMemoryInput, training_memory

ADAPTER_SETUPS = [(m, method, gpu, n, seq) for m in ("qwen2.5-14b", "qwen2.5-32b", "llama-3.1-70b")
                  for method in ("lora", "qlora") for gpu, n in (("rtx-4090", 2), ("l40s", 2), ("a100-80gb-sxm", 1))
                  for seq in (2048, 4096)]


def _capacity(gpu: str) -> float:
    from gpu_advisor.tools.inference import usable_bytes

    return usable_bytes(find_gpu(gpu))


@pytest.mark.parametrize(("model", "method", "gpu", "n", "seq"), ADAPTER_SETUPS)
def test_no_optimizer_lever_for_an_adapter_run(model: str, method: str, gpu: str, n: int, seq: int) -> None:
    setup = TrainingMemoryInput(model=model, method=method, gpus=n, seq_len=seq, zero=3 if n > 1 else None)
    cap = _capacity(gpu)
    used = training_memory(setup).per_gpu_total_bytes
    levers = room_levers(setup, used * 1.2, cap)  # pretend it is tight, so every lever that helps is tried
    codes = [x.code for x in levers]
    assert "optimizer_8bit" not in codes and "cpu_offload" not in codes, codes
    assert ("qlora" in codes) <= (method == "lora")
    for x in levers:
        assert roomy(x.per_gpu_bytes, cap, n)


@pytest.mark.parametrize(("model", "gpu", "n"), [("qwen2.5-32b", "l40s", 2), ("qwen2.5-14b", "rtx-4090", 2)])
def test_a_lora_run_at_the_edge_is_offered_qlora_and_a_chunked_loss(model: str, gpu: str, n: int) -> None:
    o = evaluate(Workload(phase="fine-tune", model=model, method="lora"), find_gpu(gpu), n)
    assert o is not None
    [f] = [f for f in o.findings if f.code == "training_edge"]
    codes = str(f.values["levers"]).split(",")
    assert {"qlora", "chunked_loss"} <= set(codes) and "optimizer_8bit" not in codes, codes
    assert float(f.values["qlora_bytes"]) < float(f.values["chunked_loss_bytes"]) < float(f.values["used_bytes"])


def test_qlora_is_no_lever_on_a_stack_without_bitsandbytes() -> None:
    setup = TrainingMemoryInput(model="qwen2.5-32b", method="lora", gpus=2, zero=3)
    used = training_memory(setup).per_gpu_total_bytes
    cap = used * 1.01
    assert "qlora" not in [x.code for x in room_levers(setup, used, cap, stack="cann")]
    assert "qlora" in [x.code for x in room_levers(setup, used, cap, stack="cuda")]


def test_a_full_fine_tune_keeps_its_optimizer_levers() -> None:
    setup = TrainingMemoryInput(model="llama-3.1-8b", method="full", gpus=8, zero=3)
    cap = _capacity("rtx-4090")
    codes = [x.code for x in room_levers(setup, training_memory(setup).per_gpu_total_bytes, cap)]
    assert "optimizer_8bit" in codes and "cpu_offload" in codes and "qlora" not in codes


FIRST = {"zh": "我们组有一台8卡A800 80G，想对 Qwen2.5-VL-32B 做全参微调，数据三万条图文，平均2k token，训3个epoch，月底前要出结果，来得及吗",
         "en": "our lab has one 8x A800 80GB box, we want a full fine-tune of Qwen2.5-VL-32B on 30k image-text pairs, "
               "2k tokens avg, 3 epochs, done by end of month. can we make it?"}
ONE = {"zh": ["换成lora的话一张卡够不够", "改成LoRA，单卡能跑不", "如果用lora，一张卡够吗"],
       "en": ["what about lora on a single card?"]}


@pytest.mark.parametrize(("lang", "second"), [(lang, s) for lang, said in ONE.items() for s in said])
def test_lora_on_one_card_is_said_tight_with_qlora(lang: str, second: str) -> None:
    states = run_states([FIRST[lang], second])
    first = str(states[1]["messages"][-1].content).split("\n")[0]
    if lang == "zh":
        assert first.startswith("**单卡能跑，但很紧**") and "80.3 GB" in first and "QLoRA" in first, first
        assert "4.7 GB" in first and "6.3 GB" in first and "4.3 GB" in first, first
    else:
        assert first.startswith("**Yes on one card, only just**") and "80.3 GB" in first and "QLoRA" in first, first
        assert "4.7 GB" in first and "6.3 GB" in first and "4.3 GB" in first, first


def test_the_two_margins_said_are_the_rule() -> None:
    cap = _capacity("a800-80gb-sxm") if _has("a800-80gb-sxm") else _capacity("a100-80gb-sxm")
    assert f"{margin_bytes(cap, 1) / 1e9:,.1f}" == "4.3" and f"{margin_bytes(cap, 2) / 1e9:,.1f}" == "6.3"


def _has(gpu: str) -> bool:
    try:
        find_gpu(gpu)
    except LookupError:
        return False
    return True
