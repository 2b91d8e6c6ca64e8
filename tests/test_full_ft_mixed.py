"""Full fine-tuning counted the way experts count it (review L2 items 03 and 20, L3 conversation 16).

With no framework named, full fine-tuning is sized as the usual mixed precision (DeepSpeed ZeRO / FSDP,
LLaMA-Factory full SFT): BF16 weights and gradients, FP32 master weights and FP32 Adam moments,
2 + 2 + 4 + 8 = 16 bytes per parameter before activations, sharded with ZeRO-3 across cards. Pure BF16
(8 bytes per parameter, HF Trainer on a model loaded in BF16) is the named alternative, with its risk.
A card without BF16 (V100) is sized as FP16 AMP from the start. QLoRA's dequantization slows only its
weight matmuls, so a QLoRA run never costs more than full fine-tuning of the same model on the same cards.
"""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import find_gpu, find_model
from gpu_advisor.tools.fit import FitInput, fit
from gpu_advisor.tools.recommend import Workload, evaluate
from gpu_advisor.tools.training import TrainingMemoryInput, training_memory
from gpu_advisor.tools.training_time import TrainingTimeInput, training_time
from tests.conversation import payload, run_conversation


def _mem(model: str, **kw):
    return training_memory(TrainingMemoryInput(model=model, method="full", **kw))


def _states(r) -> float:
    return r.weights_bytes + r.gradient_bytes + r.optimizer_bytes


# --- the tool: bytes per parameter ------------------------------------------------------------------

@pytest.mark.parametrize("model", ["llama-3.2-3b", "llama-3.1-8b", "qwen2.5-14b", "gemma-2-27b"])
@pytest.mark.parametrize("kw, per_param", [
    ({}, 16),                                           # unnamed: mixed precision
    ({"mixed_precision": True}, 16),
    ({"mixed_precision": False}, 8),                    # pure BF16, asked
    ({"framework": "hf-trainer"}, 8),                   # HF Trainer named: its preset, bf16-loaded model
    ({"framework": "deepspeed"}, 18),                   # DeepSpeed keeps FP32 gradients as well
    ({"framework": "llama-factory"}, 18),
    ({"framework": "hf-trainer", "mixed_precision": True}, 16),
    ({"optimizer": "adamw-8bit"}, 10),                  # mixed with one-byte moments: 2 + 2 + 4 + 2
    ({"optimizer": "adamw-8bit", "mixed_precision": False}, 6),
])
def test_bytes_per_parameter_on_one_gpu(model, kw, per_param):
    r = _mem(model, **kw)
    P = find_model(model).total_params_b * 1e9
    assert r.state_bytes_per_param == pytest.approx(per_param)
    assert _states(r) == pytest.approx(per_param * P)


def test_llama_3_2_3b_mixed_is_about_52_gb_of_states_and_pure_bf16_half():
    mixed, pure = _mem("llama-3.2-3b"), _mem("llama-3.2-3b", mixed_precision=False)
    assert _states(mixed) / 1e9 == pytest.approx(51.4, abs=0.1)
    assert _states(pure) / 1e9 == pytest.approx(25.7, abs=0.1)
    assert mixed.per_gpu_total_bytes / 1e9 == pytest.approx(59.4, abs=0.1)
    assert pure.per_gpu_total_bytes / 1e9 == pytest.approx(31.6, abs=0.1)


@pytest.mark.parametrize("gpus", [2, 4, 8, 32])
def test_zero3_shards_the_16_bytes_across_cards(gpus):
    P = find_model("qwen2.5-14b").total_params_b * 1e9
    r = _mem("qwen2.5-14b", gpus=gpus, zero=3)
    layers = find_model("qwen2.5-14b").num_layers
    assert r.gradient_bytes == pytest.approx(2 * P / gpus)
    assert r.optimizer_bytes == pytest.approx(12 * P / gpus)
    assert r.weights_bytes == pytest.approx(2 * P / gpus + 2 * 2 * P / layers)


def test_fp16_on_a_card_without_bf16_is_mixed_and_says_loss_scaling():
    r = _mem("qwen2.5-14b", precision="fp16", gpus=32, zero=3)
    assert r.state_bytes_per_param == 16
    assert any("FP16 weights and gradients with FP32 master weights" in a and "loss scaling" in a
               for a in r.assumptions)


# --- the plans: card counts ---------------------------------------------------------------------------

@pytest.mark.parametrize("model, gpu, n, fits_mixed, fits_pure", [
    ("llama-3.1-8b", "a100-80gb-sxm", 1, False, True),    # 143.0 GB mixed vs 73.6 GB pure BF16
    ("llama-3.1-8b", "h100-sxm", 2, True, True),          # 74.7 GB per GPU with ZeRO-3
    ("qwen2.5-14b", "h100-sxm", 2, False, True),
    ("qwen2.5-14b", "h100-sxm", 4, True, True),
    ("qwen2.5-7b", "rtx-4090", 4, False, True),
    ("qwen2.5-7b", "rtx-4090", 8, True, True),
])
def test_card_counts_follow_16_bytes_per_parameter(model, gpu, n, fits_mixed, fits_pure):
    mixed = evaluate(Workload(phase="fine-tune", model=model, method="full"), find_gpu(gpu), n)
    pure = evaluate(Workload(phase="fine-tune", model=model, method="full", mixed_precision=False), find_gpu(gpu), n)
    assert mixed.trains is fits_mixed
    assert pure.trains is fits_pure
    assert mixed.train_per_gpu_bytes > pure.train_per_gpu_bytes


def test_fit_tool_smallest_card_counts_and_the_pure_bf16_lever():
    f = fit(FitInput(model="llama-3.1-8b", gpu="h100-sxm", phase="train", method="full", counts=[1, 2, 4]))
    assert f.smallest_fit == 2
    remedies = {r.change: r for r in f.remedies}
    assert remedies["pure BF16 (no FP32 master weights)"].fits is True
    assert remedies["pure BF16 (no FP32 master weights)"].per_gpu_bytes / 1e9 == pytest.approx(73.6, abs=0.1)
    v100 = fit(FitInput(model="qwen2.5-14b", gpu="v100-sxm2-32gb", phase="train", method="full", counts=[1]))
    assert not any("pure BF16" in r.change for r in v100.remedies)  # no BF16 on a V100: no such lever


def test_the_finding_names_both_figures_only_when_no_framework_is_named():
    o = evaluate(Workload(phase="fine-tune", model="llama-3.1-8b", method="full"), find_gpu("h100-sxm"), 2)
    [f] = [f for f in o.findings if f.code == "full_ft_mixed_precision"]
    assert (f.values["mixed_per_param"], f.values["bf16_per_param"]) == ("16", "8")
    assert f.values["mixed_bytes"] / 1e9 == pytest.approx(74.7, abs=0.1)
    assert f.values["bf16_bytes"] / 1e9 == pytest.approx(40.0, abs=0.1)
    named = evaluate(Workload(phase="fine-tune", model="llama-3.1-8b", method="full", framework="deepspeed"),
                     find_gpu("h100-sxm"), 2)
    assert not any(f.code.startswith("full_ft_") for f in named.findings)
    asked = evaluate(Workload(phase="fine-tune", model="llama-3.1-8b", method="full", mixed_precision=False),
                     find_gpu("h100-sxm"), 2)
    assert [f.code for f in asked.findings] == ["full_ft_pure_bf16"]


# --- V100: FP16 AMP from the start, all owned cards, the network between servers -----------------------

def test_v100_full_fine_tune_is_fp16_amp_over_32_cards_with_a_fast_network():
    o = evaluate(Workload(phase="fine-tune", model="qwen2.5-14b", method="full"), find_gpu("v100-sxm2-32gb"), 32)
    assert o.trains
    codes = [f.code for f in o.findings]
    assert "fp16_amp" in codes and "training_across_servers" in codes
    assert "full_ft_mixed_precision" not in codes  # no pure BF16 alternative on a card without BF16
    amp = next(f for f in o.findings if f.code == "fp16_amp")
    assert amp.values["per_param"] == "16"
    across = next(f for f in o.findings if f.code == "training_across_servers")
    assert (across.values["gpus"], across.values["servers"]) == ("32", "4")
    eight = evaluate(Workload(phase="fine-tune", model="qwen2.5-14b", method="full"), find_gpu("v100-sxm2-32gb"), 8)
    assert eight.train_per_gpu_bytes / 1e9 > 34  # 16 B/param of 14.8B on 8 cards: more than a 32 GB V100


@pytest.mark.parametrize("message, says, not_says", [
    ("4台服务器每台8张V100 32G，全参微调 Qwen2.5-14B，能跑吗",
     ["32 × NVIDIA Tesla V100 SXM2 32GB", "按 FP16 混合精度（AMP）计算", "每个参数 16 字节", "InfiniBand 或 RoCE",
      "这 32 张卡分在 4 台服务器上"], ["纯 BF16", "BF16 updates"]),
    ("we have 4 servers with 8x V100 32GB each, full fine-tune qwen2.5 14b, will it run?",
     ["32 × NVIDIA Tesla V100 SXM2 32GB", "sized as FP16 mixed precision (AMP) from the start", "16 bytes per parameter",
      "InfiniBand or RoCE", "The 32 cards span 4 servers"], ["pure BF16", "纯"]),
])
def test_v100_conversation_in_both_languages(message, says, not_says):
    reply = run_conversation([message])[-1]
    text = str(reply.content)
    for words in says:
        assert words in text, text
    for words in not_says:
        assert words not in text, text
    assert payload(reply)["decision"]["gpus"] == 32


# --- "how much vram": the mixed figure, pure BF16 named, in both languages ------------------------------

@pytest.mark.parametrize("message, says", [
    ("how much vram to full finetune llama 3.2 3b",
     ["Sized with the usual mixed precision", "16 bytes per parameter before activations (59.4 GB per GPU)",
      "The alternative is pure BF16, 8 bytes per parameter (31.6 GB per GPU", "Kahan summation or stochastic rounding"]),
    ("How much VRAM do I need to fully fine-tune Llama-3.2-3B?",
     ["16 bytes per parameter before activations (59.4 GB per GPU)", "pure BF16, 8 bytes per parameter"]),
    ("全参微调 llama 3.2 3b 要多少显存",
     ["按常见的混合精度计算", "每个参数 16 字节（每张 GPU 59.4 GB）", "纯 BF16，每个参数 8 字节（每张 GPU 31.6 GB",
      "Kahan 求和或随机舍入"]),
    ("llama3.2 3b 全量微调需要多大显存？",
     ["每个参数 16 字节（每张 GPU 59.4 GB）", "每个参数 8 字节（每张 GPU 31.6 GB"]),
])
def test_vram_question_gives_mixed_and_names_pure_bf16(message, says):
    text = str(run_conversation([message])[-1].content)
    for words in says:
        assert words in text, text
        assert text.index(words) < text.index("|")  # before the table


@pytest.mark.parametrize("follow_up, lang", [
    ("pure bf16", "en"), ("what about pure bf16?", "en"), ("use pure_bf16 with no master weights", "en"),
    ("纯 bf16 呢", "zh"), ("改成纯BF16", "zh"),
])
def test_pure_bf16_is_a_lever_the_user_can_pull(follow_up, lang):
    first = "full finetune llama 3.1 8b" if lang == "en" else "全参微调 llama 3.1 8b"
    replies = run_conversation([first, follow_up])
    text = str(replies[-1].content)
    assert payload(replies[-1])["profile"]["mixed_precision"] is False
    said = ("Sized in pure BF16 (no FP32 master copy of the weights or the Adam states): 8 bytes per parameter"
            if lang == "en" else "按纯 BF16 计算（权重和 Adam 状态都不保留 FP32 副本）：每个参数 8 字节")
    assert said in text
    assert ("against 16 bytes" if lang == "en" else "每个参数 16 字节") in text
    assert ("Kahan summation" if lang == "en" else "Kahan 求和") in text
    before = payload(replies[0])["decision"]
    after = payload(replies[-1])["decision"]
    assert after["gpu"] != before["gpu"] or after["gpus"] <= before["gpus"]


@pytest.mark.parametrize("text, value", [
    ("full fine-tune in pure bf16", False), ("pure-bf16 full finetune", False), ("全参，纯 BF16", False),
    ("no master weights please", False), ("纯bf16训练", False),
    ("full fine-tune with mixed precision", True), ("用混合精度全参微调", True), ("keep fp32 master weights", True),
    ("not pure bf16", None), ("full fine-tune llama 3.1 8b", None),
])
def test_the_reader_reads_the_state_precision(text, value):
    assert understand(text).updates.get("mixed_precision") is value


# --- QLoRA never costs more than full fine-tuning (review L1 c15) ----------------------------------------

@pytest.mark.parametrize("model, gpu", [("gemma-2-27b", "a100-80gb-sxm"), ("llama-3.1-8b", "h100-sxm"),
                                        ("qwen2.5-14b", "l40s")])
@pytest.mark.parametrize("seq_len", [512, 2048, 8192])
def test_qlora_is_never_slower_than_full_on_the_same_cards(model, gpu, seq_len):
    def hours(method: str) -> float:
        return training_time(TrainingTimeInput(model=model, gpu=gpu, gpus=8, method=method, tokens=1e8,
                                               seq_len=seq_len)).hours
    assert hours("lora") < hours("qlora") <= hours("full") * 1.0001


def test_gemma_27b_qlora_costs_no_more_than_full_fine_tuning():
    def usd(method: str) -> float:
        o = evaluate(Workload(phase="fine-tune", model="gemma-2-27b", method=method, train_tokens=1e8),
                     find_gpu("a100-80gb-sxm"), 8)
        return o.training_usd
    assert usd("qlora") <= usd("full") + 0.01
    assert usd("lora") < usd("qlora")
