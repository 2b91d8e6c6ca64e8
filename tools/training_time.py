"""Training time and cost of a run: FLOPs per token x tokens / (GPUs x tensor FLOPS x MFU)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from gpu_advisor.knowledge import find_gpu
from gpu_advisor.knowledge.loader import training_efficiency
from gpu_advisor.knowledge.schema import Gpu, ModelArch, TrainingMfu, TrainingWorkload
from gpu_advisor.tools.common import (
    EPOCHS_HELP,
    GPU_HELP,
    METHOD_HELP,
    MODEL_HELP,
    REGION_HELP,
    Explained,
    Term,
    ToolInput,
    measured_range,
    term,
)
from gpu_advisor.tools.cost import Region, try_price
from gpu_advisor.tools.models import resolve_model
from gpu_advisor.tools.rl_sync import NETWORK_EFFICIENCY, server_sync
from gpu_advisor.tools.training import Method, framework_on, lora_params

# FLOPs per token per active parameter. Full training: 2 forward + 4 backward (activation and
# weight gradients). LoRA/QLoRA skip the frozen weights' gradients: 2 + 2. Gradient checkpointing
# repeats the forward: +2. Pretraining is counted as 6 x N x D whatever is recomputed: its MFU is
# fitted on that count (MosaicML's and torchtitan's MFU convention), so the recompute is inside it.
FLOPS_PER_PARAM = {"full": 6, "lora": 4, "qlora": 4}
RECOMPUTE_FLOPS_PER_PARAM = 2
PRETRAIN_FLOPS_PER_PARAM = 6
# Attention's own matmuls (QK^T and AV) per token per layer, forward: 4 x attention width x the tokens it
# attends to (MosaicML llm-foundry benchmarking README, after Korthikanti et al. 2022: full, not causal-
# halved); backward twice that for every method (no weights, but LoRA still needs the activation
# gradients), and the recompute adds one more forward.
ATTENTION_FORWARD_FLOPS = 4
# The MFU table (knowledge/data/training_mfu.yaml) is fitted with these FLOPs counted: a run's
# MFU is the share of the card's dense BF16 tensor rate doing them.


def mfu_record(gpu: Gpu, workload: TrainingWorkload) -> TrainingMfu:
    """The first MFU class of the table that matches this card for this workload."""
    for c in training_efficiency().classes:
        if c.workload == workload and c.matches(gpu):
            return c
    raise LookupError(f"no {workload} MFU class matches {gpu.id}")  # pragma: no cover (the loader checks)


def framework_factor(framework_id: str) -> float:
    """How much faster a framework fine-tunes than HF Trainer + PEFT (1.0 where nothing is measured)."""
    return next((f.factor for f in training_efficiency().frameworks if f.framework == framework_id), 1.0)


# Preference tuning (DPO and kin) scores each sequence with a frozen reference model: one more forward.
REFERENCE_FLOPS_PER_PARAM = 2
# QLoRA dequantizes the 4-bit base on every multiply; it runs at about this share of LoRA's speed.
QLORA_SPEED_FACTOR = 0.75
# Training throughput reached off CUDA, as a share of the datasheet-based MFU: public training
# benchmarks (SemiAnalysis, "MI300X vs H100 vs H200 Benchmark Part 1: Training", Dec 2024) found the
# MI300X below the H100 in achieved BF16 training throughput despite its higher datasheet figure;
# Ascend training likewise depends on CANN kernels. Approximate: the range below covers it.
# Intel Gaudi 3 ("gaudi") likewise trains through its own graph compiler (Optimum Habana, DeepSpeed fork)
# and throttles under sustained BF16 matmuls (SqueezeBits, "[Intel Gaudi] #6. GEMM, Attention, vLLM on
# Gaudi", Oct 2025): the same share as ROCm and CANN.
STACK_TRAINING_EFFICIENCY = {"cuda": 1.0, "rocm": 0.6, "cann": 0.6, "metal": 1.0, "gaudi": 0.6}
# Multi-GPU data parallel without NVLink: gradient all-reduce over PCIe costs this share of MFU.
PCIE_DATA_PARALLEL_FACTOR = 0.7
# A full fine-tune sharded (FSDP / ZeRO-3) over several servers: each micro-batch gathers every weight twice
# (forward and backward) and reduce-scatters the trainable gradients, and the share of those bytes held
# on other servers crosses the network between them. A micro-batch is one sequence per GPU. LoRA and QLoRA run
# data parallel across the servers instead (HSDP: the frozen base and the adapters' states sharded over each
# server's cards, replicated across servers): only the adapters' gradients cross, one all-reduce a micro-batch
# (tools.rl_sync.server_sync). Ethernet reaches NETWORK_EFFICIENCY of its line rate (NCCL over TCP, no RDMA).
GATHERS_PER_MICRO_BATCH = 2
DEFAULT_SEQ_LEN = 2048
BYTES_PER_WEIGHT = {"full": 2.0, "lora": 2.0, "qlora": 0.5}  # the base as it is held and gathered


class TrainingTimeInput(ToolInput):
    model: str = Field(description=MODEL_HELP)
    gpu: str = Field(description=GPU_HELP)
    gpus: int = Field(1, gt=0, le=4096, description="GPUs training together")
    method: Method = Field("lora", description=METHOD_HELP)
    tokens: float = Field(gt=0, description="training tokens per epoch (samples x tokens per sample)")
    epochs: float = Field(1.0, gt=0, description=EPOCHS_HELP)
    mfu: float | None = Field(None, gt=0, le=1, description="model FLOPs utilisation; default: the GPU class's, "
                                                            "calibrated on published runs")
    framework: str | None = Field(None, description="fine-tuning framework (as for training memory); default "
                                                    "hf-trainer")
    gradient_checkpointing: bool | None = Field(None, description="recompute in backward (+2 FLOPs per parameter-"
                                                                  "token); default: the framework's, as memory "
                                                                  "assumes")
    reference_forward: bool = Field(False, description="DPO and kin: a reference model scores every token too")
    pretraining: bool = Field(False, description="training from scratch: 6 x parameters x tokens, the pretraining MFU "
                                                 "(all weights train; method is ignored)")
    seq_len: int | None = Field(None, gt=0, le=4_194_304, description="tokens per sequence: counts attention's own "
                                                                      "FLOPs (left out when not given)")
    lora_rank: int = Field(16, gt=0, le=4096, description="LoRA/QLoRA adapter rank (their gradients cross between "
                                                          "servers)")
    servers: int = Field(1, ge=1, le=512, description="servers the GPUs span (for the network between them)")
    network_gbit_per_s: float | None = Field(None, gt=0, description="each server's link to the others, Gb/s, when "
                                                                     "it may limit the run (Ethernet); None: a fast "
                                                                     "fabric that keeps up (InfiniBand, RoCE)")
    precision: Literal["bf16", "fp16", "fp8"] = Field("bf16", description="fp8: FP8 linears (Transformer Engine / "
                                                                           "torchao Float8) on cards with FP8 tensor "
                                                                           "cores; fp16: FP16 AMP on cards without BF16")
    region: Region = Field("global", description=REGION_HELP)
    usd_per_gpu_hour: float | None = Field(None, gt=0, description="the rent the user was quoted per card-hour: the "
                                                                   "run is priced at it; default: the typical price")


class TrainingTimeResult(Explained):
    model: str
    gpu: str
    gpus: int
    hours: float
    hours_range: tuple[float, float]
    usd: float | None = None
    usd_range: tuple[float, float] | None = None
    mfu: float


def attention_width(model: ModelArch) -> int:
    return model.num_attention_heads * model.head_dim


def attention_flops_per_token(model: ModelArch, seq_len: int, recompute: bool) -> float:
    """Attention's QK^T and AV matmuls per training token: forward + 2 x backward (+ a recomputed forward);
    sliding-window layers attend to at most their window, layers without attention to nothing."""
    window = min(seq_len, model.sliding_window or seq_len)
    full_layers = model.num_layers - model.sliding_layers - model.recurrent_layers
    attended = full_layers * seq_len + model.sliding_layers * window
    passes = 3 + (1 if recompute else 0)
    return passes * ATTENTION_FORWARD_FLOPS * attention_width(model) * attended


def training_time(inp: TrainingTimeInput) -> TrainingTimeResult:
    return training_time_of(resolve_model(inp.model), inp)


def _flops_factor(inp: TrainingTimeInput, ckpt: bool) -> tuple[int, str]:
    if inp.pretraining:
        return PRETRAIN_FLOPS_PER_PARAM, (f"{PRETRAIN_FLOPS_PER_PARAM} FLOPs per active parameter per token "
                                          "(pretraining, 6 x N x D: recompute is inside the pretraining MFU)")
    factor = (FLOPS_PER_PARAM[inp.method] + (RECOMPUTE_FLOPS_PER_PARAM if ckpt else 0)
              + (REFERENCE_FLOPS_PER_PARAM if inp.reference_forward else 0))
    return factor, (f"{factor} FLOPs per active parameter per token: {FLOPS_PER_PARAM[inp.method]} for {inp.method}"
                    + (f" + {RECOMPUTE_FLOPS_PER_PARAM} recomputing the forward (activation checkpointing)" if ckpt
                       else " (no activation checkpointing)")
                    + (f" + {REFERENCE_FLOPS_PER_PARAM} for the reference model" if inp.reference_forward else ""))


def _efficiency(inp: TrainingTimeInput, gpu: Gpu, fw_id: str, assumptions: list[str]) -> float:
    """The MFU the run reaches: the class's (or the stated one) x framework, QLoRA, FP8 and stack factors."""
    table = training_efficiency()
    workload: TrainingWorkload = "pretrain" if inp.pretraining else "fine-tune"
    record = mfu_record(gpu, workload)
    mfu = inp.mfu or record.mfu
    assumptions.append(f"MFU {mfu:.0%} (share of the card's dense BF16 tensor throughput doing useful work)"
                       + ("" if inp.mfu else f", fitted on published runs ({record.id}: {record.source})"))
    effective = mfu
    if not inp.mfu and not inp.pretraining and (factor := framework_factor(fw_id)) != 1.0:
        effective *= factor
        assumptions.append(f"{fw_id} trains {factor:.2f}x as fast as HF Trainer on the same card (published runs)")
    if inp.method == "qlora" and not inp.pretraining:
        # applied to the weight matmuls only (training_time): attention's own matmuls read no quantized weight
        assumptions.append(f"QLoRA dequantizes weights on the fly: its weight matmuls run at {QLORA_SPEED_FACTOR:.0%} "
                           "of LoRA's speed")
    if inp.precision == "fp8" and gpu.fp8_tflops:
        effective *= table.fp8_speedup
        assumptions.append(f"FP8 linears: {table.fp8_speedup:.2f}x the BF16 run ({table.fp8_fitted_on})")
    elif inp.precision == "fp8":
        assumptions.append(f"{gpu.name} has no FP8 tensor cores: trains at its BF16 rate")
    stack = STACK_TRAINING_EFFICIENCY[gpu.stack]
    if stack != 1.0:
        effective *= stack
        assumptions.append(f"{gpu.name}: training software reaches about {stack:.0%} of the MFU a CUDA card does "
                           "(public training benchmarks)")
    return effective


def pcie_penalty(inp: TrainingTimeInput, gpu: Gpu) -> bool:
    """Whether the run's gradient exchange crosses PCIe at a cost (PCIE_DATA_PARALLEL_FACTOR): several cards
    without NVLink training every weight. LoRA and QLoRA exchange only their adapters' gradients (megabytes a
    step), and the frozen base's gathers are prefetched behind the compute, so they pay nothing measurable."""
    trains_all = inp.pretraining or inp.method == "full"
    return inp.gpus > 1 and not gpu.has_nvlink and trains_all


def _warnings(inp: TrainingTimeInput, gpu: Gpu) -> list[str]:
    warnings: list[str] = []
    if pcie_penalty(inp, gpu) and gpu.interconnect == "nvlink-bridge":
        warnings.append(f"{gpu.name} joins cards only in pairs, through an NVLink bridge where one is fitted: the time "
                        f"assumes gradient exchange over PCIe, which slows multi-GPU training (taken as "
                        f"{PCIE_DATA_PARALLEL_FACTOR:.0%} efficiency)")
    elif pcie_penalty(inp, gpu):
        warnings.append(f"{gpu.name} has no NVLink: gradient exchange over PCIe slows multi-GPU training "
                        f"(taken as {PCIE_DATA_PARALLEL_FACTOR:.0%} efficiency)")
    if gpu.segment == "consumer" and inp.gpus > 2:
        warnings.append("consumer cards are a poor base for multi-GPU training at scale: no NVLink switch between "
                        "them, less memory")
    if inp.precision == "fp16" and not gpu.native_bf16:
        warnings.append(f"{gpu.name} has no BF16 support (FP16 tensor cores only): sized as fp16 mixed precision "
                        "(AMP, with loss scaling) instead of bf16, at its FP16 rate")
    if inp.precision == "bf16" and not gpu.native_bf16:
        warnings.append(f"{gpu.name} has no BF16 support (FP16 tensor cores only): train in fp16 mixed precision "
                        "(with loss scaling) or fp32 instead of bf16; the time uses its FP16 rate")
    if gpu.china_specific and gpu.bf16_tflops < 200:
        warnings.append(f"{gpu.name} has cut-down compute ({gpu.bf16_tflops:g} TFLOPS BF16): poor value for training")
    return warnings


def adapters_exchanged(model: ModelArch, inp: TrainingTimeInput) -> tuple[float, float]:
    """A LoRA or QLoRA run's trainable parameters (the adapters, at the rank memory sizes) and the bytes each of
    their gradients takes as the framework keeps them (FP32 or BF16 adapters)."""
    fw = framework_on(inp.framework, inp.gpus)
    return lora_params(model, inp.lora_rank), 4.0 if fw.adapter_dtype == "fp32" else 2.0


def _network_term(model: ModelArch, inp: TrainingTimeInput) -> Term:
    """Seconds the network between servers needs for the run, per micro-batch (one sequence per GPU) times the
    micro-batches. A full fine-tune (ZeRO-3 over all the cards): the weights gathered twice and the trainable
    gradients reduce-scattered, of which the share held on the other servers crosses each server's link. LoRA and
    QLoRA (data parallel across the servers): one all-reduce of the adapters' gradients (tools.rl_sync)."""
    method = "full" if inp.pretraining else inp.method
    seq = inp.seq_len or DEFAULT_SEQ_LEN
    micro_batches = inp.tokens * inp.epochs / (inp.gpus * seq)
    gbit = inp.network_gbit_per_s or 0.0
    if method != "full":
        trainable, per_grad = adapters_exchanged(model, inp)
        sync = server_sync(trainable, inp.servers, gbit, per_grad)
        return term("network_seconds", "Time on the network between servers", micro_batches * sync.seconds_per_step,
                    "s", "micro-batches x 2 x (servers - 1) / servers x adapter gradient bytes / (link Gb/s / 8 x "
                    "efficiency)",
                    {"micro_batches": micro_batches, "bytes_per_micro_batch": sync.gradient_bytes,
                     "seconds_per_micro_batch": sync.seconds_per_step, "servers": inp.servers, "gbit_per_s": gbit,
                     "efficiency": NETWORK_EFFICIENCY, "seq_len": seq, "layout": "data_parallel"})
    params = model.total_params_b * 1e9
    per_micro = (GATHERS_PER_MICRO_BATCH * params * BYTES_PER_WEIGHT[method] + params * 2) \
        * (inp.servers - 1) / inp.servers
    rate = gbit * 1e9 / 8 * NETWORK_EFFICIENCY
    return term("network_seconds", "Time on the network between servers", micro_batches * per_micro / rate, "s",
                "micro-batches x (2 x weight bytes + trainable gradient bytes) x (servers - 1) / servers / "
                "(link Gb/s / 8 x efficiency)",
                {"micro_batches": micro_batches, "bytes_per_micro_batch": per_micro,
                 "seconds_per_micro_batch": per_micro / rate, "servers": inp.servers, "gbit_per_s": gbit,
                 "efficiency": NETWORK_EFFICIENCY, "seq_len": seq, "layout": "zero3"})


def training_time_of(model: ModelArch, inp: TrainingTimeInput) -> TrainingTimeResult:
    """training_time for a model already resolved (the bench scores published runs of models the catalog
    does not hold this way)."""
    gpu = find_gpu(inp.gpu)
    fw = framework_on(inp.framework, inp.gpus)
    ckpt = fw.activation_checkpointing if inp.gradient_checkpointing is None else inp.gradient_checkpointing
    factor, flops_text = _flops_factor(inp, ckpt)
    assumptions: list[str] = []
    effective = _efficiency(inp, gpu, fw.id, assumptions)
    assumptions.insert(1, flops_text + ("" if inp.pretraining or not ckpt else f", as {fw.name} sizes memory"))
    attention = 0.0
    if inp.seq_len:
        attention = attention_flops_per_token(model, inp.seq_len, ckpt and not inp.pretraining)
        assumptions.insert(2, f"attention's own matmuls at {inp.seq_len:,} tokens per sequence: "
                              f"{attention / 1e9:,.1f} GFLOPs per token")
    else:
        assumptions.insert(2, "attention's own matmuls not counted (no sequence length given)")
    warnings = _warnings(inp, gpu)
    if pcie_penalty(inp, gpu):
        effective *= PCIE_DATA_PARALLEL_FACTOR
    total_tokens = inp.tokens * inp.epochs
    # QLoRA's dequantization slows the weight matmuls only; with it on the whole step (attention included) a
    # QLoRA run cost more than full fine-tuning of the same model (review L1 c15)
    dequant = QLORA_SPEED_FACTOR if inp.method == "qlora" and not inp.pretraining else 1.0
    flops_per_token = factor * model.active_params_b * 1e9 / dequant + attention
    seconds = flops_per_token * total_tokens / (inp.gpus * gpu.bf16_tflops * 1e12 * effective)
    if inp.servers > 1 and inp.network_gbit_per_s:
        network = _network_term(model, inp)
        terms_net = [network, term("compute_hours", "Compute time alone", seconds / 3600, "h",
                                   "training time with a network that keeps up", {"seconds": seconds})]
        if network.value > seconds:
            warnings.append(f"the network between the {inp.servers} servers ({inp.network_gbit_per_s:g} Gb/s) "
                            f"limits this run: {network.value / 3600:,.1f} h moving weights and gradients against "
                            f"{seconds / 3600:,.1f} h of compute")
            seconds = network.value
    else:
        terms_net = []
    hours = seconds / 3600
    # the hours' range: the measured error of published runs of this workload (bench residuals); without
    # them, 0.7x to 1.3x of the MFU, which moves the time the other way
    hours_range, range_words = measured_range(hours, f"training time ({'pretrain' if inp.pretraining else 'fine-tune'})",
                                              (hours / 1.3, hours / 0.7), "0.7x to 1.3x of the MFU")
    assumptions.append(range_words)
    terms = [term("training_hours", "Training time", hours, "h",
                  f"({factor} x active parameters + attention FLOPs) x tokens x epochs / (GPUs x BF16 tensor FLOPS "
                  "x MFU) / 3600",
                  {"flops_per_param_token": factor, "active_parameters": model.active_params_b * 1e9,
                   "attention_flops_per_token": attention, "tokens": inp.tokens, "epochs": inp.epochs,
                   "gpus": inp.gpus, "tensor_tflops": gpu.bf16_tflops, "mfu": effective,
                   "qlora_weight_matmul_speed": dequant,
                   "gradient_checkpointing": ckpt, "framework": fw.id, "pretraining": inp.pretraining})]
    terms += terms_net
    res = TrainingTimeResult(model=model.name, gpu=gpu.id, gpus=inp.gpus, hours=hours, hours_range=hours_range,
                             mfu=effective, terms=terms, assumptions=assumptions, warnings=warnings)
    price = _run_price(inp, gpu.id)
    if price is not None:  # the user's own rent (one bill, at their price, everywhere), else the market's typical
        typical, low, high, basis, said = price
        res.usd = typical * inp.gpus * hours
        res.usd_range = (low * inp.gpus * hours_range[0], high * inp.gpus * hours_range[1])
        res.terms.append(term("training_usd", "Cost of the run (rented)", res.usd, "USD",
                              f"training hours x GPUs x {basis}",
                              {"hours": hours, "gpus": inp.gpus, "usd_per_gpu_hour": typical}))
        res.assumptions.append(f"rented at {typical:.2f} USD/GPU-hour ({said})")
    return res


def _run_price(inp: TrainingTimeInput, gpu_id: str) -> tuple[float, float, float, str, str] | None:
    """The rent a run is priced at: the user's quote (its own low and high), else the market's typical with its
    spread; with the formula's wording and what the assumption says of it. None when neither is known."""
    if inp.usd_per_gpu_hour is not None:
        q = inp.usd_per_gpu_hour
        return q, q, q, "the USD per GPU-hour you were quoted", "your quote"
    quote = try_price(gpu_id, inp.region)
    if not quote:
        return None
    return (quote.usd_per_gpu_hour_typical, quote.usd_per_gpu_hour_low, quote.usd_per_gpu_hour_high,
            "typical USD per GPU-hour", f"typical, {quote.as_of}")
