"""Fit and placement: on how many of a given card does a workload fit, and what would make it fit."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from gpu_advisor.knowledge import find_gpu
from gpu_advisor.tools import arch
from gpu_advisor.tools.common import (
    ENGINE_HELP,
    GPU_HELP,
    KV_PRECISION_HELP,
    MAX_COUNT,
    MAX_LIST_ITEMS,
    METHOD_HELP,
    MODEL_HELP,
    PRECISION_HELP,
    SEQ_LEN_HELP,
    Explained,
    ToolInput,
)
from gpu_advisor.tools.inference import Engine, InferenceMemoryInput, inference_memory, usable_bytes
from gpu_advisor.tools.models import resolve_model
from gpu_advisor.tools.training import Method, Optimizer, TrainingMemoryInput, runs_on, training_memory

COUNTS = (1, 2, 4, 8)


class FitInput(ToolInput):
    model: str = Field(description=MODEL_HELP)
    gpu: str = Field(description=GPU_HELP)
    phase: Literal["serve", "train"] = Field("serve", description="serve (inference) or train (fine-tune)")
    counts: list[int] = Field(default_factory=lambda: list(COUNTS), max_length=MAX_LIST_ITEMS,
                              description=f"GPU counts to try; default {', '.join(map(str, COUNTS))}")
    # serving
    precision: str = Field("bf16", description=PRECISION_HELP)
    kv_precision: str | None = Field(None, description="serve: " + KV_PRECISION_HELP)
    context: int = Field(4096, gt=0, le=MAX_COUNT, description="serve: tokens per sequence (prompt + output)")
    batch: int = Field(1, gt=0, le=MAX_COUNT, description="serve: concurrent sequences")
    engine: Engine | None = Field(None, description="serve: " + ENGINE_HELP)
    # training
    method: Method = Field("lora", description="train: " + METHOD_HELP)
    optimizer: Optimizer = Field("adamw", description="train: optimizer (adamw, adamw-8bit, paged-adamw-8bit, sgd)")
    framework: str | None = Field(None, description="train: fine-tuning framework whose defaults apply "
                                                    "(tools.training presets)")
    mixed_precision: bool | None = Field(None, description="train, full: FP32 master weights and Adam states "
                                                           "(16 bytes per parameter); False: pure BF16 (8); None: "
                                                           "the framework's, else mixed precision")
    seq_len: int = Field(2048, gt=0, le=MAX_COUNT, description="train: " + SEQ_LEN_HELP)
    micro_batch: int = Field(1, gt=0, le=MAX_COUNT, description="train: sequences per GPU per step")
    gradient_checkpointing: bool = Field(True, description="train: recompute activations in backward")


class FitOption(BaseModel):
    gpus: int
    fits: bool
    per_gpu_bytes: float
    per_gpu_range_bytes: tuple[float, float]
    capacity_bytes: float
    headroom_bytes: float
    headroom_fraction: float
    setup: str
    warnings: list[str] = []


class Remedy(BaseModel):
    change: str
    per_gpu_bytes: float
    fits: bool
    # the job as asked, done another way (same method and model: a framework, an optimizer, checkpointing, a
    # shorter sequence): when one of these fits, "will it fit?" is answered "yes, with it" (review N3 #9, #15)
    keeps_job: bool = False


class FitResult(Explained):
    model: str
    gpu: str
    phase: Literal["serve", "train"]
    options: list[FitOption]
    smallest_fit: int | None
    valid_tensor_parallel: list[int]
    remedies: list[Remedy] = []


def _serve(inp: FitInput, n: int):
    return inference_memory(InferenceMemoryInput(
        model=inp.model, precision=inp.precision, kv_precision=inp.kv_precision, context=inp.context,
        batch=inp.batch, gpus=n, gpu=inp.gpu, engine=inp.engine))


def _train(inp: FitInput, n: int, **changes):
    args = dict(model=inp.model, method=inp.method, optimizer=inp.optimizer, seq_len=inp.seq_len,
                batch=inp.micro_batch, gradient_checkpointing=inp.gradient_checkpointing, gpus=n,
                zero=3 if n > 1 and inp.method == "full" else 0, framework=inp.framework,
                mixed_precision=inp.mixed_precision)
    args.update(changes)
    return training_memory(TrainingMemoryInput(**args))


def fit(inp: FitInput) -> FitResult:
    model = resolve_model(inp.model)
    gpu = find_gpu(inp.gpu)
    capacity = usable_bytes(gpu)
    options: list[FitOption] = []
    assumptions: list[str] = []
    for n in sorted(set(inp.counts)):
        if inp.phase == "serve":
            r = _serve(inp, n)
            budget = capacity * (0.9 if r.engine == "vllm" else 1.0)
            per_gpu, rng = r.per_gpu_total_bytes, r.per_gpu_total_range_bytes
            fits = bool(r.fits)
            setup = f"{n}-way tensor parallel, {r.engine}" if n > 1 else r.engine
            warnings = [w for w in r.warnings if not w.startswith("does not fit")]
        else:
            r = _train(inp, n)
            budget = capacity
            per_gpu, rng = r.per_gpu_total_bytes, r.per_gpu_total_range_bytes
            fits = per_gpu <= capacity
            setup = f"{inp.method}, {n} GPU(s)" + (f", ZeRO-{r.zero}" if r.zero else "")
            warnings = list(r.warnings)
            if n > 1 and gpu.segment == "consumer":
                warnings.append("consumer cards: no NVLink; multi-GPU training is slow and fragile")
            if gpu.china_specific and gpu.bf16_tflops < 200:
                warnings.append(f"{gpu.name}: cut-down compute makes it poor value for training")
        options.append(FitOption(gpus=n, fits=fits, per_gpu_bytes=per_gpu, per_gpu_range_bytes=rng,
                                 capacity_bytes=budget, headroom_bytes=budget - per_gpu,
                                 headroom_fraction=(budget - per_gpu) / budget, setup=setup, warnings=warnings))
    smallest = next((o.gpus for o in options if o.fits), None)
    remedies = _remedies(inp, capacity) if inp.phase == "train" and not options[0].fits else []
    if inp.phase == "serve":
        assumptions.append(f"serving {inp.batch} sequence(s) x {inp.context:,} tokens in {inp.precision}")
    else:
        assumptions.append(f"{inp.method} fine-tuning, {inp.optimizer}, {inp.micro_batch} x {inp.seq_len:,} tokens per GPU"
                           + (", gradient checkpointing" if inp.gradient_checkpointing else ""))
    return FitResult(model=model.name, gpu=gpu.id, phase=inp.phase, options=options, smallest_fit=smallest,
                     valid_tensor_parallel=arch.valid_tensor_parallel(model), remedies=remedies,
                     assumptions=assumptions)


def _remedies(inp: FitInput, capacity: float) -> list[Remedy]:
    """What would let a training run fit on one card: the arithmetic behind rules of thumb such as
    "80 GB is enough to fully fine-tune 14B", which hold only with some of these changes."""
    tries: list[tuple[str, dict]] = []
    bf16 = find_gpu(inp.gpu).native_bf16  # pure BF16 is no lever on a card without BF16 (V100, T4)
    if inp.method == "full":
        tries += [
            ("8-bit AdamW", {"optimizer": "adamw-8bit"}),
            *([("pure BF16 (no FP32 master weights)", {"mixed_precision": False})]
              if inp.mixed_precision is not False and bf16 else []),
            *([("pure BF16 with 8-bit AdamW (no FP32 master weights)",
                {"optimizer": "adamw-8bit", "mixed_precision": False})] if bf16 else []),
            ("optimizer states offloaded to CPU memory", {"cpu_offload": True}),
            ("LoRA instead of full fine-tuning", {"method": "lora"}),
        ]
    if inp.method in ("lora", "qlora") and inp.framework != "unsloth":
        # the same adapters with Unsloth's kernels, chunked loss and offloaded activations (review N3 #9: a 9B
        # LoRA at 2k fits a 24 GB card that way)
        tries.append((f"{'LoRA' if inp.method == 'lora' else 'QLoRA'} with Unsloth", {"framework": "unsloth"}))
    if inp.method in ("full", "lora"):
        tries.append(("QLoRA (4-bit base)", {"method": "qlora"}))
        # QLoRA with one more change (review K, J3 c14: a 27B QLoRA does fit a 24 GB card): Unsloth's kernels,
        # chunked loss and offloaded activations, or the shorter sequences HF Trainer's activations allow
        tries.append(("QLoRA with Unsloth", {"method": "qlora", "framework": "unsloth"}))
        if inp.seq_len > 1024:
            tries.append(("QLoRA at sequence length 1,024", {"method": "qlora", "seq_len": 1024}))
    if not inp.gradient_checkpointing:
        tries.append(("gradient checkpointing", {"gradient_checkpointing": True}))
    if inp.seq_len > 1024:
        tries.append(("sequence length 1,024", {"seq_len": 1024}))
    stack = find_gpu(inp.gpu).stack
    out = []
    for label, change in tries:
        if not runs_on(stack, change.get("method", inp.method), change.get("framework", inp.framework)):
            continue  # a lever the card's software cannot run (QLoRA, Unsloth on an Ascend card) is none
        r = _train(inp, 1, **change)
        out.append(Remedy(change=label, per_gpu_bytes=r.per_gpu_total_bytes, fits=r.per_gpu_total_bytes <= capacity,
                          keeps_job=not set(change) & {"method", "mixed_precision", "cpu_offload"}))
    return out
