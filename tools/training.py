"""Training memory: weights, gradients, optimizer states, activations, sharding and offload."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import Field

from gpu_advisor.knowledge import find_precision, frameworks
from gpu_advisor.knowledge.schema import FrameworkPreset, ModelArch, Precision, TrainingOptimizer
from gpu_advisor.tools import arch
from gpu_advisor.tools.common import (
    MAX_COUNT,
    METHOD_HELP,
    MODEL_HELP,
    SEQ_LEN_HELP,
    Explained,
    Term,
    ToolError,
    ToolInput,
    measured_range,
    term,
)
from gpu_advisor.tools.models import name_only, resolve_model

Method = Literal["full", "lora", "qlora"]
Optimizer = TrainingOptimizer
Loss = Literal["full", "chunked", "fused"]

# The preset a run is sized with when the user names no framework.
DEFAULT_FRAMEWORK = "hf-trainer"
# Full fine-tuning when the user names no framework: the usual recipe (DeepSpeed ZeRO / FSDP mixed
# precision, LLaMA-Factory full SFT) keeps FP32 master weights and FP32 Adam moments beside the 16-bit
# weights and gradients, 2 + 2 + 4 + 8 = 16 bytes per parameter before activations. A named framework
# keeps its own preset (HF Trainer on a model loaded in BF16: pure BF16, 8 bytes per parameter).
DEFAULT_FULL_MIXED_PRECISION = True

# Optimizer state bytes per trained parameter: AdamW keeps two moments, 8-bit AdamW (bitsandbytes,
# paged or not) stores them in one byte each, SGD with momentum keeps one. FP32 states with FP32
# master weights; otherwise the moments take the parameters' dtype (torch.optim creates them with
# zeros_like(param)).
OPTIMIZER_BYTES_FP32 = {"adamw": 8, "adamw-8bit": 2, "paged-adamw-8bit": 2, "sgd": 4}
OPTIMIZER_BYTES_BF16 = {"adamw": 4, "adamw-8bit": 2, "paged-adamw-8bit": 2, "sgd": 2}
# Bytes per logit (token x vocabulary entry) the loss holds at its peak. full: BF16 logits, the
# loss's copy and the gradient (fitted to the Qwen-1 profile, rows 118-198, before presets existed);
# chunked (torchtune CEWithChunkedOutputLoss, 8 chunks): the BF16 logits stay, the FP32 upcast and
# its gradient exist for one chunk at a time, 2 + 8 / 8; fused (Unsloth's fused loss, cut
# cross-entropy): the logits are computed block by block and never held whole.
CHUNKED_LOSS_CHUNKS = 8
LOSS_BYTES: dict[str, float] = {"full": 8.0, "chunked": 2 + 8 / CHUNKED_LOSS_CHUNKS, "fused": 0.0}
LOSS_WORDS = {"full": "logits, loss copy, gradient", "chunked": "BF16 logits + FP32 loss one chunk of 8 at a time",
              "fused": "fused loss: logits never held whole"}
# With checkpoint offload (Unsloth), the layer being recomputed and the next one's input are on the GPU.
OFFLOAD_RESIDENT_LAYERS = 2

# Activation bytes saved per token per layer without recomputation, with flash attention (no
# sequence-squared term): 2 bytes x (ACT_H x hidden + 2 x KV width + ACT_I x MLP width). Counted from
# a SwiGLU block's saved tensors (norm inputs, q/k/v, attention output, gate, up, product).
ACT_H, ACT_I = 6, 4
# Logits under the full loss (see LOSS_BYTES): fitted to the Qwen-1 fine-tuning profile (reference
# training_memory.csv rows 118-198), whose memory grows with sequence length mostly through the
# 151,936-entry vocabulary.
LOGIT_BYTES = LOSS_BYTES["full"]
# CUDA context, allocator caching and fragmentation: a fixed part and a share of everything else.
# Fitted to the same profile.
OVERHEAD_FIXED = 1.0e9
OVERHEAD_SHARE = 0.08
# ZeRO-3 gathers one layer's full weights (plus a prefetched next one) before using it.
ZERO3_GATHER_LAYERS = 2


class TrainingMemoryInput(ToolInput):
    model: str = Field(description=MODEL_HELP)
    method: Method = Field("lora", description=METHOD_HELP)
    framework: str | None = Field(None, description="fine-tuning framework whose defaults apply (hf-trainer, "
                                                    "llama-factory, unsloth, torchtune, torchtune-distributed, "
                                                    "deepspeed, axolotl); default hf-trainer")
    precision: str = Field("bf16", description="compute and weight precision (bf16/fp16): full fine-tuning at bf16 "
                                               "stores bf16 weights; for QLoRA the base format defaults to nf4")
    base_precision: str | None = Field(None, description="QLoRA: format of the frozen base weights "
                                                         "(8-, 4- or 2-bit: int8, nf4, gptq-int4, hqq-int2 ...)")
    mixed_precision: bool | None = Field(None, description="full fine-tuning: FP32 master weights, gradients and "
                                                           "optimizer states; False: all in the precision asked; "
                                                           "default: the framework's")
    optimizer: Optimizer | None = Field(None, description="default: the framework's")
    optimizer_in_backward: bool | None = Field(None, description="full fine-tuning: step each parameter as its "
                                                                 "gradient arrives; default: the framework's")
    seq_len: int = Field(2048, gt=0, le=MAX_COUNT, description=SEQ_LEN_HELP)
    batch: int = Field(1, gt=0, le=MAX_COUNT, description="micro-batch per GPU")
    gradient_checkpointing: bool | None = Field(None, description="recompute activations in backward; "
                                                                  "default: the framework's (on in every preset)")
    checkpoint_offload: bool | None = Field(None, description="keep checkpointed layer inputs in CPU memory "
                                                              "(Unsloth); default: the framework's")
    loss: Loss | None = Field(None, description="full, chunked or fused cross-entropy; default: the framework's")
    gpus: int = Field(1, gt=0, le=1024, description="GPUs training together (data parallel, sharded with zero)")
    zero: Literal[0, 1, 2, 3] | None = Field(None, description="ZeRO stage / FSDP: 1 optimizer, 2 +gradients, "
                                                               "3 +weights; default: the framework's on several GPUs")
    cpu_offload: bool = Field(False, description="optimizer states (and with ZeRO-3 weights) in CPU memory")
    offload_params: bool = Field(True, description="with cpu_offload at ZeRO-3: the weight shards in CPU memory too "
                                                   "(DeepSpeed offload_param); False offloads the optimizer only")
    lora_rank: int = Field(16, gt=0, le=4096, description="LoRA/QLoRA adapter rank r")
    lora_train_embeddings: bool = Field(False, description="also train the embeddings and output head (new tokens)")
    reference_model: bool = Field(False, description="DPO and kin with full fine-tuning: a frozen BF16 copy of the "
                                                     "model scores the pairs (LoRA uses the base with adapters off)")


class TrainingMemoryResult(Explained):
    model: str
    model_id: str
    method: Method
    framework: str = DEFAULT_FRAMEWORK
    trainable_params: int  # a count: whole in JSON (8030000000, never 8029999999.999999)
    weights_bytes: float
    gradient_bytes: float
    optimizer_bytes: float
    activation_bytes: float
    overhead_bytes: float
    per_gpu_total_bytes: float
    per_gpu_total_range_bytes: tuple[float, float]
    total_bytes: float
    cpu_bytes: float = 0.0
    managed_bytes: float = Field(0.0, description="paged optimizer states in CUDA managed memory, outside the "
                                                  "allocator's figures and the per-GPU total; they page to CPU "
                                                  "memory when the GPU is full")
    gpus: int
    zero: int
    state_bytes_per_param: float = Field(0.0, description="weights, gradients, master copy and optimizer states per "
                                                          "trainable parameter, before sharding (full fine-tuning)")
    logit_bytes: float = Field(0.0, description="the part of the activations the loss holds: tokens x vocabulary x "
                                                "bytes per logit (they grow with the sequence length)")


def framework_on(name: str | None, gpus: int) -> FrameworkPreset:
    """The preset a framework runs with on this many GPUs (torchtune's distributed recipe on several)."""
    fw = find_framework(name)
    return find_framework(fw.on_several_gpus) if gpus > 1 and fw.on_several_gpus else fw


def full_ft_mixed(named: str | None, fw: FrameworkPreset, asked: bool | None = None) -> bool:
    """Whether full fine-tuning keeps FP32 master weights and Adam moments: what the user asked, else
    the named framework's preset, else the usual mixed-precision recipe."""
    if asked is not None:
        return asked
    return fw.master_weights_fp32 if named is not None else DEFAULT_FULL_MIXED_PRECISION


def runs_on(stack: str, method: str | None = None, framework: str | None = None,
            base_precision: str | None = None) -> bool:
    """Whether a fine-tuning setup runs on a card's software stack: the framework's stacks, and QLoRA's frozen
    base format's (bitsandbytes NF4: CUDA and ROCm). The one rule every lever and method offered obeys
    (review O3 #11: QLoRA and Unsloth offered for an Ascend 910B)."""
    fw = find_framework(framework)
    if fw.stacks is not None and stack not in fw.stacks:
        return False
    if method == "qlora":
        base = find_precision(base_precision or "nf4")
        if base.training_stacks is not None and stack not in base.training_stacks:
            return False
    return True


def find_framework(name: str | None) -> FrameworkPreset:
    """A framework preset by id or alias (case-insensitive); None is the default, HF Trainer."""
    key = (name or DEFAULT_FRAMEWORK).strip().lower().replace("_", "-")
    for f in frameworks():
        if key == f.id or key in (a.lower() for a in f.aliases) or key.replace("-", " ") in f.aliases:
            return f
    known = ", ".join(f.id for f in frameworks())
    raise ToolError(f"unknown framework '{name}'; known: {known}")


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


def largest_tensor_params(model: ModelArch) -> float:
    """The biggest single weight matrix (embeddings or output head, else an MLP projection): the most
    gradient an optimizer-in-backward step holds at once."""
    return float(max(model.vocab_size * model.hidden_size, model.intermediate_size * model.hidden_size))


def activation_memory(model: ModelArch, tokens: int, ckpt: bool, offload: bool, loss: str) -> tuple[float, float, str]:
    """Activation bytes on the GPU at the peak, bytes offloaded to CPU memory, and the formula."""
    per_layer = per_layer_activation_bytes(model, tokens)
    checkpoints = tokens * 2 * model.hidden_size * model.num_layers
    logit_bytes = LOSS_BYTES[loss]
    logit_words = f"tokens x vocab x {logit_bytes:g} bytes ({LOSS_WORDS[loss]})"
    offloaded = 0.0
    if ckpt and offload:
        resident = tokens * 2 * model.hidden_size * min(OFFLOAD_RESIDENT_LAYERS, model.num_layers)
        layers_part = resident + per_layer
        offloaded = checkpoints - resident
        formula = (f"tokens x 2 bytes x hidden x {OFFLOAD_RESIDENT_LAYERS} layers (checkpoints on the GPU; "
                   "the rest offloaded to CPU) + one layer recomputed + " + logit_words)
    elif ckpt:
        layers_part = checkpoints + per_layer
        formula = ("tokens x 2 bytes x hidden x layers (checkpointed layer inputs) + one layer recomputed + "
                   + logit_words)
    else:
        layers_part = per_layer * model.num_layers
        formula = "tokens x layers x 2 bytes x (6 x hidden + 2 x KV width + 4 x MLP width) + " + logit_words
    return layers_part + tokens * model.vocab_size * logit_bytes, offloaded, formula


@dataclass
class _States:
    """Weights, gradients and optimizer states of one method, before sharding and offload."""

    trainable: float
    base: Precision
    weights: float
    grads: float
    opt: float
    master_bytes: float
    opt_per_param: float
    weight_formula: str
    grad_formula: str
    master: bool = False
    in_bwd: bool = False
    grads_fp32: bool = False


def _full_states(inp: TrainingMemoryInput, fw: FrameworkPreset, model: ModelArch, compute: Precision,
                 optimizer: Optimizer, assumptions: list[str]) -> _States:
    P = model.total_params_b * 1e9
    trainable = P
    base = compute
    master = full_ft_mixed(inp.framework, fw, inp.mixed_precision)
    in_bwd = fw.optimizer_in_backward if inp.optimizer_in_backward is None else inp.optimizer_in_backward
    weights = P * 2
    master_bytes = P * 4 if master else 0.0
    # 16-bit gradients, reduced and handed shard by shard to the FP32 optimizer; DeepSpeed's ZeRO
    # optimizer (and LLaMA-Factory's FP32 trainable copy) keeps its gradients in FP32 instead
    grad_bytes = 4 if master and fw.fp32_gradients else 2
    opt_per_param = (OPTIMIZER_BYTES_FP32 if master else OPTIMIZER_BYTES_BF16)[optimizer]
    opt = P * opt_per_param
    grads = P * grad_bytes
    weight_formula = f"parameters x 2 bytes ({compute.name} weights)"
    grad_formula = f"parameters x {grad_bytes} bytes ({'FP32' if grad_bytes == 4 else compute.name} gradients)"
    if in_bwd:
        grads = largest_tensor_params(model) * grad_bytes
        grad_formula = (f"largest weight matrix x {grad_bytes} bytes: the optimizer steps inside backward, "
                        "so gradients are never all held")
        assumptions.append("optimizer step fused into backward: one tensor's gradient at a time "
                           "(no gradient accumulation)")
    return _States(trainable, base, weights, grads, opt, master_bytes, opt_per_param, weight_formula,
                   grad_formula, master, in_bwd, grad_bytes == 4)


def _adapter_states(inp: TrainingMemoryInput, fw: FrameworkPreset, model: ModelArch, optimizer: Optimizer,
                    assumptions: list[str]) -> _States:
    trainable = lora_params(model, inp.lora_rank)
    if inp.method == "qlora":
        base = find_precision(inp.base_precision or "nf4")
        if base.bits_per_weight > 9 or base.bits_per_weight < 2:
            raise ToolError(f"QLoRA keeps the base model in 8, 4 or 2 bits, not {base.name}")
    else:
        base = find_precision(inp.base_precision or inp.precision)
    adapter = 4 if fw.adapter_dtype == "fp32" else 2
    weights = arch.weight_bytes(model, base) + trainable * adapter
    grads = trainable * adapter
    master_bytes = 0.0
    opt_per_param = (OPTIMIZER_BYTES_FP32 if adapter == 4 else OPTIMIZER_BYTES_BF16)[optimizer]
    opt = trainable * opt_per_param
    if inp.lora_train_embeddings:
        # a trainable 16-bit copy of embeddings and head, 16-bit gradients, FP32 optimizer states
        embed = arch.embedding_params(model)
        trainable += embed
        weights += embed * 2
        grads += embed * 2
        opt += embed * OPTIMIZER_BYTES_FP32[optimizer]
        assumptions.append(f"embeddings and output head trained too: {embed / 1e6:,.0f}M more parameters")
    dtype_word = "FP32" if adapter == 4 else "BF16"
    weight_formula = (f"frozen base at {base.bits_per_weight:g} bits per weight + adapters x {adapter} bytes "
                      f"({dtype_word})")
    grad_formula = f"adapter parameters x {adapter} bytes ({dtype_word} gradients)"
    assumptions.append(f"LoRA rank {inp.lora_rank} on attention{'' if model.is_moe else ' and MLP'} projections: "
                       f"{trainable / 1e6:,.0f}M trainable parameters")
    return _States(trainable, base, weights, grads, opt, master_bytes, opt_per_param, weight_formula, grad_formula)


def training_memory(inp: TrainingMemoryInput) -> TrainingMemoryResult:
    model = resolve_model(inp.model)
    fw = framework_on(inp.framework, inp.gpus)
    compute = find_precision(inp.precision)
    if compute.family != "float" or compute.bits_per_weight > 16 or compute.bits_per_weight < 16:
        raise ToolError(f"training computes in bf16 or fp16, not {compute.name}; "
                        "for a quantized base use --method qlora")
    n = inp.gpus
    stage = inp.zero if inp.zero is not None else (fw.multi_gpu_zero if n > 1 else 0)
    stage_note = "ZeRO on one GPU shards nothing" if stage and n == 1 else ""
    optimizer: Optimizer = inp.optimizer or (fw.optimizer_full if inp.method == "full" else fw.optimizer_adapters)
    ckpt = fw.activation_checkpointing if inp.gradient_checkpointing is None else inp.gradient_checkpointing
    offload_ckpt = ckpt and (fw.checkpoint_offload if inp.checkpoint_offload is None else inp.checkpoint_offload)
    loss: Loss = inp.loss or fw.loss
    P = model.total_params_b * 1e9
    terms: list[Term] = []
    assumptions: list[str] = [
        f"framework: {fw.name}" + (" (the default; name another to change it)" if inp.framework is None else "")
        + f" - {optimizer}, " + ("activation checkpointing" if ckpt else "no activation checkpointing")
        + (" offloaded to CPU" if offload_ckpt else "") + f", {loss} cross-entropy"
    ]
    warnings: list[str] = [w for w in (name_only(model),) if w]  # said first, never only assumed
    paged = optimizer == "paged-adamw-8bit"

    st = (_full_states(inp, fw, model, compute, optimizer, assumptions) if inp.method == "full"
          else _adapter_states(inp, fw, model, optimizer, assumptions))
    trainable, base, weights, grads, opt = st.trainable, st.base, st.weights, st.grads, st.opt
    master_bytes, opt_per_param, master, in_bwd = st.master_bytes, st.opt_per_param, st.master, st.in_bwd
    weight_formula, grad_formula = st.weight_formula, st.grad_formula

    if inp.reference_model and inp.method == "full":
        weights += P * 2
        assumptions.append("a frozen BF16 reference copy of the model for preference tuning (DPO)")
    # Paged 8-bit AdamW keeps its moments in CUDA managed memory: outside the allocator's figures,
    # paged to CPU memory by the driver when the GPU runs short.
    managed = opt if paged else 0.0
    opt_states = (0.0 if paged else opt) + master_bytes
    # Sharding: ZeRO-1 splits optimizer states (with master weights), 2 adds gradients, 3 adds weights.
    shard_opt = n if stage >= 1 else 1
    shard_grad = n if stage >= 2 else 1
    shard_w = n if stage >= 3 else 1
    managed /= shard_opt
    cpu = 0.0
    gpu_opt = opt_states / shard_opt
    gpu_w = weights / shard_w
    if inp.cpu_offload:
        cpu += opt_states / shard_opt + managed
        gpu_opt = 0.0
        managed = 0.0
        if stage >= 3 and inp.offload_params:
            cpu += weights / shard_w
            gpu_w = 0.0
        assumptions.append("CPU offload: optimizer states" + (", gradients" if stage >= 2 else "")
                           + (" and weights" if stage >= 3 and inp.offload_params else "")
                           + " live in CPU memory; each step copies them over PCIe")
    gather = 0.0
    if stage >= 3 and (n > 1 or inp.cpu_offload):
        gather = ZERO3_GATHER_LAYERS * weights / model.num_layers
        shared, _per_expert = arch.expert_split(model)
        if n > 1 and shared < P:
            # a mixture of experts across GPUs is trained with expert parallelism (Megatron, ms-swift, DeepSpeed-MoE):
            # each GPU keeps its own routed experts and the tokens travel to them, so only the attention and
            # shared weights are gathered layer by layer (review N3 #19: +44 GB for DeepSeek-V3 was ZeRO-3 naive)
            gather *= shared / P
            assumptions.append("mixture of experts: expert parallelism, the routed experts stay sharded (not "
                               "gathered); ZeRO-3 gathers only the attention and shared weights")
    gpu_grads = grads / shard_grad if not in_bwd else grads
    if inp.cpu_offload and stage >= 2 and not in_bwd:
        # ZeRO-Offload and FSDP CPUOffload move the gradient shards to CPU memory with the optimizer
        cpu += gpu_grads
        gpu_grads = 0.0

    tokens = inp.seq_len * inp.batch
    activations, offloaded, act_formula = activation_memory(model, tokens, ckpt, offload_ckpt, loss)
    if offloaded:
        cpu += offloaded
        assumptions.append(f"checkpointed layer inputs offloaded to CPU memory: {offloaded / 1e9:,.1f} GB")

    subtotal = gpu_w + gather + gpu_grads + gpu_opt + activations
    overhead = OVERHEAD_FIXED + OVERHEAD_SHARE * subtotal

    opt_label = "Optimizer states" + (" (FP32 master included)" if master else "")
    terms += [
        term("weights_bytes", "Weights", gpu_w + gather, "bytes",
             weight_formula + (f" / {shard_w} GPUs (ZeRO-3) + {ZERO3_GATHER_LAYERS} gathered layers" if shard_w > 1 else ""),
             {"parameters": P, "trainable": trainable, "base_bits": base.bits_per_weight}, rel_low=0.02, rel_high=0.02),
        term("gradient_bytes", "Gradients", gpu_grads, "bytes",
             grad_formula + (f" / {shard_grad} GPUs (ZeRO-2+)" if shard_grad > 1 and not in_bwd else ""),
             {"trainable": trainable}, rel_low=0.02, rel_high=0.1),
        term("optimizer_bytes", opt_label, gpu_opt, "bytes",
             (f"trainable x {opt_per_param:g} bytes ({optimizer})" if not paged
              else f"paged: trainable x {opt_per_param:g} bytes ({optimizer}) in managed memory, not counted here")
             + (" + parameters x 4 bytes (FP32 master)" if master else "")
             + (f" / {shard_opt} GPUs (ZeRO-1+)" if shard_opt > 1 else "") + (" -> CPU" if inp.cpu_offload else ""),
             {"trainable": trainable, "optimizer": optimizer}, rel_low=0.02, rel_high=0.05),
        term("activation_bytes", "Activations", activations, "bytes", act_formula,
             {"tokens": tokens, "layers": model.num_layers, "hidden": model.hidden_size, "vocab": model.vocab_size,
              "gradient_checkpointing": ckpt, "checkpoint_offload": offload_ckpt, "loss": loss},
             rel_low=0.3, rel_high=0.5),
        term("overhead_bytes", "CUDA context and allocator", overhead, "bytes",
             f"{OVERHEAD_FIXED / 1e9:g} GB + {OVERHEAD_SHARE:.0%} of the rest (caching allocator, fragmentation)",
             {}, rel_low=0.5, rel_high=0.8),
    ]
    per_gpu = subtotal + overhead
    # the range of the total is the measured error of this framework's rows in the bench, not the terms'
    (lo, hi), range_words = measured_range(per_gpu, f"fine-tuning memory ({fw.id})",
                                           (sum(t.low for t in terms), sum(t.high for t in terms)))
    if managed:
        terms.append(term("managed_bytes", "Paged optimizer states (managed memory)", managed, "bytes",
                          f"trainable x {opt_per_param:g} bytes ({optimizer}) in CUDA managed memory: outside the "
                          "allocator and the per-GPU total, paged to CPU memory when the GPU is full",
                          {"trainable": trainable}))
        assumptions.append(f"paged 8-bit AdamW: {managed / 1e9:,.1f} GB of optimizer states in managed memory, "
                           "not in the per-GPU total; on a full GPU they page to CPU memory and steps slow down")
    assumptions += [
        f"micro-batch {inp.batch} x {inp.seq_len:,} tokens per GPU; flash attention",
        ("FP32 master weights, FP32 gradients and FP32 optimizer states (mixed precision)"
         if master and st.grads_fp32 else
         f"{compute.name} weights and gradients with FP32 master weights and FP32 optimizer states "
         f"(mixed precision, {2 + 2 + 4 + opt_per_param:g} bytes per parameter"
         + (", loss scaling)" if compute.id == "fp16" else ")") if master
         else f"{compute.name} weights and gradients, optimizer moments in the parameters' dtype (no FP32 master copy)")
        if inp.method == "full" else
        f"frozen {base.name} base; {fw.adapter_dtype.upper()} adapters, gradients and optimizer states",
    ]
    if stage and n > 1 and inp.zero is None:
        assumptions.append(f"{fw.name} shards with {'FSDP full shard (ZeRO-3)' if stage == 3 else f'ZeRO-{stage}'} "
                           f"across {n} GPUs by default")
    if stage_note:
        assumptions.append(stage_note)
    assumptions.append(range_words)
    if not ckpt and tokens >= 4096:
        warnings.append("gradient checkpointing would cut activation memory sharply at this sequence length")
    return TrainingMemoryResult(
        model=model.name, model_id=model.id, method=inp.method, framework=fw.id, trainable_params=round(trainable),
        weights_bytes=gpu_w + gather, gradient_bytes=gpu_grads, optimizer_bytes=gpu_opt,
        activation_bytes=activations, overhead_bytes=overhead, logit_bytes=tokens * model.vocab_size * LOSS_BYTES[loss],
        per_gpu_total_bytes=per_gpu, per_gpu_total_range_bytes=(lo, hi), total_bytes=per_gpu * n,
        cpu_bytes=cpu, managed_bytes=managed, gpus=n, zero=stage, terms=terms, assumptions=assumptions,
        state_bytes_per_param=(st.weights + st.grads + st.opt + st.master_bytes) / trainable if trainable else 0.0,
        warnings=warnings,
    )
