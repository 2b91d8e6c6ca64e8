"""Many LoRA adapters served on one base model (vLLM `--enable-lora --max-loras N --max-lora-rank R
--max-cpu-loras M`; S-LoRA and Punica batch requests of different adapters together).

The base weights are loaded once. An adapter adds two low-rank matrices beside each linear layer it targets:
r x (inputs + outputs) parameters per layer and module, in the model's 16-bit type. vLLM keeps `--max-loras`
adapter slots on each GPU, each sized at `--max-lora-rank` for every linear layer it can adapt (they are
allocated at start, whatever the adapters' own rank), and `--max-cpu-loras` adapters in system memory; an
adapter in neither loads from disk at its first request. `--max-loras` bounds the distinct adapters in one
batch: with requests spread evenly over N adapters, a batch of B requests holds N x (1 - (1 - 1/N)^B) distinct
ones on average, the slots sized here. The throughput a mixed batch gives up against the base model alone is a
band from the published measurements (knowledge/data/multi_lora.yaml), not a point.
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import Field

from gpu_advisor.knowledge import find_gpu
from gpu_advisor.knowledge.multi_lora import multi_lora_cost
from gpu_advisor.knowledge.schema import ModelArch
from gpu_advisor.tools.common import GPU_HELP, MODEL_HELP, Explained, ToolError, ToolInput, term
from gpu_advisor.tools.models import resolve_model

LoraTargets = Literal["all-linear", "attention"]
# Adapters a deployment may name: beyond it a count is a typing slip, not a plan.
MAX_ADAPTERS = 100_000
# LoRA ranks people train: 4 to 256 (PEFT's default 8; vLLM's --max-lora-rank accepts up to 512).
MAX_RANK = 512
ADAPTER_BYTES = 2  # adapters are kept in the base's 16-bit type
# vLLM's --max-lora-rank accepts these values (vllm/config/lora.py MaxLoRARanks): the slots are sized at the next one up.
VLLM_RANKS = (1, 8, 16, 32, 64, 128, 256, 320, 512)
# Requests in flight per copy when none is said: a modest batch of a busy multi-tenant service.
DEFAULT_CONCURRENCY = 16


class MultiLoraInput(ToolInput):
    model: str = Field(description=MODEL_HELP)
    loras: int = Field(gt=0, le=MAX_ADAPTERS, description="LoRA adapters served on the one base model")
    lora_rank: int = Field(16, gt=0, le=MAX_RANK, description="the adapters' rank (r); the largest when they differ")
    targets: LoraTargets | None = Field(None, description="the modules the adapters adapt: all-linear (q, k, v, o, "
                                        "gate, up, down) or attention (q, k, v, o); default: all-linear, attention "
                                        "for a mixture-of-experts model")
    concurrency: int = Field(DEFAULT_CONCURRENCY, gt=0, le=4096, description="requests in flight on one copy of the model")
    gpu: str | None = Field(None, description=GPU_HELP + " (to say what share of its memory the slots take)")
    tp: int = Field(1, gt=0, le=64, description="tensor-parallel GPUs per copy: the slots are split over them")


class MultiLoraResult(Explained):
    model: str
    model_id: str
    loras: int
    lora_rank: int
    max_lora_rank: int = Field(description="--max-lora-rank: the adapters' rank rounded up to a value vLLM accepts")
    targets: LoraTargets
    params_per_adapter: int
    bytes_per_adapter: float = Field(description="one adapter at its own rank, bytes (its file's size, about)")
    concurrency: int = Field(description="requests in flight on one copy")
    distinct_per_batch: float = Field(description="distinct adapters in a batch of `concurrency` requests, even spread")
    max_loras: int = Field(description="--max-loras: adapter slots on the GPU, the distinct adapters of one batch")
    gpu_slot_bytes: float = Field(description="the slots on each GPU: max_loras x max_lora_rank x every adaptable layer")
    max_cpu_loras: int = Field(description="--max-cpu-loras: every adapter kept in system memory")
    cpu_bytes: float = Field(description="system memory for the adapters kept there")
    gpu_share: float | None = Field(None, description="the slots' share of one GPU's memory (None: no GPU said)")
    throughput_cost: tuple[float, float] = Field(description="share of decode throughput lost against the base alone")
    cpu_load_ms: tuple[float, float]
    disk_load_ms: tuple[float, float]
    flags: list[str] = Field(description="vLLM flags for the adapters")


def _modules(model: ModelArch, targets: LoraTargets) -> dict[str, tuple[int, int]]:
    """(inputs, outputs) of each adapted linear layer of one transformer layer."""
    d, q, kv = model.hidden_size, model.num_attention_heads * model.head_dim, model.num_kv_heads * model.head_dim
    mods = {"q_proj": (d, q), "k_proj": (d, kv), "v_proj": (d, kv), "o_proj": (q, d)}
    if targets == "all-linear":
        inter = model.intermediate_size
        mlp = {"up_proj": (d, inter), "down_proj": (inter, d)}
        mods |= ({"gate_proj": (d, inter)} if model.gated_mlp else {}) | mlp
    return mods


def _params(model: ModelArch, targets: LoraTargets, rank: int) -> int:
    return model.num_layers * sum(rank * (i + o) for i, o in _modules(model, targets).values())


def distinct_adapters(loras: int, batch: int) -> float:
    """Distinct adapters among `batch` requests spread evenly over `loras` adapters: N (1 - (1 - 1/N)^B)."""
    return loras * (1 - (1 - 1 / loras) ** batch)


def multi_lora(inp: MultiLoraInput) -> MultiLoraResult:
    model = resolve_model(inp.model)
    if model.encoder:
        raise ToolError(f"{model.name} is an embedding or reranking model: LoRA adapters are served on a generator")
    moe = bool(model.num_experts)
    targets: LoraTargets = inp.targets or ("attention" if moe else "all-linear")
    max_rank = next(r for r in VLLM_RANKS if r >= inp.lora_rank)
    params = _params(model, targets, inp.lora_rank)
    per_adapter = params * ADAPTER_BYTES
    distinct = distinct_adapters(inp.loras, inp.concurrency)
    max_loras = max(1, min(inp.loras, math.ceil(distinct - 1e-9)))
    # the slots cover every linear layer vLLM can adapt (all of them, or attention only on a MoE model's experts)
    slot_targets: LoraTargets = "attention" if moe else "all-linear"
    slots = max_loras * _params(model, slot_targets, max_rank) * ADAPTER_BYTES / inp.tp
    cpu = inp.loras * per_adapter
    share = None
    if inp.gpu is not None:
        gpu = find_gpu(inp.gpu)
        share = slots / (gpu.memory_gb * 1e9)
    cost = multi_lora_cost("vllm")
    low, high = cost.throughput_cost
    if inp.lora_rank > cost.max_rank_in_band:
        low = high  # a rank above the measured band: its high end at least
    flags = ["--enable-lora", "--max-loras", str(max_loras), "--max-lora-rank", str(max_rank),
             "--max-cpu-loras", str(inp.loras)]
    terms = [
        term("bytes_per_adapter", "One adapter", per_adapter, "bytes",
             "layers x sum over adapted modules of rank x (inputs + outputs) x 2 bytes",
             {"layers": model.num_layers, "rank": inp.lora_rank, "targets": targets,
              "modules": ", ".join(_modules(model, targets))}),
        term("distinct_per_batch", "Distinct adapters in a batch", distinct, "adapters",
             "N x (1 - (1 - 1/N)^B): B requests spread evenly over N adapters",
             {"adapters": inp.loras, "requests_in_flight": inp.concurrency}),
        term("gpu_slot_bytes", "Adapter slots per GPU", slots, "bytes",
             "--max-loras x every adaptable layer at --max-lora-rank x 2 bytes / tensor-parallel GPUs",
             {"max_loras": max_loras, "max_lora_rank": max_rank, "tp": inp.tp}),
        term("cpu_bytes", "Adapters in system memory", cpu, "bytes", "adapters x one adapter's bytes",
             {"max_cpu_loras": inp.loras}),
        term("throughput_cost", "Throughput given up", (low + high) / 2, "share",
             "a band read from published multi-LoRA measurements (Punica, S-LoRA, vLLM)",
             {"low": low, "high": high}),
    ]
    terms[-1] = terms[-1].model_copy(update={"low": low, "high": high})
    assumptions = [
        f"adapters of rank {inp.lora_rank} on {targets} layers ({', '.join(_modules(model, targets))}) in 16-bit",
        f"{inp.concurrency} requests in flight per copy, spread evenly over the {inp.loras} adapters "
        "(a few busy tenants need fewer slots)",
        f"{cost.label}: {low:.0%}-{high:.0%} fewer tokens/s than the base model alone at the same batch "
        "(a band from the published measurements, not fitted to ours)",
        f"an adapter outside the CPU cache loads from disk at its first request ({cost.disk_load_ms[0]:.0f}-"
        f"{cost.disk_load_ms[1]:.0f} ms); from system memory {cost.cpu_load_ms[0]:.0f}-{cost.cpu_load_ms[1]:.0f} ms",
    ]
    if moe:
        assumptions.append(f"{model.name} is a mixture-of-experts model: adapters on its attention layers "
                           "(vLLM's LoRA on routed experts is newer and model-specific)")
    warnings = []
    if share is not None and share > 0.1:
        warnings.append(f"the {max_loras} adapter slots take {share:.0%} of each GPU's memory, taken from the KV cache: "
                        "fewer slots (--max-loras) or a lower --max-lora-rank leave more")
    return MultiLoraResult(
        model=model.name, model_id=model.id, loras=inp.loras, lora_rank=inp.lora_rank, max_lora_rank=max_rank,
        targets=targets, params_per_adapter=params, bytes_per_adapter=per_adapter, concurrency=inp.concurrency,
        distinct_per_batch=distinct,
        max_loras=max_loras, gpu_slot_bytes=slots, max_cpu_loras=inp.loras, cpu_bytes=cpu, gpu_share=share,
        throughput_cost=(low, high), cpu_load_ms=cost.cpu_load_ms, disk_load_ms=cost.disk_load_ms, flags=flags,
        terms=terms, assumptions=assumptions, warnings=warnings)
