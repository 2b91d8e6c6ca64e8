"""Training memory, checked against bytes-per-parameter arithmetic done by hand."""

from __future__ import annotations

import pytest

from gpu_advisor.knowledge import find_gpu, find_model, rules
from gpu_advisor.tools.common import ToolError
from gpu_advisor.tools.fit import FitInput, fit
from gpu_advisor.tools.inference import usable_bytes
from gpu_advisor.tools.training import TrainingMemoryInput, training_memory

# Llama-3-8B (models.yaml): 8.03e9 params, 32 layers, hidden 4096, 8 KV heads x 128 = KV width 1024,
# 32 heads x 128 = q width 4096, MLP 14336, vocabulary 128256 (untied).
P = 8.03e9
LAYERS, HIDDEN, KV_WIDTH, Q_WIDTH, INTER, VOCAB = 32, 4096, 1024, 4096, 14336, 128256
EMBED = VOCAB * HIDDEN * 2  # embeddings + output head = 1,050,673,152 params


def train(**kw):
    kw.setdefault("model", "llama-3-8b")
    return training_memory(TrainingMemoryInput(**kw))


def test_hand_constants_match_the_catalog():
    m = find_model("llama-3-8b")
    assert (m.total_params_b * 1e9, m.num_layers, m.hidden_size, m.num_kv_heads * m.head_dim,
            m.num_attention_heads * m.head_dim, m.intermediate_size, m.vocab_size) == (
        pytest.approx(P), LAYERS, HIDDEN, KV_WIDTH, Q_WIDTH, INTER, VOCAB)


# --- full fine-tuning: bytes per parameter --------------------------------------------------------

def _state_bytes_per_param(r) -> float:
    return (r.weights_bytes + r.gradient_bytes + r.optimizer_bytes) / P


def test_full_fine_tuning_unnamed_is_mixed_precision_16_bytes_per_parameter():
    # With no framework named, the usual recipe (ZeRO / FSDP mixed precision, LLaMA-Factory full SFT):
    # 2 (BF16 weights) + 2 (BF16 gradients) + 4 (FP32 master) + 8 (two FP32 moments) = 16, stated.
    r = train(method="full")
    assert r.framework == "hf-trainer"
    assert r.weights_bytes == pytest.approx(2 * P)
    assert r.gradient_bytes == pytest.approx(2 * P)
    assert r.optimizer_bytes == pytest.approx((4 + 8) * P)
    assert _state_bytes_per_param(r) == pytest.approx(16) == r.state_bytes_per_param
    assert any("mixed precision, 16 bytes per parameter" in a for a in r.assumptions)


def test_full_fine_tuning_with_hf_trainer_stores_bf16_weights_gradients_and_moments():
    # The HF Trainer preset, named: the weights stay in bf16 and torch's AdamW makes its moments with
    # zeros_like(param): 2 (weights) + 2 (grads) + 4 (two BF16 moments) = 8 bytes per parameter.
    r = train(method="full", framework="hf-trainer")
    assert r.framework == "hf-trainer"
    assert r.weights_bytes == pytest.approx(2 * P)
    assert r.gradient_bytes == pytest.approx(2 * P)
    assert r.optimizer_bytes == pytest.approx(4 * P)
    assert _state_bytes_per_param(r) == pytest.approx(8)
    assert r.trainable_params == pytest.approx(P)
    assert any("HF Trainer / TRL - adamw" in a for a in r.assumptions)
    assert _state_bytes_per_param(train(method="full", mixed_precision=False)) == pytest.approx(8)


def test_fp32_master_weights_with_fp32_gradients_are_18_bytes_per_parameter():
    # mixed precision asked of HF Trainer: 16-bit gradients, 16 bytes per parameter
    assert _state_bytes_per_param(train(method="full", framework="hf-trainer", mixed_precision=True)) == pytest.approx(16)
    # 2 (BF16 working copy) + 4 (FP32 gradients: AMP's FP32 parameters, DeepSpeed's FP32 gradient
    # partition) + 4 (FP32 master) + 8 (two FP32 moments) = 18 (LLaMA-Factory's table says 18x too)
    r = train(method="full", framework="deepspeed")
    assert r.gradient_bytes == pytest.approx(4 * P)
    assert r.optimizer_bytes == pytest.approx((4 + 8) * P)
    assert _state_bytes_per_param(r) == pytest.approx(18)
    # the presets that keep a master copy do so without being asked
    for fw in ("llama-factory", "deepspeed"):
        assert _state_bytes_per_param(train(method="full", framework=fw)) == pytest.approx(18)


def test_8bit_adamw_keeps_one_byte_per_moment():
    # mixed: 2 + 2 + (4 master + 2 moments) = 10 (DeepSpeed's FP32 gradients: 12); BF16: 2 + 2 + 2 = 6
    assert _state_bytes_per_param(train(method="full", optimizer="adamw-8bit")) == pytest.approx(10)
    assert _state_bytes_per_param(train(method="full", optimizer="adamw-8bit", framework="deepspeed")) == pytest.approx(12)
    assert _state_bytes_per_param(train(method="full", optimizer="adamw-8bit", mixed_precision=False)) == pytest.approx(6)


def test_sgd_with_momentum_keeps_one_state():
    # mixed: 2 + 2 + (4 master + 4 momentum) = 12; BF16: 2 + 2 + 2 = 6
    assert _state_bytes_per_param(train(method="full", optimizer="sgd")) == pytest.approx(12)
    assert _state_bytes_per_param(train(method="full", optimizer="sgd", mixed_precision=False)) == pytest.approx(6)


def test_full_fine_tuning_activations_and_overhead_by_hand():
    # seq 2048 x batch 1 with gradient checkpointing:
    #   checkpoints: 2048 x 2 bytes x 4096 x 32 layers          =   536,870,912
    #   one layer:   2048 x 2 x (6 x 4096 + 2 x 1024 + 4 x 14336) =   343,932,928
    #   logits:      2048 x 128256 x 8 bytes                     = 2,101,346,304
    #   total                                                    = 2,982,150,144
    # overhead: 1 GB + 8% of (8 x P + activations); 8 bytes per parameter: the HF Trainer preset, pure bf16
    r = train(method="full", framework="hf-trainer")
    tokens = 2048
    one_layer = tokens * 2 * (6 * HIDDEN + 2 * KV_WIDTH + 4 * INTER)
    act = tokens * 2 * HIDDEN * LAYERS + one_layer + tokens * VOCAB * 8
    assert act == 2_982_150_144
    assert r.activation_bytes == act
    assert r.overhead_bytes == pytest.approx(1e9 + 0.08 * (8 * P + act))
    assert r.per_gpu_total_bytes == pytest.approx(8 * P + act + 1e9 + 0.08 * (8 * P + act))


def test_gradient_checkpointing_reduces_activations():
    # without: 32 layers x 343,932,928 + 2,101,346,304 = 13,107,200,000 bytes
    on = train(gradient_checkpointing=True)
    off = train(gradient_checkpointing=False)
    assert off.activation_bytes == 32 * 343_932_928 + 2_101_346_304 == 13_107_200_000
    assert on.activation_bytes == 2_982_150_144
    assert on.activation_bytes < off.activation_bytes / 4


def test_long_sequences_without_checkpointing_warn():
    assert any("gradient checkpointing" in w for w in train(gradient_checkpointing=False, seq_len=4096).warnings)
    assert train(gradient_checkpointing=True, seq_len=4096).warnings == []


# --- LoRA and QLoRA -------------------------------------------------------------------------------

def test_lora_trainable_parameters_formula():
    # rank x (in + out) per adapted matrix, per layer:
    #   q, o: (4096 + 4096) x 2 = 16,384; k, v: (4096 + 1024) x 2 = 10,240
    #   gate, up, down: 3 x (4096 + 14336) = 55,296;  sum 81,920
    # x rank 16 x 32 layers = 41,943,040
    r = train(method="lora", lora_rank=16)
    per_layer = (HIDDEN + Q_WIDTH) * 2 + (HIDDEN + KV_WIDTH) * 2 + 3 * (HIDDEN + INTER)
    assert r.trainable_params == 16 * per_layer * LAYERS == 41_943_040
    # frozen BF16 base + FP32 adapters; FP32 grads; FP32 AdamW moments
    assert r.weights_bytes == pytest.approx(2 * P + 4 * 41_943_040)
    assert r.gradient_bytes == 4 * 41_943_040
    assert r.optimizer_bytes == 8 * 41_943_040


def test_lora_trainable_parameters_scale_with_rank():
    assert train(method="lora", lora_rank=64).trainable_params == 4 * train(method="lora", lora_rank=16).trainable_params


def test_lora_on_moe_adapts_attention_only():
    # Mixtral-8x7B: 32 layers, hidden 4096, q 4096, KV 1024: 16 x 32 x 26,624 = 13,631,488
    r = train(model="mixtral-8x7b", method="lora", lora_rank=16)
    assert r.trainable_params == 16 * 32 * ((4096 + 4096) * 2 + (4096 + 1024) * 2) == 13_631_488


def test_lora_with_trainable_embeddings_adds_them():
    base = train(method="lora")
    r = train(method="lora", lora_train_embeddings=True)
    assert r.trainable_params == base.trainable_params + EMBED
    assert r.weights_bytes == pytest.approx(base.weights_bytes + EMBED * 2)
    assert r.gradient_bytes == pytest.approx(base.gradient_bytes + EMBED * 2)
    assert r.optimizer_bytes == pytest.approx(base.optimizer_bytes + EMBED * 8)


def test_qlora_base_is_nf4_with_16_bit_embeddings():
    # NF4 (4.127 bits) body, embeddings and head at 2 bytes, plus FP32 adapters
    r = train(method="qlora")
    expected = EMBED * 2 + (P - EMBED) * 4.127 / 8 + 41_943_040 * 4
    assert r.weights_bytes == pytest.approx(expected)


@pytest.mark.parametrize("model", ["qwen2.5-7b", "llama-3.1-8b", "qwen2.5-14b", "qwen3-14b"])
def test_qlora_of_7b_to_14b_fits_a_24gb_card(model):
    capacity = usable_bytes(find_gpu("rtx-4090"))  # 24 GiB x 0.99
    r = train(model=model, method="qlora")
    assert r.per_gpu_total_bytes < capacity
    assert r.per_gpu_total_range_bytes[0] < capacity


def test_qlora_rejects_a_16_bit_base():
    with pytest.raises(ToolError, match="QLoRA keeps the base model in 8, 4 or 2 bits"):
        train(method="qlora", base_precision="bf16")


@pytest.mark.parametrize(("base", "bits"), [("int8", 8.0), ("gptq-int8", 8.19), ("nf4", 4.127), ("hqq-int2", 2.5)])
def test_qlora_accepts_8_4_and_2_bit_bases(base, bits):
    # body at the base's bits, embeddings and head at 2 bytes, FP32 adapters (HF/PEFT)
    r = train(method="qlora", base_precision=base)
    assert r.weights_bytes == pytest.approx(EMBED * 2 + (P - EMBED) * bits / 8 + 41_943_040 * 4)


def test_qlora_bases_order_by_bits():
    sizes = [train(method="qlora", base_precision=b).per_gpu_total_bytes for b in ("int8", "nf4", "hqq-int2")]
    assert sizes[0] > sizes[1] > sizes[2]


def test_training_in_a_quantized_compute_format_is_rejected():
    with pytest.raises(ToolError, match="training computes in bf16 or fp16"):
        train(precision="int8")


# --- the guide's 80 GB rule of thumb vs the arithmetic --------------------------------------------

def test_full_fine_tuning_of_14b_does_not_fit_one_80gb_card():
    # pure bf16 weights, gradients and AdamW moments: 14.7e9 x 8 bytes = 118 GB alone, vs 79.2 GiB usable
    # (the default mixed precision, 16 bytes: 235 GB)
    capacity = usable_bytes(find_gpu("a100-80gb-sxm"))
    r = train(model="qwen2.5-14b", method="full", mixed_precision=False)
    assert r.weights_bytes + r.gradient_bytes + r.optimizer_bytes == pytest.approx(14.7e9 * 8)
    assert r.per_gpu_total_bytes > 1.5 * capacity
    mixed = train(model="qwen2.5-14b", method="full")
    assert mixed.weights_bytes + mixed.gradient_bytes + mixed.optimizer_bytes == pytest.approx(14.7e9 * 16)
    assert mixed.per_gpu_total_bytes > 3 * capacity
    # the guide says 80 GB cards do full fine-tuning of 7B-14B only with sharding or offload
    row = next(row for row in rules().capability_table if row.memory_gb == 80)
    assert "sharding or offload" in row.can_do


def test_fit_lists_remedies_for_full_fine_tuning_of_14b():
    f = fit(FitInput(model="qwen2.5-14b", gpu="a100-80gb-sxm", phase="train", method="full"))
    assert f.options[0].gpus == 1 and f.options[0].fits is False
    assert f.smallest_fit == 4  # ZeRO-3 over 4 GPUs in the default mixed precision (2 in pure BF16)
    pure = fit(FitInput(model="qwen2.5-14b", gpu="a100-80gb-sxm", phase="train", method="full", mixed_precision=False))
    assert pure.smallest_fit == 2
    remedies = {r.change: r for r in f.remedies}
    assert any(r.fits for r in f.remedies)
    assert remedies["8-bit AdamW"].fits is False
    assert remedies["optimizer states offloaded to CPU memory"].fits is True
    assert remedies["LoRA instead of full fine-tuning"].fits is True
    assert remedies["QLoRA (4-bit base)"].fits is True
    capacity = usable_bytes(find_gpu("a100-80gb-sxm"))
    for r in f.remedies:
        assert r.fits == (r.per_gpu_bytes <= capacity)


def test_fit_offers_no_remedies_when_one_card_is_enough():
    f = fit(FitInput(model="qwen2.5-7b", gpu="a100-80gb-sxm", phase="train", method="qlora"))
    assert f.options[0].fits is True
    assert f.smallest_fit == 1
    assert f.remedies == []


# --- sharding and offload -------------------------------------------------------------------------

def test_zero_stages_are_monotone_on_four_gpus():
    per_gpu = [train(method="full", gpus=4, zero=z).per_gpu_total_bytes for z in (0, 1, 2, 3)]
    assert per_gpu[0] > per_gpu[1] > per_gpu[2] > per_gpu[3]


def test_zero_stages_shard_what_they_promise():
    # 4 GPUs, DeepSpeed's FP32 master weights and FP32 gradients: ZeRO-1 splits the 12 bytes/param of optimizer states, ZeRO-2 also
    # the 4 of FP32 gradients, ZeRO-3 also the 2 of weights, plus two gathered layers: 2 x (2 P / 32)
    z1, z2, z3 = (train(method="full", gpus=4, zero=z, framework="deepspeed") for z in (1, 2, 3))
    assert z1.optimizer_bytes == pytest.approx(12 * P / 4)
    assert z1.gradient_bytes == pytest.approx(4 * P)
    assert z2.gradient_bytes == pytest.approx(4 * P / 4)
    assert z2.weights_bytes == pytest.approx(2 * P)
    assert z3.weights_bytes == pytest.approx(2 * P / 4 + 2 * 2 * P / 32)
    assert z3.total_bytes == pytest.approx(4 * z3.per_gpu_total_bytes)


def test_zero_on_one_gpu_shards_nothing():
    assert train(method="full", zero=3).per_gpu_total_bytes == pytest.approx(train(method="full").per_gpu_total_bytes)
    assert "ZeRO on one GPU shards nothing" in train(method="full", zero=2).assumptions


def test_cpu_offload_moves_optimizer_states_to_cpu():
    r = train(method="full", cpu_offload=True, mixed_precision=True)
    assert r.optimizer_bytes == 0
    assert r.cpu_bytes == pytest.approx(12 * P)
    assert train(method="full", cpu_offload=True, mixed_precision=False).cpu_bytes == pytest.approx(4 * P)  # two BF16 moments
    assert r.weights_bytes == pytest.approx(2 * P)  # weights stay without ZeRO-3


def test_cpu_offload_with_zero3_also_moves_weight_shards():
    # per GPU on CPU: 12 P / 4 (optimizer) + 4 P / 4 (FP32 gradient shard: ZeRO-Offload and FSDP
    # CPUOffload move gradients too, added with the presets) + 2 P / 4 (weights) = 4.5 P; on GPU only
    # 2 gathered layers
    r = train(method="full", cpu_offload=True, zero=3, gpus=4, framework="deepspeed")
    assert r.cpu_bytes == pytest.approx(4.5 * P)
    assert r.optimizer_bytes == 0
    assert r.gradient_bytes == 0
    assert r.weights_bytes == pytest.approx(2 * 2 * P / 32)
