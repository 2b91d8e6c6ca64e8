"""Decode and prefill speed from memory bandwidth and tensor throughput.

Decode reads every active weight (and the batch's KV cache) once per step, so it is bandwidth-bound
until the batch is large enough that the multiply-adds take longer than the reads. Prefill pushes a
whole prompt through at once and is compute-bound.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from knowledge import find_gpu, find_precision
from knowledge.schema import Gpu, ModelArch, Precision
from tools import arch
from tools.common import Explained, ToolError, term
from tools.inference import Engine, default_engine, kv_precision_for
from tools.models import resolve_model

# Per-engine efficiencies. Fitted constants name their data.
# bandwidth_eff: share of peak memory bandwidth a decode step achieves; step_overhead_s: fixed time
# per decode step (kernel launches, sampling, Python), per layer.
# prefill_mfu: share of dense tensor throughput reached on the matrix multiplies during prefill;
# attn_eff: efficiency of the attention part relative to that.
ENGINE_EFFICIENCY = {
    # llama.cpp: fitted to llama-bench tg/pp for Llama-3-8B Q4_K_M and F16 on 16 NVIDIA GPUs
    # (reference throughput.csv rows 1-464, XiongjieDai GPU-Benchmarks-on-LLM-Inference).
    "llama.cpp": {"bandwidth_eff": 0.80, "step_overhead_s_per_layer": 40e-6, "prefill_mfu": 0.45, "attn_eff": 0.25},
    # vLLM: efficiencies typical of its CUDA-graph decode and FlashAttention prefill.
    "vllm": {"bandwidth_eff": 0.80, "step_overhead_s_per_layer": 10e-6, "prefill_mfu": 0.55, "attn_eff": 0.5},
    # transformers generate(): Python per-layer dispatch dominates small models; fitted to the Qwen2.5
    # speed benchmark (reference throughput.csv rows 960-1218).
    "transformers": {"bandwidth_eff": 0.70, "step_overhead_s_per_layer": 700e-6, "prefill_mfu": 0.45, "attn_eff": 0.5},
}
# Tensor-parallel all-reduce cost: two per layer per step, latency plus bytes over the link.
ALLREDUCE_LATENCY_S = {"nvlink": 8e-6, "pcie": 30e-6}
PCIE_GBPS = {3: 12.0, 4: 25.0, 5: 50.0}
# llama.cpp splits layers across GPUs (pipeline): one GPU works at a time; each hop costs this.
LLAMACPP_HOP_S = 0.25e-3


class SpeedInput(BaseModel):
    model: str
    precision: str = "bf16"
    gpu: str
    gpus: int = Field(1, gt=0, le=64)
    batch: int = Field(1, gt=0, description="sequences decoded together")
    context: int = Field(2048, gt=0, description="tokens in each sequence's context while decoding; prompt length for prefill")
    engine: Engine | None = None
    kv_precision: str | None = None


class SpeedResult(Explained):
    model: str
    gpu: str
    gpus: int
    engine: Engine
    batch: int
    context: int
    decode_tokens_per_s: float = Field(description="per sequence")
    decode_tokens_per_s_range: tuple[float, float]
    aggregate_decode_tokens_per_s: float
    prefill_tokens_per_s: float
    prefill_tokens_per_s_range: tuple[float, float]
    time_to_first_token_s: float
    bound: Literal["memory bandwidth", "compute"]


def tensor_tflops(gpu: Gpu, precision: Precision) -> float:
    if precision.compute == "fp8" and gpu.fp8_tflops:
        return gpu.fp8_tflops
    return gpu.bf16_tflops


def link(gpu: Gpu) -> tuple[str, float]:
    """(kind, GB/s one direction) of the path between two GPUs of this kind."""
    if gpu.interconnect in ("nvlink", "infinity-fabric") and gpu.nvlink_gbps:
        return "nvlink", gpu.nvlink_gbps / 2
    if gpu.interconnect == "nvlink-bridge" and gpu.nvlink_gbps:
        return "nvlink", gpu.nvlink_gbps / 2
    return "pcie", PCIE_GBPS.get(gpu.pcie_gen or 4, 25.0)


def speed(inp: SpeedInput) -> SpeedResult:
    model = resolve_model(inp.model)
    precision = find_precision(inp.precision)
    gpu = find_gpu(inp.gpu)
    engine: Engine = inp.engine or default_engine(precision)
    if engine not in precision.engines:
        raise ToolError(f"{precision.name} weights do not run on {engine}; engines for it: {', '.join(precision.engines)}")
    kv = kv_precision_for(precision, inp.kv_precision, engine)
    eff = ENGINE_EFFICIENCY[engine]
    n = inp.gpus
    assumptions: list[str] = []
    warnings: list[str] = []

    # ---- decode ----
    params_read = arch.params_read_per_step(model, inp.batch)
    weight_read = arch.weight_bytes(model, precision, params_read)
    kv_read = arch.kv_cache_bytes(model, kv.kv_bits or 16, inp.context, inp.batch, latent_mla=engine != "transformers")
    bw = gpu.memory_bandwidth_gbps * 1e9 * eff["bandwidth_eff"]
    flops_peak = tensor_tflops(gpu, precision) * 1e12
    active = model.active_params_b * 1e9
    attn_flops = 4 * model.num_layers * inp.context * model.num_attention_heads * model.head_dim
    step_flops = inp.batch * (2 * active + attn_flops)
    overhead = eff["step_overhead_s_per_layer"] * model.num_layers

    if engine == "llama.cpp" or n == 1:
        # llama.cpp's default split puts whole layers on each GPU: one works while the others wait.
        mem_time = (weight_read + kv_read) / bw
        compute_time = step_flops / (flops_peak * eff["prefill_mfu"])
        comm_time = (n - 1) * LLAMACPP_HOP_S if n > 1 else 0.0
        if n > 1:
            assumptions.append("llama.cpp splits layers across GPUs: more cards add memory, not decode speed")
    else:
        mem_time = (weight_read / n + kv_read / arch.kv_shards(model, n)) / bw
        compute_time = step_flops / (n * flops_peak * eff["prefill_mfu"])
        kind, gbps = link(gpu)
        msg = inp.batch * model.hidden_size * 2
        comm_time = 2 * model.num_layers * (ALLREDUCE_LATENCY_S[kind] + 2 * (n - 1) / n * msg / (gbps * 1e9))
        if kind == "pcie":
            warnings.append(f"{gpu.name} has no NVLink: the {2 * model.num_layers} all-reduces per token go over PCIe")
    step = max(mem_time, compute_time) + overhead + comm_time
    bound = "memory bandwidth" if mem_time >= compute_time else "compute"
    per_seq = 1 / step
    # the step overhead is the least certain part: range from half to double of it
    fast = 1 / (max(mem_time, compute_time) * 0.9 + overhead * 0.5 + comm_time)
    slow = 1 / (max(mem_time, compute_time) * 1.15 + overhead * 2 + comm_time * 1.5)

    # ---- prefill ----
    prompt = inp.context
    tp = n if engine != "llama.cpp" else 1
    dense_flops = 2 * active
    prefill_attn = 4 * model.num_layers * (prompt / 2) * model.num_attention_heads * model.head_dim
    if model.sliding_layers:
        window = min(prompt / 2, model.sliding_window or prompt)
        prefill_attn = 4 * model.head_dim * model.num_attention_heads * (
            (model.num_layers - model.sliding_layers) * prompt / 2 + model.sliding_layers * window)
    t_token = (dense_flops / eff["prefill_mfu"] + prefill_attn / (eff["prefill_mfu"] * eff["attn_eff"])) / (flops_peak * tp)
    if tp > 1:
        kind, gbps = link(gpu)
        t_token += 2 * model.num_layers * 2 * (tp - 1) / tp * model.hidden_size * 2 / (gbps * 1e9)
    prefill = 1 / t_token
    ttft = prompt / prefill + step

    terms = [
        term("decode_tokens_per_s", "Decode speed per sequence", per_seq, "tokens/s",
             "1 / (max(bytes read per step / (bandwidth x efficiency), FLOPs per step / (tensor FLOPS x efficiency)) "
             "+ per-step overhead + GPU-to-GPU communication)",
             {"weight_bytes_read": weight_read, "kv_bytes_read": kv_read, "bandwidth_gbps": gpu.memory_bandwidth_gbps,
              "bandwidth_efficiency": eff["bandwidth_eff"], "tensor_tflops": flops_peak / 1e12,
              "step_overhead_s": overhead, "communication_s": comm_time, "batch": inp.batch, "gpus": n}),
        term("aggregate_decode_tokens_per_s", "Decode speed, all sequences", per_seq * inp.batch, "tokens/s",
             "batch x per-sequence speed", {"batch": inp.batch}),
        term("prefill_tokens_per_s", "Prefill speed", prefill, "tokens/s",
             "tensor FLOPS x GPUs / (2 x active parameters / MFU + attention FLOPs / (MFU x attention efficiency))",
             {"active_parameters": active, "tensor_tflops": flops_peak / 1e12, "mfu": eff["prefill_mfu"],
              "attention_efficiency": eff["attn_eff"], "prompt_tokens": prompt, "gpus": tp}),
    ]
    if model.is_moe:
        assumptions.append(
            f"MoE: each step reads {params_read / 1e9:.1f}B of {model.total_params_b:g}B parameters "
            f"(active experts of {inp.batch} sequence(s))")
    assumptions.append(f"{engine} efficiencies: {eff['bandwidth_eff']:.0%} of peak bandwidth, "
                       f"{eff['prefill_mfu']:.0%} of peak tensor throughput in prefill")
    if precision.compute == "fp8" and not gpu.fp8_tflops:
        assumptions.append(f"{gpu.name} has no FP8 tensor cores: FP8 weights are computed in BF16")
    return SpeedResult(
        model=model.name, gpu=gpu.id, gpus=n, engine=engine, batch=inp.batch, context=inp.context,
        decode_tokens_per_s=per_seq, decode_tokens_per_s_range=(slow, fast),
        aggregate_decode_tokens_per_s=per_seq * inp.batch,
        prefill_tokens_per_s=prefill, prefill_tokens_per_s_range=(prefill * 0.7, prefill * 1.3),
        time_to_first_token_s=ttft, bound=bound, terms=terms, assumptions=assumptions, warnings=warnings,
    )


def model_flops_per_token(model: ModelArch) -> float:
    return 2 * model.active_params_b * 1e9
