"""Framework presets: each sets what its recipes do, and the numbers follow by hand."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpu_advisor.knowledge import find_gpu, frameworks
from gpu_advisor.tools.common import ToolError
from gpu_advisor.tools.training import LOSS_BYTES, TrainingMemoryInput, find_framework, training_memory
from gpu_advisor.tools.training_time import TrainingTimeInput, mfu_record, training_time

P = 8.03e9  # Llama-3.1-8B
LAYERS, HIDDEN, VOCAB = 32, 4096, 128256
EMBED_MATRIX = VOCAB * HIDDEN  # the largest single weight matrix


def train(**kw):
    kw.setdefault("model", "llama-3.1-8b")
    return training_memory(TrainingMemoryInput(**kw))


def test_every_preset_names_its_source_and_date():
    ids = {f.id for f in frameworks()}
    # (the online-RL trainers verl, OpenRLHF and TRL's GRPOTrainer are on record too: their default method is full)
    assert ids == {"hf-trainer", "llama-factory", "unsloth", "torchtune", "torchtune-distributed", "deepspeed",
                   "axolotl", "verl", "openrlhf", "trl-grpo"}
    for f in frameworks():
        assert len(f.source) > 20 and f.as_of.year >= 2024


@pytest.mark.parametrize(("name", "fid"), [(None, "hf-trainer"), ("TRL", "hf-trainer"), ("Unsloth", "unsloth"),
                                           ("llama_factory", "llama-factory"), ("torchtune fsdp", "torchtune-distributed"),
                                           ("DeepSpeed", "deepspeed")])
def test_framework_names_resolve(name, fid):
    assert find_framework(name).id == fid


def test_unknown_framework_is_refused_with_the_known_ones():
    with pytest.raises(ToolError, match="unknown framework 'megatron'; known: hf-trainer"):
        train(framework="megatron")


def test_torchtune_full_single_device_by_hand():
    # 8B_full_single_device: bf16 weights (2 P); optimizer in backward holds one tensor's gradient,
    # the 128,256 x 4,096 embedding, at 2 bytes; PagedAdamW8bit's 2 P bytes sit in managed memory.
    r = train(framework="torchtune", method="full", batch=2, seq_len=2048)
    assert r.weights_bytes == pytest.approx(2 * P)
    assert r.gradient_bytes == pytest.approx(2 * EMBED_MATRIX)
    assert r.optimizer_bytes == 0
    assert r.managed_bytes == pytest.approx(2 * P)
    tokens = 4096
    one_layer = tokens * 2 * (6 * HIDDEN + 2 * 1024 + 4 * 14336)
    chunked = tokens * VOCAB * (2 + 8 / 8)  # BF16 logits + FP32 upcast one chunk of 8 at a time
    assert r.activation_bytes == pytest.approx(tokens * 2 * HIDDEN * LAYERS + one_layer + chunked)
    assert any("paged 8-bit AdamW" in a for a in r.assumptions)
    assert r.term("managed_bytes").value == pytest.approx(2 * P)
    # managed memory is not part of the per-GPU total
    assert r.per_gpu_total_bytes == pytest.approx(sum(r.term(k).value for k in (
        "weights_bytes", "gradient_bytes", "optimizer_bytes", "activation_bytes", "overhead_bytes")))


def test_torchtune_full_is_several_times_below_the_old_fp32_master_figure():
    # the issue: 5-7x too high when FP32 master weights, FP32 AdamW and stored gradients were assumed
    tt = train(framework="torchtune", method="full", batch=2)
    old_style = train(method="full", mixed_precision=True, optimizer="adamw", batch=2)
    assert old_style.per_gpu_total_bytes > 5 * tt.per_gpu_total_bytes
    assert tt.per_gpu_total_bytes < 24e9  # fits a 24 GB card, as torchtune's README runs it on an RTX 4090


def test_unsloth_offloads_checkpoints_and_never_holds_logits():
    # QLoRA rank 32, 8,192 tokens: two layers' inputs on the GPU, the other 30 in CPU memory; fused loss
    r = train(framework="unsloth", method="qlora", lora_rank=32, seq_len=8192)
    tokens = 8192
    one_layer = tokens * 2 * (6 * HIDDEN + 2 * 1024 + 4 * 14336)
    assert r.activation_bytes == pytest.approx(tokens * 2 * HIDDEN * 2 + one_layer)
    assert r.cpu_bytes == pytest.approx(tokens * 2 * HIDDEN * (LAYERS - 2))
    hf = train(method="qlora", lora_rank=32, seq_len=8192)
    assert hf.activation_bytes - r.activation_bytes == pytest.approx(
        tokens * 2 * HIDDEN * (LAYERS - 2) + tokens * VOCAB * LOSS_BYTES["full"])


def test_unsloth_full_fine_tuning_uses_8bit_adamw_on_bf16_weights():
    r = train(framework="unsloth", method="full")
    assert (r.weights_bytes, r.gradient_bytes, r.optimizer_bytes) == pytest.approx((2 * P, 2 * P, 2 * P))


def test_torchtune_distributed_shards_with_fsdp_by_default():
    r = train(framework="torchtune-distributed", method="full", gpus=8)
    assert r.zero == 3
    assert any("FSDP full shard" in a for a in r.assumptions)
    # explicit zero wins
    assert train(framework="torchtune-distributed", method="full", gpus=8, zero=0).zero == 0
    # HF Trainer alone is data parallel
    assert train(method="full", gpus=8).zero == 0


def test_deepspeed_defaults_to_zero_2_with_fp32_master_weights():
    r = train(framework="deepspeed", method="full", gpus=4)
    assert r.zero == 2
    # ZeRO-2: 2 P BF16 weights whole; FP32 gradients (4 P) and master + moments (12 P) split over 4
    assert r.weights_bytes == pytest.approx(2 * P)
    assert r.gradient_bytes == pytest.approx(4 * P / 4)
    assert r.optimizer_bytes == pytest.approx(12 * P / 4)


def test_torchtune_adapters_are_bf16_and_peft_adapters_fp32():
    tt = train(framework="torchtune", method="lora", lora_rank=16)
    hf = train(method="lora", lora_rank=16)
    n = hf.trainable_params
    assert tt.gradient_bytes == pytest.approx(2 * n) and hf.gradient_bytes == pytest.approx(4 * n)
    assert tt.optimizer_bytes == pytest.approx(4 * n) and hf.optimizer_bytes == pytest.approx(8 * n)


def test_chosen_fields_override_the_preset():
    r = train(framework="unsloth", method="qlora", checkpoint_offload=False, loss="full")
    assert r.activation_bytes == pytest.approx(train(method="qlora").activation_bytes)


def test_zero_offload_moves_gradients_too():
    r = train(method="full", gpus=4, zero=2, cpu_offload=True, mixed_precision=False)
    assert r.gradient_bytes == 0 and r.optimizer_bytes == 0
    assert r.cpu_bytes == pytest.approx(2 * P / 4 + 4 * P / 4)  # BF16 gradient and moment shards
    mixed = train(method="full", gpus=4, zero=2, cpu_offload=True)  # BF16 gradients, FP32 master and moments
    assert mixed.cpu_bytes == pytest.approx(2 * P / 4 + 12 * P / 4)


@settings(max_examples=40, deadline=None)
@given(fw=st.sampled_from([f.id for f in frameworks()]), method=st.sampled_from(["full", "lora", "qlora"]),
       seq=st.integers(256, 32768), gpus=st.sampled_from([1, 2, 8]))
def test_more_offload_never_raises_gpu_memory(fw, method, seq, gpus):
    kw = dict(framework=fw, method=method, seq_len=seq, gpus=gpus)
    base = train(**kw, checkpoint_offload=False)
    ckpt_off = train(**kw, checkpoint_offload=True)
    opt_off = train(**kw, checkpoint_offload=True, cpu_offload=True)
    assert ckpt_off.per_gpu_total_bytes <= base.per_gpu_total_bytes + 1
    assert opt_off.per_gpu_total_bytes <= ckpt_off.per_gpu_total_bytes + 1
    assert opt_off.cpu_bytes >= ckpt_off.cpu_bytes >= base.cpu_bytes


@settings(max_examples=30, deadline=None)
@given(fw=st.sampled_from([f.id for f in frameworks()]), seq=st.integers(256, 16384))
def test_lighter_loss_never_raises_gpu_memory(fw, seq):
    full, chunked, fused = (train(framework=fw, seq_len=seq, loss=x).per_gpu_total_bytes
                            for x in ("full", "chunked", "fused"))
    assert full > chunked > fused


# --- training time: FLOPs that match memory, MFU by GPU class ---------------------------------------

def tt(**kw):
    kw.setdefault("model", "llama-3.1-8b")
    return training_time(TrainingTimeInput(**kw))


def test_training_flops_count_the_recompute_memory_assumes():
    # every preset checkpoints, so LoRA is 2 + 2 + 2 = 6 and full 2 + 4 + 2 = 8 FLOPs per param-token
    lora = tt(gpu="a100-80gb-sxm", method="lora", tokens=1e8)
    full = tt(gpu="a100-80gb-sxm", method="full", tokens=1e8)
    assert lora.term("training_hours").inputs["flops_per_param_token"] == 6
    assert full.term("training_hours").inputs["flops_per_param_token"] == 8
    assert lora.hours == pytest.approx(6 * P * 1e8 / (312e12 * 0.561) / 3600)
    assert tt(gpu="a100-80gb-sxm", method="lora", tokens=1e8, gradient_checkpointing=False).hours == \
        pytest.approx(lora.hours * 4 / 6)


def test_mfu_by_gpu_class():
    # knowledge/data/training_mfu.yaml: A100 fitted on the Qwen-1 profile, Hopper and later on MosaicML's
    # H100 / A100 pairs, GeForce on torchtune's RTX 4090 row (tests/test_training_time_calibration.py)
    assert tt(gpu="a100-80gb-sxm", tokens=1e8).mfu == 0.561
    assert tt(gpu="h100-sxm", tokens=1e8).mfu == mfu_record(find_gpu("h100-sxm"), "fine-tune").mfu == 0.395
    assert tt(gpu="rtx-4090", tokens=1e8).mfu == 0.615
    assert "gddr-consumer" in tt(gpu="rtx-4090", tokens=1e8).assumptions[0]
    # an A100 trains faster than an RTX 4090 (312 x 0.561 vs 165.2 x 0.615 TFLOPS)
    assert tt(gpu="a100-80gb-sxm", tokens=1e8).hours < tt(gpu="rtx-4090", tokens=1e8).hours
    # a stated MFU still wins
    assert tt(gpu="rtx-4090", tokens=1e8, mfu=0.3).mfu == 0.3
