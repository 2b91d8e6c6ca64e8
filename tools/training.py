"""Training memory: weights, gradients, optimizer states, activations, sharding and offload."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from knowledge import find_precision
from knowledge.schema import ModelArch
from tools import arch
from tools.common import Explained, Term, ToolError, ToolInput, term
from tools.models import resolve_model

Method = Literal["full", "lora", "qlora"]
Optimizer = Literal["adamw", "adamw-8bit", "sgd"]

# Optimizer state bytes per trained parameter: AdamW keeps two moments, 8-bit AdamW stores them in
# one byte each, SGD with momentum keeps one. FP32 states unless training in pure BF16.
OPTIMIZER_BYTES_FP32 = {"adamw": 8, "adamw-8bit": 2, "sgd": 4}
OPTIMIZER_BYTES_BF16 = {"adamw": 4, "adamw-8bit": 2, "sgd": 2}

# Activation bytes saved per token per layer without recomputation, with flash attention (no
# sequence-squared term): 2 bytes x (ACT_H x hidden + 2 x KV width + ACT_I x MLP width). Counted from
# a SwiGLU block's saved tensors (norm inputs, q/k/v, attention output, gate, up, product).
ACT_H, ACT_I = 6, 4
# Logits: bf16 logits, their fp32 copy for the loss, and the fp32 gradient: bytes per vocab entry.
# Fitted to the Qwen-1 fine-tuning profile (reference training_memory.csv rows 118-198), whose
# memory grows with sequence length mostly through the 151,936-entry vocabulary.
LOGIT_BYTES = 8
# CUDA context, allocator caching and fragmentation: a fixed part and a share of everything else.
# Fitted to the same profile.
OVERHEAD_FIXED = 1.0e9
OVERHEAD_SHARE = 0.08
# ZeRO-3 gathers one layer's full weights (plus a prefetched next one) before using it.
ZERO3_GATHER_LAYERS = 2


class TrainingMemoryInput(ToolInput):
    model: str
    method: Method = "lora"
    precision: str = Field("bf16", description="compute precision (bf16/fp16); for QLoRA the base format defaults to nf4")
    base_precision: str | None = Field(None, description="QLoRA: format of the frozen base weights (nf4, gptq-int4 ...)")
    mixed_precision: bool = Field(True, description="FP32 master weights and optimizer states; False: pure BF16")
    optimizer: Optimizer = "adamw"
    seq_len: int = Field(2048, gt=0)
    batch: int = Field(1, gt=0, description="micro-batch per GPU")
    gradient_checkpointing: bool = Field(True, description="recompute activations in backward (the usual setting)")
    gpus: int = Field(1, gt=0, le=1024)
    zero: Literal[0, 1, 2, 3] = Field(0, description="ZeRO stage / FSDP: 1 optimizer, 2 +gradients, 3 +weights")
    cpu_offload: bool = Field(False, description="optimizer states (and with ZeRO-3 weights) in CPU memory")
    lora_rank: int = Field(16, gt=0, le=4096)
    lora_train_embeddings: bool = Field(False, description="also train the embeddings and output head (new tokens)")
    reference_model: bool = Field(False, description="DPO and kin with full fine-tuning: a frozen BF16 copy of the "
                                                     "model scores the pairs (LoRA uses the base with adapters off)")


class TrainingMemoryResult(Explained):
    model: str
    model_id: str
    method: Method
    trainable_params: float
    weights_bytes: float
    gradient_bytes: float
    optimizer_bytes: float
    activation_bytes: float
    overhead_bytes: float
    per_gpu_total_bytes: float
    per_gpu_total_range_bytes: tuple[float, float]
    total_bytes: float
    cpu_bytes: float = 0.0
    gpus: int
    zero: int


def lora_params(model: ModelArch, rank: int) -> float:
    """LoRA adds rank x (in + out) per adapted matrix: q, k, v, o in attention and gate, up, down in
    the MLP (the routed experts of an MoE model are left alone; its attention is adapted)."""
    h = model.hidden_size
    q_out = model.num_attention_heads * model.head_dim
    kv_out = model.num_kv_heads * model.head_dim
    attn = (h + q_out) * 2 + (h + kv_out) * 2
    mlp = 0 if model.is_moe else 3 * (h + model.intermediate_size)
    return float(rank * (attn + mlp) * model.num_layers)


def per_layer_activation_bytes(model: ModelArch, tokens: int) -> float:
    kv_width = model.num_kv_heads * model.head_dim
    mlp = model.intermediate_size * (model.experts_per_token or 1)
    return tokens * 2 * (ACT_H * model.hidden_size + 2 * kv_width + ACT_I * mlp)


def training_memory(inp: TrainingMemoryInput) -> TrainingMemoryResult:
    model = resolve_model(inp.model)
    compute = find_precision(inp.precision)
    if compute.family != "float" or compute.bits_per_weight > 16:
        raise ToolError(f"training computes in bf16 or fp16, not {compute.name}; "
                        "for a quantized base use --method qlora")
    n, stage = inp.gpus, inp.zero
    stage_note = "ZeRO on one GPU shards nothing" if stage and n == 1 else ""
    P = model.total_params_b * 1e9
    terms: list[Term] = []
    assumptions: list[str] = []
    warnings: list[str] = []

    if inp.method == "full":
        trainable = P
        base = find_precision("bf16")
        weights = P * 2
        grads = P * 2
        master = P * 4 if inp.mixed_precision else 0.0
        opt = P * (OPTIMIZER_BYTES_FP32 if inp.mixed_precision else OPTIMIZER_BYTES_BF16)[inp.optimizer]
        weight_formula = "parameters x 2 bytes (BF16 working copy)"
        grad_formula = "parameters x 2 bytes (BF16 gradients)"
    else:
        trainable = lora_params(model, inp.lora_rank)
        if inp.method == "qlora":
            base = find_precision(inp.base_precision or "nf4")
            if base.bits_per_weight > 8:
                raise ToolError(f"QLoRA keeps the base model in 4 or 8 bits, not {base.name}")
        else:
            base = find_precision(inp.base_precision or "bf16")
        weights = arch.weight_bytes(model, base) + trainable * 4
        grads = trainable * 4
        master = 0.0
        opt = trainable * OPTIMIZER_BYTES_FP32[inp.optimizer]
        if inp.lora_train_embeddings:
            # a trainable 16-bit copy of embeddings and head, 16-bit gradients, FP32 optimizer states
            embed = arch.embedding_params(model)
            trainable += embed
            weights += embed * 2
            grads += embed * 2
            opt += embed * OPTIMIZER_BYTES_FP32[inp.optimizer]
            assumptions.append(f"embeddings and output head trained too: {embed / 1e6:,.0f}M more parameters")
        weight_formula = f"frozen base at {base.bits_per_weight:g} bits per weight + adapters x 4 bytes (FP32)"
        grad_formula = "adapter parameters x 4 bytes (FP32 gradients)"
        assumptions.append(f"LoRA rank {inp.lora_rank} on attention{'' if model.is_moe else ' and MLP'} projections: "
                           f"{trainable / 1e6:,.0f}M trainable parameters")

    if inp.reference_model and inp.method == "full":
        weights += P * 2
        assumptions.append("a frozen BF16 reference copy of the model for preference tuning (DPO)")
    opt_states = opt + master
    # Sharding: ZeRO-1 splits optimizer states (with master weights), 2 adds gradients, 3 adds weights.
    shard_opt = n if stage >= 1 else 1
    shard_grad = n if stage >= 2 else 1
    shard_w = n if stage >= 3 else 1
    cpu = 0.0
    gpu_opt = opt_states / shard_opt
    gpu_w = weights / shard_w
    if inp.cpu_offload:
        cpu += opt_states / shard_opt
        gpu_opt = 0.0
        if stage >= 3:
            cpu += weights / shard_w
            gpu_w = 0.0
        assumptions.append("CPU offload: optimizer states" + (" and weights" if stage >= 3 else "")
                           + " live in CPU memory; each step copies them over PCIe")
    gather = 0.0
    if stage >= 3 and (n > 1 or inp.cpu_offload):
        gather = ZERO3_GATHER_LAYERS * weights / model.num_layers
    gpu_grads = grads / shard_grad

    tokens = inp.seq_len * inp.batch
    per_layer = per_layer_activation_bytes(model, tokens)
    if inp.gradient_checkpointing:
        layers_part = tokens * 2 * model.hidden_size * model.num_layers + per_layer
        act_formula = ("tokens x 2 bytes x hidden x layers (checkpointed layer inputs) + one layer recomputed "
                       "+ tokens x vocab x 8 bytes (logits, loss copy, gradient)")
    else:
        layers_part = per_layer * model.num_layers
        act_formula = ("tokens x layers x 2 bytes x (6 x hidden + 2 x KV width + 4 x MLP width) "
                       "+ tokens x vocab x 8 bytes (logits, loss copy, gradient)")
    logits = tokens * model.vocab_size * LOGIT_BYTES
    activations = layers_part + logits

    subtotal = gpu_w + gather + gpu_grads + gpu_opt + activations
    overhead = OVERHEAD_FIXED + OVERHEAD_SHARE * subtotal

    terms += [
        term("weights_bytes", "Weights", gpu_w + gather, "bytes",
             weight_formula + (f" / {shard_w} GPUs (ZeRO-3) + {ZERO3_GATHER_LAYERS} gathered layers" if shard_w > 1 else ""),
             {"parameters": P, "trainable": trainable, "base_bits": base.bits_per_weight}, rel_low=0.02, rel_high=0.02),
        term("gradient_bytes", "Gradients", gpu_grads, "bytes",
             grad_formula + (f" / {shard_grad} GPUs (ZeRO-2+)" if shard_grad > 1 else ""),
             {"trainable": trainable}, rel_low=0.02, rel_high=0.1),
        term("optimizer_bytes", "Optimizer states" + (" (FP32 master included)" if master else ""), gpu_opt, "bytes",
             f"trainable x {OPTIMIZER_BYTES_FP32[inp.optimizer] if inp.mixed_precision or inp.method != 'full' else OPTIMIZER_BYTES_BF16[inp.optimizer]} "
             f"bytes ({inp.optimizer})" + (" + parameters x 4 bytes (FP32 master)" if master else "")
             + (f" / {shard_opt} GPUs (ZeRO-1+)" if shard_opt > 1 else "") + (" -> CPU" if inp.cpu_offload else ""),
             {"trainable": trainable, "optimizer": inp.optimizer}, rel_low=0.02, rel_high=0.05),
        term("activation_bytes", "Activations", activations, "bytes", act_formula,
             {"tokens": tokens, "layers": model.num_layers, "hidden": model.hidden_size, "vocab": model.vocab_size,
              "gradient_checkpointing": inp.gradient_checkpointing}, rel_low=0.3, rel_high=0.5),
        term("overhead_bytes", "CUDA context and allocator", overhead, "bytes",
             f"{OVERHEAD_FIXED / 1e9:g} GB + {OVERHEAD_SHARE:.0%} of the rest (caching allocator, fragmentation)",
             {}, rel_low=0.5, rel_high=0.8),
    ]
    per_gpu = subtotal + overhead
    lo = sum(t.low for t in terms)
    hi = sum(t.high for t in terms)
    assumptions += [
        f"micro-batch {inp.batch} x {inp.seq_len:,} tokens per GPU; flash attention",
        ("mixed precision: BF16 compute, FP32 master weights and optimizer states" if inp.mixed_precision or inp.method != "full"
         else "pure BF16: weights, gradients and optimizer states all in BF16"),
    ]
    if stage_note:
        assumptions.append(stage_note)
    if not inp.gradient_checkpointing and tokens >= 4096:
        warnings.append("gradient checkpointing would cut activation memory sharply at this sequence length")
    return TrainingMemoryResult(
        model=model.name, model_id=model.id, method=inp.method, trainable_params=trainable,
        weights_bytes=gpu_w + gather, gradient_bytes=gpu_grads, optimizer_bytes=gpu_opt,
        activation_bytes=activations, overhead_bytes=overhead,
        per_gpu_total_bytes=per_gpu, per_gpu_total_range_bytes=(lo, hi), total_bytes=per_gpu * n,
        cpu_bytes=cpu, gpus=n, zero=stage, terms=terms, assumptions=assumptions, warnings=warnings,
    )
