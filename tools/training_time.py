"""Training time and cost of a run: FLOPs per token x tokens / (GPUs x tensor FLOPS x MFU)."""

from __future__ import annotations

from pydantic import Field

from knowledge import find_gpu
from knowledge.schema import Gpu
from tools.common import Explained, ToolInput, term
from tools.cost import Region, try_price
from tools.models import resolve_model
from tools.training import Method, framework_on

# FLOPs per token per active parameter. Full training: 2 forward + 4 backward (activation and
# weight gradients). LoRA/QLoRA skip the frozen weights' gradients: 2 + 2. Gradient checkpointing
# repeats the forward: +2.
FLOPS_PER_PARAM = {"full": 6, "lora": 4, "qlora": 4}
RECOMPUTE_FLOPS_PER_PARAM = 2
# MFU (share of the card's dense BF16 tensor rate doing model FLOPs) per GPU class, calibrated on
# published runs in tests/reference/training_memory.csv, counted with the FLOPs below (recompute
# included):
# - hbm (A100, H100, H200, B200, MI300X ...): the median of the Qwen-1 profile's single-A100 LoRA rows at
#   2,048-8,192 tokens (rows 121-123, 145-147, 172-174: 34-56 %, median 46 %; HF Trainer + PEFT,
#   flash attention). Hopper and Blackwell have no cited run here: they take the A100 figure.
# - gddr (GeForce and workstation Ada/Ampere/Blackwell, L40S, L4, A10 ...): torchtune's RTX 4090 rows
#   (301 full, 303 LoRA, 305 QLoRA: 64-90 %, median 70 %), divided by torchtune's own lead over HF
#   Trainer on the same A100 class (row 307, 70B LoRA on 8 x A100: 59 %, vs the 46 % above: x1.29).
MFU_BY_CLASS = {"hbm": 0.46, "gddr": 0.55}
MFU_ROWS = {"hbm": "Qwen-1 profile rows 121-123, 145-147, 172-174 (A100)",
            "gddr": "torchtune README rows 301, 303, 305 (RTX 4090) over row 307 (A100)"}


def mfu_class(gpu: Gpu) -> str:
    """HBM cards (datacenter A100/H100/H200/B200 class) or GDDR/LPDDR cards (consumer and workstation)."""
    return "hbm" if gpu.memory_type == "hbm" else "gddr"


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


class TrainingTimeInput(ToolInput):
    model: str
    gpu: str
    gpus: int = Field(1, gt=0, le=4096)
    method: Method = "lora"
    tokens: float = Field(gt=0, description="training tokens per epoch (samples x tokens per sample)")
    epochs: float = Field(1.0, gt=0)
    mfu: float | None = Field(None, gt=0, le=1, description="model FLOPs utilisation; default: the GPU class's, "
                                                            "calibrated on published runs")
    framework: str | None = Field(None, description="fine-tuning framework (as for training memory); default "
                                                    "hf-trainer")
    gradient_checkpointing: bool | None = Field(None, description="recompute in backward (+2 FLOPs per parameter-"
                                                                  "token); default: the framework's, as memory "
                                                                  "assumes")
    reference_forward: bool = Field(False, description="DPO and kin: a reference model scores every token too")
    region: Region = "global"


class TrainingTimeResult(Explained):
    model: str
    gpu: str
    gpus: int
    hours: float
    hours_range: tuple[float, float]
    usd: float | None = None
    usd_range: tuple[float, float] | None = None
    mfu: float


def training_time(inp: TrainingTimeInput) -> TrainingTimeResult:
    model = resolve_model(inp.model)
    gpu = find_gpu(inp.gpu)
    fw = framework_on(inp.framework, inp.gpus)
    ckpt = fw.activation_checkpointing if inp.gradient_checkpointing is None else inp.gradient_checkpointing
    klass = mfu_class(gpu)
    mfu = inp.mfu or MFU_BY_CLASS[klass]
    factor = (FLOPS_PER_PARAM[inp.method] + (RECOMPUTE_FLOPS_PER_PARAM if ckpt else 0)
              + (REFERENCE_FLOPS_PER_PARAM if inp.reference_forward else 0))
    effective = mfu * (QLORA_SPEED_FACTOR if inp.method == "qlora" else 1.0) * STACK_TRAINING_EFFICIENCY[gpu.stack]
    if gpu.stack in ("rocm", "cann"):
        assumptions_stack = (f"{gpu.name}: training software reaches about {STACK_TRAINING_EFFICIENCY[gpu.stack]:.0%} "
                             "of the MFU a CUDA card does (public training benchmarks)")
    else:
        assumptions_stack = ""
    warnings: list[str] = []
    assumptions = [
        f"MFU {mfu:.0%} (share of the card's dense BF16 tensor throughput doing useful work)"
        + ("" if inp.mfu else f", the {klass.upper()}-card figure calibrated on {MFU_ROWS[klass]}"),
        f"{factor} FLOPs per active parameter per token: {FLOPS_PER_PARAM[inp.method]} for {inp.method}"
        + (f" + {RECOMPUTE_FLOPS_PER_PARAM} recomputing the forward (activation checkpointing, as {fw.name} "
           "sizes memory)" if ckpt else " (no activation checkpointing)")
        + (f" + {REFERENCE_FLOPS_PER_PARAM} for the reference model" if inp.reference_forward else ""),
    ]
    if assumptions_stack:
        assumptions.append(assumptions_stack)
    if inp.method == "qlora":
        assumptions.append(f"QLoRA dequantizes weights on the fly: {QLORA_SPEED_FACTOR:.0%} of LoRA's speed")
    if inp.gpus > 1 and not gpu.has_nvlink:
        effective *= PCIE_DATA_PARALLEL_FACTOR
        warnings.append(f"{gpu.name} has no NVLink: gradient exchange over PCIe slows multi-GPU training "
                        f"(taken as {PCIE_DATA_PARALLEL_FACTOR:.0%} efficiency)")
    if gpu.segment == "consumer" and inp.gpus > 2:
        warnings.append("consumer cards are a poor base for multi-GPU training at scale: no NVLink, less memory")
    if gpu.china_specific and gpu.bf16_tflops < 200:
        warnings.append(f"{gpu.name} has cut-down compute ({gpu.bf16_tflops:g} TFLOPS BF16): poor value for training")
    total_tokens = inp.tokens * inp.epochs
    flops = factor * model.active_params_b * 1e9 * total_tokens
    seconds = flops / (inp.gpus * gpu.bf16_tflops * 1e12 * effective)
    hours = seconds / 3600
    # MFU is the uncertain input: 0.7x to 1.3x of it moves the time the other way
    hours_range = (hours / 1.3, hours / 0.7)
    terms = [term("training_hours", "Training time", hours, "h",
                  f"{factor} x active parameters x tokens x epochs / (GPUs x BF16 tensor FLOPS x MFU) / 3600",
                  {"flops_per_param_token": factor, "active_parameters": model.active_params_b * 1e9,
                   "tokens": inp.tokens, "epochs": inp.epochs, "gpus": inp.gpus, "tensor_tflops": gpu.bf16_tflops,
                   "mfu": effective, "gradient_checkpointing": ckpt, "framework": fw.id})]
    res = TrainingTimeResult(model=model.name, gpu=gpu.id, gpus=inp.gpus, hours=hours, hours_range=hours_range,
                             mfu=effective, terms=terms, assumptions=assumptions, warnings=warnings)
    quote = try_price(gpu.id, inp.region)
    if quote:
        per_hour = quote.usd_per_gpu_hour_typical * inp.gpus
        res.usd = per_hour * hours
        res.usd_range = (quote.usd_per_gpu_hour_low * inp.gpus * hours_range[0],
                         quote.usd_per_gpu_hour_high * inp.gpus * hours_range[1])
        res.terms.append(term("training_usd", "Cost of the run (rented)", res.usd, "USD",
                          "training hours x GPUs x typical USD per GPU-hour",
                          {"hours": hours, "gpus": inp.gpus, "usd_per_gpu_hour": quote.usd_per_gpu_hour_typical}))
        res.assumptions.append(f"rented at {quote.usd_per_gpu_hour_typical:.2f} USD/GPU-hour (typical, {quote.as_of})")
    return res
