"""Decode and prefill speed from memory bandwidth and tensor throughput.

Decode reads every active weight (and the batch's KV cache) once per step, so it is bandwidth-bound
until the batch is large enough that the multiply-adds take longer than the reads. Prefill pushes a
whole prompt through at once and is compute-bound.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from knowledge import find_gpu, find_precision
from knowledge.schema import Gpu, ModelArch, Precision
from tools import arch
from tools.common import Explained, ToolInput, term
from tools.inference import Engine, check_engine_runs, check_format_runs, default_engine, kv_precision_for
from tools.models import resolve_model

# Per-engine efficiencies; fitted constants name their data.
#   bandwidth_eff: share of peak memory bandwidth a decode step reaches, by memory type.
#   layer_overhead_s: fixed time per layer per decode step (kernel launches, dequantization set-up,
#     Python dispatch), for quantized and for 16-bit weights.
#   mm_mfu: share of peak tensor throughput the prefill matrix multiplies reach.
#   attn_eff: share of peak 16-bit tensor throughput the prefill attention reaches.
#   token_overhead_s_per_bparam: prefill time per token per billion parameters outside the matrix
#     multiplies (norms, activation quantization, launches); it caps fast GPUs' prefill.
ENGINE_EFFICIENCY: dict[str, dict] = {
    # llama.cpp: fitted to llama-bench tg/pp for Llama-3-8B Q4_K_M and F16 on 16 NVIDIA GPUs, 1-8 cards
    # (tests/reference/throughput.csv rows 1-719, XiongjieDai GPU-Benchmarks-on-LLM-Inference, May 2024).
    # Its batch-1 kernels reach far less of HBM's bandwidth than of GDDR's.
    "llama.cpp": {"bandwidth_eff": {"gddr": 0.87, "hbm": 0.52, "lpddr": 0.80},
                  "layer_overhead_s": {"quantized": 55e-6, "float": 15e-6},
                  "mm_mfu": {"quantized": 0.36, "float": 0.69}, "attn_eff": 0.09,
                  "token_overhead_s_per_bparam": {"quantized": 11.7e-6, "float": 7.7e-6}, "step_overhead_s": 0.0},
    # vLLM: CUDA graphs keep per-layer overhead small, but scheduling and sampling cost a few ms per
    # step; fitted to the Qwen2.5 speed benchmark's vLLM rows (tests/reference/throughput.csv).
    "vllm": {"bandwidth_eff": {"gddr": 0.80, "hbm": 0.80, "lpddr": 0.70},
             "layer_overhead_s": {"quantized": 15e-6, "float": 10e-6},
             "mm_mfu": {"quantized": 0.45, "float": 0.55}, "attn_eff": 0.35,
             "token_overhead_s_per_bparam": {"quantized": 0.0, "float": 0.0}, "step_overhead_s": 3.0e-3},
    # transformers generate(): Python per-layer dispatch dominates small models; fitted to the Qwen2.5
    # speed benchmark (tests/reference/throughput.csv, QWEN25_SPEED transformers rows).
    "transformers": {"bandwidth_eff": {"gddr": 0.70, "hbm": 0.70, "lpddr": 0.60},
                     "layer_overhead_s": {"quantized": 900e-6, "float": 700e-6},
                     "mm_mfu": {"quantized": 0.35, "float": 0.45}, "attn_eff": 0.3,
                     "token_overhead_s_per_bparam": {"quantized": 0.0, "float": 0.0}, "step_overhead_s": 3.0e-3},
}
# SGLang: no speed rows of its own in the reference set; it is sized with vLLM's efficiencies (both run
# CUDA-graph decode and FlashInfer/FA3 attention) and the answer says so.
ENGINE_EFFICIENCY["sglang"] = ENGINE_EFFICIENCY["vllm"]
# Tensor-parallel all-reduce cost: two per layer per step, latency plus bytes over the link.
ALLREDUCE_LATENCY_S = {"nvlink": 8e-6, "pcie": 30e-6}
PCIE_GBPS = {3: 12.0, 4: 25.0, 5: 50.0}
# llama.cpp splits layers across GPUs: one GPU works at a time during decode, and each hand-over
# costs this much (fitted to the same llama-bench rows, 2-8 GPUs).
LLAMACPP_HOP_S = 0.4e-3
# Engines that place whole layers on each GPU (llama.cpp's default split, transformers' device_map).
LAYER_SPLIT_ENGINES = ("llama.cpp", "transformers")
# llama.cpp pipelines prefill over GPUs in micro-batches of 512 within batches of 2048 tokens.
LLAMACPP_UBATCH, LLAMACPP_BATCH = 512, 2048


class SpeedInput(ToolInput):
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
    time_per_output_token_s: float = Field(0.0, description="seconds between a sequence's tokens at this batch (TPOT)")
    time_per_output_token_s_range: tuple[float, float] = (0.0, 0.0)
    bound: Literal["memory bandwidth", "compute"]


def matmul_tflops(gpu: Gpu, precision: Precision, engine: Engine) -> float:
    """Dense tensor throughput the weight multiplies run at.

    llama.cpp multiplies quantized GGUF weights on INT8 tensor cores and 16-bit weights with FP16
    accumulation (half the INT8 rate on NVIDIA cards, twice the FP32-accumulate rate on GeForce).
    Other engines use FP8 units for FP8 weights and BF16 otherwise.
    """
    if engine == "llama.cpp" and gpu.int8_tops:
        return gpu.int8_tops if precision.family == "gguf" and precision.bits_per_weight < 16 else gpu.int8_tops / 2
    if precision.compute == "fp8" and gpu.fp8_tflops:
        return gpu.fp8_tflops
    return gpu.bf16_tflops


def attention_tflops(gpu: Gpu, engine: Engine) -> float:
    if engine == "llama.cpp" and gpu.int8_tops:
        return gpu.int8_tops / 2
    return gpu.bf16_tflops


def link(gpu: Gpu) -> tuple[str, float]:
    """(kind, GB/s in one direction) of the path between two GPUs of this kind."""
    if gpu.interconnect in ("nvlink", "nvlink-bridge", "infinity-fabric") and gpu.nvlink_gbps:
        return "nvlink", gpu.nvlink_gbps / 2
    return "pcie", PCIE_GBPS.get(gpu.pcie_gen or 4, 25.0)


def decode_step_seconds(model: ModelArch, precision: Precision, kv_bits: float, gpu: Gpu, engine: Engine,
                        gpus: int, batch: int, context: int) -> dict[str, float]:
    """One decode step: max(memory time, compute time) + fixed overhead + communication."""
    eff = ENGINE_EFFICIENCY[engine]
    weight_read = arch.weight_bytes(model, precision, arch.params_read_per_step(model, batch))
    kv_read = arch.kv_cache_bytes(model, kv_bits, context, batch, latent_mla=engine != "transformers")
    bw = gpu.memory_bandwidth_gbps * 1e9 * eff["bandwidth_eff"][gpu.memory_type]
    quantized = precision.bits_per_weight < 16
    kind_of_weights = "quantized" if quantized else "float"
    flops = matmul_tflops(gpu, precision, engine) * 1e12 * eff["mm_mfu"][kind_of_weights]
    step_flops = batch * (2 * model.active_params_b * 1e9
                          + 4 * model.num_layers * context * model.num_attention_heads * model.head_dim)
    overhead = eff["layer_overhead_s"][kind_of_weights] * model.num_layers + eff["step_overhead_s"]
    if engine in LAYER_SPLIT_ENGINES or gpus == 1:
        memory = (weight_read + kv_read) / bw
        compute = step_flops / flops
        comm = (gpus - 1) * LLAMACPP_HOP_S
    else:
        memory = (weight_read / gpus + kv_read / arch.kv_shards(model, gpus)) / bw
        compute = step_flops / (gpus * flops)
        kind, gbps = link(gpu)
        message = batch * model.hidden_size * 2
        comm = 2 * model.num_layers * (ALLREDUCE_LATENCY_S[kind] + 2 * (gpus - 1) / gpus * message / (gbps * 1e9))
    return {"memory": memory, "compute": compute, "overhead": overhead, "comm": comm,
            "weight_read": weight_read, "kv_read": kv_read, "bandwidth": bw, "flops": flops}


def prefill_token_seconds(model: ModelArch, precision: Precision, gpu: Gpu, engine: Engine, gpus: int,
                          prompt: int) -> dict[str, float]:
    """Seconds per prompt token: weight multiplies plus causal attention over half the prompt on
    average (windowed layers over at most their window), split over GPUs."""
    eff = ENGINE_EFFICIENCY[engine]
    kind_of_weights = "quantized" if precision.bits_per_weight < 16 else "float"
    dense = 2 * model.active_params_b * 1e9 / (matmul_tflops(gpu, precision, engine) * 1e12 * eff["mm_mfu"][kind_of_weights])
    dense += model.active_params_b * eff["token_overhead_s_per_bparam"][kind_of_weights]
    full_layers = model.num_layers - model.sliding_layers
    window = min(prompt / 2, model.sliding_window or prompt)
    attn_flops = 4 * model.num_attention_heads * model.head_dim * (full_layers * prompt / 2 + model.sliding_layers * window)
    attn = attn_flops / (attention_tflops(gpu, engine) * 1e12 * eff["attn_eff"])
    per_token = dense + attn
    p_mfu = eff["mm_mfu"][kind_of_weights]
    if gpus > 1 and engine in LAYER_SPLIT_ENGINES:
        micro = max(1.0, min(prompt, LLAMACPP_BATCH) / LLAMACPP_UBATCH)
        speedup = gpus * micro / (micro + gpus - 1)
        per_token /= speedup
    elif gpus > 1:
        _, gbps = link(gpu)
        per_token = per_token / gpus + 2 * model.num_layers * 2 * (gpus - 1) / gpus * model.hidden_size * 2 / (gbps * 1e9)
    return {"seconds": per_token, "dense": dense, "attention": attn, "attention_flops": attn_flops, "mfu": p_mfu}


def speed(inp: SpeedInput) -> SpeedResult:
    model = resolve_model(inp.model)
    precision = find_precision(inp.precision)
    gpu = find_gpu(inp.gpu)
    engine: Engine = inp.engine or default_engine(precision, gpu)
    check_format_runs(engine, precision)
    check_engine_runs(engine, gpu)
    kv = kv_precision_for(precision, inp.kv_precision, engine)
    eff = ENGINE_EFFICIENCY[engine]
    n = inp.gpus
    assumptions: list[str] = []
    warnings: list[str] = []

    d = decode_step_seconds(model, precision, kv.kv_bits or 16, gpu, engine, n, inp.batch, inp.context)
    core = max(d["memory"], d["compute"])
    step = core + d["overhead"] + d["comm"]
    bound: Literal["memory bandwidth", "compute"] = "memory bandwidth" if d["memory"] >= d["compute"] else "compute"
    per_seq = 1 / step
    # the fixed overhead is the least certain part: the range takes half to double of it
    fast = 1 / (core * 0.9 + d["overhead"] * 0.5 + d["comm"])
    slow = 1 / (core * 1.15 + d["overhead"] * 2 + d["comm"] * 1.5)

    p = prefill_token_seconds(model, precision, gpu, engine, n, inp.context)
    prefill = 1 / p["seconds"]
    ttft = inp.context * p["seconds"] + step
    if engine == "llama.cpp" and n > 1:
        assumptions.append("llama.cpp splits layers across GPUs: more cards add memory and pipelined prefill, not decode speed")
    if engine != "llama.cpp" and n > 1 and link(gpu)[0] == "pcie" and not gpu.has_nvlink:
        warnings.append(f"{gpu.name} has no NVLink: tensor parallelism sends {2 * model.num_layers} all-reduces per token over PCIe")

    terms = [
        term("decode_tokens_per_s", "Decode speed per sequence", per_seq, "tokens/s",
             "1 / (max(bytes read per step / (bandwidth x efficiency), FLOPs per step / (tensor FLOPS x efficiency)) "
             "+ fixed per-layer overhead + GPU-to-GPU communication)",
             {"weight_bytes_read": d["weight_read"], "kv_bytes_read": d["kv_read"],
              "bandwidth_gbps": gpu.memory_bandwidth_gbps,
              "bandwidth_efficiency": eff["bandwidth_eff"][gpu.memory_type],
              "step_overhead_s": d["overhead"], "communication_s": d["comm"], "batch": inp.batch, "gpus": n}),
        term("time_per_output_token_s", "Time per output token", step, "s",
             "one decode step at this batch: max(memory, compute) + overhead + communication",
             {"batch": inp.batch, "context": inp.context}),
        term("aggregate_decode_tokens_per_s", "Decode speed, all sequences", per_seq * inp.batch, "tokens/s",
             "batch x per-sequence speed", {"batch": inp.batch}),
        term("prefill_tokens_per_s", "Prefill speed", prefill, "tokens/s",
             "1 / (2 x active parameters / (matmul TFLOPS x MFU) + non-matmul time + attention FLOPs / (TFLOPS x attention efficiency)), "
             "divided over GPUs",
             {"active_parameters": model.active_params_b * 1e9,
              "matmul_tflops": matmul_tflops(gpu, precision, engine), "mfu": p["mfu"],
              "attention_efficiency": eff["attn_eff"], "prompt_tokens": inp.context, "gpus": n}),
    ]
    if model.is_moe:
        read = arch.params_read_per_step(model, inp.batch)
        assumptions.append(
            f"MoE: each step reads {read / 1e9:.1f}B of {model.total_params_b:g}B parameters "
            f"(the experts that {inp.batch} sequence(s) route to)")
    assumptions.append(f"{engine}: {eff['bandwidth_eff'][gpu.memory_type]:.0%} of peak bandwidth in decode, "
                       f"{p['mfu']:.0%} of peak tensor throughput in prefill matrix multiplies")
    if precision.compute == "fp8" and not gpu.fp8_tflops:
        assumptions.append(f"{gpu.name} has no FP8 tensor cores: FP8 weights are computed in 16-bit")
    return SpeedResult(
        model=model.name, gpu=gpu.id, gpus=n, engine=engine, batch=inp.batch, context=inp.context,
        decode_tokens_per_s=per_seq, decode_tokens_per_s_range=(slow, fast),
        aggregate_decode_tokens_per_s=per_seq * inp.batch,
        prefill_tokens_per_s=prefill, prefill_tokens_per_s_range=(prefill * 0.7, prefill * 1.3),
        time_to_first_token_s=ttft, time_per_output_token_s=step, time_per_output_token_s_range=(1 / fast, 1 / slow),
        bound=bound, terms=terms, assumptions=assumptions, warnings=warnings,
    )
