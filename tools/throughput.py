"""Decode and prefill speed from memory bandwidth and tensor throughput.

Decode reads every active weight (and the batch's KV cache) once per step, so it is bandwidth-bound
until the batch is large enough that the multiply-adds take longer than the reads. Prefill pushes a
whole prompt through at once and is compute-bound.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from gpu_advisor.knowledge import find_gpu, find_precision
from gpu_advisor.knowledge.apple_iquant_moe import iquant_share
from gpu_advisor.knowledge.llamacpp_moe import LlamaCppMoe, moe_record_for
from gpu_advisor.knowledge.llamacpp_split import LlamaCppLayerSplit, layer_split_for
from gpu_advisor.knowledge.loader import llamacpp_efficiencies
from gpu_advisor.knowledge.schema import (
    Gpu,
    LlamaCppBackend,
    LlamaCppEfficiency,
    LlamaCppWeights,
    ModelArch,
    Precision,
)
from gpu_advisor.tools import arch
from gpu_advisor.tools.common import (
    ENGINE_HELP,
    GPU_HELP,
    KV_PRECISION_HELP,
    MAX_COUNT,
    MODEL_HELP,
    PRECISION_HELP,
    Explained,
    Term,
    ToolError,
    ToolInput,
    measured_range,
    term,
)
from gpu_advisor.tools.inference import (
    Engine,
    check_engine_runs,
    check_format_runs,
    default_engine,
    kv_precision_for,
)
from gpu_advisor.tools.links import fast_link_gbps
from gpu_advisor.tools.models import name_only, resolve_model

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
# llama.cpp pipelines prefill over GPUs in micro-batches of 512 within batches of 2048 tokens (llama-bench's
# n_ubatch and n_batch); how many of them overlap is data (knowledge/data/llamacpp_layer_split.yaml).
LLAMACPP_UBATCH, LLAMACPP_BATCH = 512, 2048
# Big-MoE decode (vLLM, SGLang). Routed experts are multiplied by a grouped GEMM that, at a few tokens
# per expert, reads its many small weight slices at a lower share of bandwidth than a dense GEMV; across
# GPUs each MoE layer adds a dispatch and a combine (expert-parallel all-to-all) to the attention
# all-reduce. Central figure calibrated on SGLang v0.5.7, DeepSeek-R1-0528 FP8 TP8 on 8 x H200 (mean TPOT
# 12.8 ms at 8 concurrent, 17.2 ms at 16: tests/reference/throughput.csv INFERENCEX_870); the slow end on
# a vLLM report of about 200 tokens/s at 10 concurrent on the same hardware (DSR1_ISSUE507, Feb 2025).
MOE_GROUPED_EFF = {"central": 0.85, "fast": 1.0, "slow": 0.22}
# Expert parallel over a copy's GPUs: tokens do not route evenly, and every MoE layer waits for its busiest GPU
# (its experts' multiplies and its share of the dispatch). The mean over the busiest: 50,302 against 59,337
# tokens/s per node for SGLang's EP32 prefill on 4 x 8 H100 with the default expert placement against a simulated
# perfect balance (LMSYS, 2025-05-05, "Profile Results": 0.85); the routed experts' part of an expert-parallel
# step, and its dispatch, take 1 / 0.85 of their balanced time (tests/reference/moe_serving.csv).
EP_BALANCE = 0.85
ALLTOALL_LATENCY_S = {"nvlink": 12e-6, "pcie": 40e-6}
# The decode range of an engine with no measured rows (SGLang): the fixed overhead's half to double, and
# -15 % .. +10 % on the memory or compute time.
SPEED_FALLBACK_WORDS = "half to double the fixed overhead, -15 % to +10 % on the rest"
# Older-than-current and layer-split figures: the fast/slow multipliers of the slow-end range for MoE comm
MOE_COMM_SLOW = 2.5
# Pipeline parallel across servers: each stage hands a micro-batch's activations to the next over the
# network between servers (InfiniBand or RoCE, one 400 Gb/s NIC per GPU as in HGX and Atlas clusters:
# 50 GB/s; about 10 us per send and receive through NCCL, NVIDIA's InfiniBand and NCCL tests).
INTER_NODE_GBPS = 50.0
INTER_NODE_LATENCY_S = 10e-6


class SpeedInput(ToolInput):
    model: str = Field(description=MODEL_HELP)
    precision: str = Field("bf16", description=PRECISION_HELP)
    gpu: str = Field(description=GPU_HELP)
    gpus: int = Field(1, gt=0, le=64, description="tensor-parallel GPUs (within one server)")
    pp: int = Field(1, gt=0, le=16, description="pipeline stages, one per server: each holds a share of the layers")
    batch: int = Field(1, gt=0, le=MAX_COUNT, description="sequences decoded together")
    context: int = Field(2048, gt=0, le=MAX_COUNT, description="tokens in each sequence's context while decoding; prompt length for prefill")
    engine: Engine | None = Field(None, description=ENGINE_HELP)
    kv_precision: str | None = Field(None, description=KV_PRECISION_HELP)
    llamacpp_backend: LlamaCppBackend | None = Field(
        None, description="llama.cpp backend; default from the GPU (CUDA, ROCm/HIP, Metal); Vulkan only when asked")
    network_gbit_per_s: float | None = Field(
        None, gt=0, le=3200, description="with pp > 1: the network between the servers as said, Gb/s ('200Gb RoCE', "
        "'万兆' = 10); None: one 400 Gb/s InfiniBand/RoCE NIC per GPU as in HGX clusters")
    dp_attention: int = Field(
        1, gt=0, le=64, description="data-parallel attention ranks among the gpus (an MLA model's DP attention): each "
        "reads its own sequences' KV cache and the whole of the weights outside the routed experts")
    expert_servers: int = Field(
        1, gt=0, le=8, description="data-parallel attention with expert parallelism over the gpus, spread over this "
        "many servers (SGLang --enable-dp-attention --ep-size, vLLM --data-parallel-size --enable-expert-parallel): "
        "each MoE layer's dispatch and combine cross the network between them")


def llamacpp_backend_for(gpu: Gpu, requested: LlamaCppBackend | None = None) -> LlamaCppBackend:
    if requested:
        return requested
    return {"metal": "metal", "rocm": "rocm"}.get(gpu.stack, "cuda")  # type: ignore[return-value]


def weights_kind(precision: Precision) -> LlamaCppWeights:
    """f16 (16-bit weights), q8_0, legacy (Q4_0/Q4_1/Q5_0/Q5_1) or k-quant (K- and I-quants, and other formats)."""
    if precision.bits_per_weight >= 16:
        return "f16"
    if precision.id == "q8_0":
        return "q8_0"
    if precision.id in ("q4_0", "q4_1", "q5_0", "q5_1"):
        return "legacy"
    return "k-quant"


def llamacpp_record(gpu: Gpu, precision: Precision, backend: LlamaCppBackend) -> LlamaCppEfficiency | None:
    kind = weights_kind(precision)
    for r in llamacpp_efficiencies():
        if r.backend == backend and kind in r.weights and gpu.memory_type in r.memory_types:
            return r
    return None


def efficiency(engine: Engine, gpu: Gpu, precision: Precision, backend: LlamaCppBackend | None = None) -> dict:
    """The efficiencies one run uses: the engine's defaults, replaced for llama.cpp by the record for its
    backend, kind of weights and memory type (knowledge/data/llamacpp_efficiency.yaml) where there is one."""
    eff = ENGINE_EFFICIENCY[engine]
    kind_of_weights = "quantized" if precision.bits_per_weight < 16 else "float"
    out = {"bandwidth_eff": eff["bandwidth_eff"][gpu.memory_type],
           "layer_overhead_s": eff["layer_overhead_s"][kind_of_weights],
           "mm_mfu": eff["mm_mfu"][kind_of_weights], "attn_eff": eff["attn_eff"],
           "token_overhead_s_per_bparam": eff["token_overhead_s_per_bparam"][kind_of_weights],
           "step_overhead_s": eff["step_overhead_s"], "record": None}
    if engine == "llama.cpp":
        rec = llamacpp_record(gpu, precision, llamacpp_backend_for(gpu, backend))
        if rec is not None:
            out["bandwidth_eff"] = rec.decode_bandwidth_eff
            out["record"] = rec
            for key, value in (("layer_overhead_s", rec.layer_overhead_s), ("mm_mfu", rec.prefill_mfu),
                               ("token_overhead_s_per_bparam", rec.token_overhead_s_per_bparam)):
                if value is not None:
                    out[key] = value
    return out


class SpeedResult(Explained):
    model: str
    gpu: str
    gpus: int
    pp: int = Field(1, description="pipeline stages (servers), each with gpus tensor-parallel GPUs")
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
    Other engines use FP8 units for FP8 weights, INT8 units for W8A8 INT8 (int8 weights and activations:
    Ampere's 624 dense TOPS against 312 BF16 TFLOPS) and BF16 otherwise: weight-only formats (INT4/AWQ/GPTQ
    W4A16, INT8 W8A16) unpack to 16 bits, so they save memory and decode time, not prefill compute.
    """
    if engine == "llama.cpp" and gpu.int8_tops:
        return gpu.int8_tops if precision.family == "gguf" and precision.bits_per_weight < 16 else gpu.int8_tops / 2
    if precision.compute == "fp8" and gpu.fp8_tflops:
        return gpu.fp8_tflops
    if precision.compute == "int8" and gpu.int8_tops:
        return gpu.int8_tops
    return gpu.bf16_tflops


def attention_tflops(gpu: Gpu, engine: Engine) -> float:
    if engine == "llama.cpp" and gpu.int8_tops:
        return gpu.int8_tops / 2
    return gpu.bf16_tflops


def link(gpu: Gpu) -> tuple[str, float]:
    """(kind, GB/s in one direction) of the path between two GPUs of this kind."""
    fast = fast_link_gbps(gpu)  # NVLink, Infinity Fabric, HCCS (tools.links)
    if fast is not None:
        return "nvlink", fast
    return "pcie", PCIE_GBPS.get(gpu.pcie_gen or 4, 25.0)


def big_moe(model: ModelArch, engine: Engine) -> bool:
    """MoE decode with grouped-GEMM experts and (across GPUs) expert dispatch: vLLM and SGLang."""
    return model.is_moe and engine in ("vllm", "sglang")


# Which end of a llama.cpp MoE record's bands a figure is taken at (knowledge/data/llamacpp_moe.yaml).
MoeEnd = Literal["central", "fast", "slow"]


def llamacpp_moe(model: ModelArch, engine: Engine, gpu: Gpu, backend: LlamaCppBackend | None = None) -> LlamaCppMoe | None:
    """The MoE record of a llama.cpp run of a MoE model (its backend's mul_mat_id path); None otherwise."""
    if engine != "llama.cpp" or not model.is_moe:
        return None
    return moe_record_for(llamacpp_backend_for(gpu, backend))


def moe_figures(rec: LlamaCppMoe, end: MoeEnd = "central") -> tuple[float, float, float]:
    """(routed decode share, fixed seconds per layer per routed expert, routed prefill share) at one end of
    the record's bands: the fast end has the higher shares and the lower fixed time."""
    if end == "central":
        return rec.routed_decode_eff, rec.expert_overhead_s, rec.routed_prefill_eff
    fast = end == "fast"
    return (rec.routed_decode_eff_range[fast], rec.expert_overhead_s_range[not fast],
            rec.routed_prefill_eff_range[fast])


def routed_experts_per_step(model: ModelArch, batch: int) -> float:
    """Distinct routed experts a decode step multiplies in each layer: E * (1 - (1 - k/E)^batch)."""
    e, k = model.num_experts or 1, model.experts_per_token or 1
    return e * (1 - (1 - k / e) ** max(batch, 1))


def decode_step_seconds(model: ModelArch, precision: Precision, kv_bits: float, gpu: Gpu, engine: Engine,
                        gpus: int, batch: int, context: int, backend: LlamaCppBackend | None = None,
                        moe_eff: float | None = None, moe_end: MoeEnd = "central", dp: int = 1) -> dict[str, float]:
    """One decode step: max(memory time, compute time) + fixed overhead + communication. With dp data-parallel
    attention ranks (an MLA model's DP attention), each rank reads its own sequences' KV cache (not all of it) and
    the whole of the weights outside the routed experts.

    MoE on vLLM/SGLang: the routed experts' bytes are read at the grouped-GEMM efficiency (moe_eff, a
    share of the dense efficiency), and each MoE layer adds a dispatch and a combine across GPUs.
    MoE on llama.cpp: the routed experts' bytes are read at the backend's routed share, and each layer
    adds a fixed time per routed expert (the backend's MoE record at `moe_end` of its bands)."""
    eff = efficiency(engine, gpu, precision, backend)
    by_tensor = arch.moe_bytes_read_per_step(model, precision, batch)
    weight_read = by_tensor[0] if by_tensor else arch.weight_bytes(model, precision, arch.params_read_per_step(model, batch))
    kv_read = arch.kv_cache_bytes(model, kv_bits, context, batch, latent_mla=engine != "transformers")
    bw = gpu.memory_bandwidth_gbps * 1e9 * eff["bandwidth_eff"]
    flops = matmul_tflops(gpu, precision, engine) * 1e12 * eff["mm_mfu"]
    step_flops = batch * (2 * model.active_params_b * 1e9
                          + 4 * model.num_layers * context * model.num_attention_heads * model.head_dim)
    overhead = eff["layer_overhead_s"] * model.num_layers + eff["step_overhead_s"]
    routed_read, moe_comm, expert_s = 0.0, 0.0, 0.0
    lc_moe = llamacpp_moe(model, engine, gpu, backend)
    if big_moe(model, engine) or lc_moe is not None:
        shared, _ = arch.expert_split(model)
        routed_read = by_tensor[1] if by_tensor else weight_read * (1 - shared / arch.params_read_per_step(model, batch))
    grouped = MOE_GROUPED_EFF["central"] if moe_eff is None else moe_eff
    if lc_moe is not None:
        grouped, per_expert, _ = moe_figures(lc_moe, moe_end)
        grouped *= iquant_share(llamacpp_backend_for(gpu, backend), precision.id, moe_end)  # 1-2-bit i-quants
        expert_s = per_expert * model.num_layers * routed_experts_per_step(model, batch)
        overhead += expert_s
    # routed bytes at the grouped-GEMM share of bandwidth: count them 1/grouped times
    effective_read = weight_read - routed_read + routed_read / grouped
    if engine in LAYER_SPLIT_ENGINES or gpus == 1:
        memory = (effective_read + kv_read) / bw
        compute = step_flops / flops
        comm = (gpus - 1) * LLAMACPP_HOP_S
    else:
        memory = (effective_read / gpus + kv_read / arch.kv_shards(model, gpus)) / bw
        balance = EP_BALANCE if dp > 1 and routed_read else 1.0
        if dp > 1:  # each rank: its own sequences' KV, and the attention and shared weights whole
            outside = weight_read - routed_read
            memory = ((effective_read - outside) / gpus / balance + outside * dp / gpus + kv_read / gpus) / bw
        _, per_expert = arch.expert_split(model)
        routed_flops = batch * 2 * (model.experts_per_token or 0) * per_expert if routed_read else 0.0
        compute = (step_flops + routed_flops * (1 / balance - 1)) / (gpus * flops)
        kind, gbps = link(gpu)
        # tensor-parallel attention all-reduces: over all the GPUs, or (data-parallel attention) over the
        # gpus / dp that share one rank's attention; none when each GPU is its own rank
        tp_attn = max(1, gpus // max(dp, 1))
        message = batch / max(dp, 1) * model.hidden_size * 2
        comm = (2 * model.num_layers * (ALLREDUCE_LATENCY_S[kind] + 2 * (tp_attn - 1) / tp_attn * message / (gbps * 1e9))
                if tp_attn > 1 else 0.0)
        if routed_read:
            # each GPU dispatches its own tokens: the whole batch under tensor-parallel attention, its rank's
            # share of it under data-parallel attention (DeepEP and vLLM's all-to-all send each token once)
            k = model.experts_per_token or 1
            sent = -(-batch // max(dp, 1)) * k * model.hidden_size * 2 * (gpus - 1) / gpus
            moe_comm = 2 * model.num_layers * (ALLTOALL_LATENCY_S[kind] + sent / (gbps * 1e9)) / balance
            comm += moe_comm
    memory, compute = weight_only_gemm(model, precision, gpu, engine, batch, memory, compute, gpus,
                                       effective_read + kv_read, kv_read, bw, flops, step_flops)
    return {"memory": memory, "compute": compute, "overhead": overhead, "comm": comm, "moe_comm": moe_comm,
            "expert_overhead": expert_s, "weight_read": weight_read, "routed_read": routed_read, "grouped_eff": grouped if routed_read else 1.0,
            "kv_read": kv_read, "bandwidth": bw, "flops": flops, "bandwidth_eff": eff["bandwidth_eff"]}


def weight_only_gemm(model: ModelArch, precision: Precision, gpu: Gpu, engine: Engine, batch: int, memory: float,
                     compute: float, gpus: int, read: float, kv_read: float, bw: float, flops: float,
                     step_flops: float) -> tuple[float, float]:
    """(memory, compute) of a decode step with weight-only quantized weights (W4A16 AWQ/GPTQ/INT4, W8A16) on a GPU
    engine. Their fused kernels (Marlin, Machete) unpack each weight to 16 bits and multiply on the 16-bit tensor
    path: the layers' GEMMs take max(weight bytes / bandwidth, their FLOPs / 16-bit rate), and the attention
    kernels reading the KV cache run after them, not beside. At batch 1-16 that is the weight read, 4-bit's win;
    at high batch the GEMMs are compute-bound at half FP8's rate (Marlin: "close to ideal (4x) speedups up to
    batchsizes of 16-32 tokens", IST-DASLab/marlin README; vLLM's quantization guidance: FP8 W8A8 for high-throughput
    serving on Hopper, INT4 W4A16 for latency at low batch), so FP8 serves more tokens/s there. Taken on cards with
    FP8 units, where FP8 W8A8 is the other choice; cards without them (Ampere) run every quantized format
    weight-only and keep their fitted step, as do 16-bit and W8A8 formats."""
    if engine == "llama.cpp" or precision.compute != "bf16" or precision.bits_per_weight >= 16 or batch <= 1 \
            or not gpu.fp8_tflops:
        return memory, compute
    gemm_flops = batch * 2 * model.active_params_b * 1e9
    weights = max(read - kv_read, 0.0)
    shards = 1 if engine in LAYER_SPLIT_ENGINES else gpus
    kv_s = memory - weights / (bw * shards) if shards > 1 else kv_read / bw
    gemm = max(weights / (bw * shards), gemm_flops / (flops * shards))
    return max(memory, gemm + kv_s), max(compute - gemm_flops / (flops * shards), 0.0)


def pipeline_speedup(gpus: int, prompt: int, in_flight: float) -> float:
    """How much faster a layer split runs a prompt than one GPU at a time: n*m/(m+n-1), with m the
    micro-batches of one call (n_batch / n_ubatch at most) that overlap, never more than in_flight."""
    micro = min(max(1.0, min(prompt, LLAMACPP_BATCH) / LLAMACPP_UBATCH), in_flight)
    return gpus * micro / (micro + gpus - 1)


def llamacpp_split(model: ModelArch, precision: Precision, gpu: Gpu, gpus: int,
                   backend: LlamaCppBackend | None = None) -> tuple[LlamaCppLayerSplit, bool]:
    """The layer-split record for this backend, kind of weights, model size and GPU count, and whether it
    was measured on this backend (ROCm and Vulkan take CUDA's)."""
    return layer_split_for(llamacpp_backend_for(gpu, backend), weights_kind(precision), model.total_params_b, gpus)


def routed_prefill_extra(model: ModelArch, rate: float, rec: LlamaCppMoe | None) -> dict[str, float]:
    """Seconds per prompt token the routed experts' multiplies add over the dense rate (2 x k experts'
    parameters / rate x (1 / share - 1)), at the centre and the ends of a llama.cpp MoE record's band."""
    if rec is None:
        return {"central": 0.0, "slow": 0.0, "fast": 0.0}
    _, per_expert = arch.expert_split(model)
    routed = 2 * (model.experts_per_token or 1) * per_expert / rate
    return {end: routed * (1 / moe_figures(rec, end)[2] - 1) for end in ("central", "slow", "fast")}


def prefill_token_seconds(model: ModelArch, precision: Precision, gpu: Gpu, engine: Engine, gpus: int,
                          prompt: int, backend: LlamaCppBackend | None = None, dp: int = 1) -> dict[str, float]:
    """Seconds per prompt token: weight multiplies plus causal attention over half the prompt on
    average (windowed layers over at most their window), split over GPUs.

    llama.cpp's layer split pipelines micro-batches over the GPUs, as many at once as its layer-split
    record says (`seconds_slow` and `seconds_fast` at the ends of the record's range);
    `seconds_no_overlap` is the same prompt one GPU at a time."""
    eff = efficiency(engine, gpu, precision, backend)
    rate = matmul_tflops(gpu, precision, engine) * 1e12 * eff["mm_mfu"]
    moe_extra = routed_prefill_extra(model, rate, llamacpp_moe(model, engine, gpu, backend))
    dense = 2 * model.active_params_b * 1e9 / rate + moe_extra["central"]
    dense += model.active_params_b * eff["token_overhead_s_per_bparam"]
    full_layers = model.num_layers - model.sliding_layers
    window = min(prompt / 2, model.sliding_window or prompt)
    # per key and head: 2 x the query-key width (scores) + 2 x the value width (weighted sum); MLA's values are
    # narrower than its query-key heads (DeepSeek-V3: 192 and 128), other attention uses head_dim for both
    qk_v = model.head_dim + (model.v_head_dim or model.head_dim)
    attn_flops = 2 * model.num_attention_heads * qk_v * (full_layers * prompt / 2 + model.sliding_layers * window)
    attn = attn_flops / (attention_tflops(gpu, engine) * 1e12 * eff["attn_eff"])
    per_token = dense + attn
    no_overlap = per_token
    slow = fast = None
    in_flight = 0.0
    p_mfu = eff["mm_mfu"]
    if gpus > 1 and engine == "llama.cpp":
        split, _ = llamacpp_split(model, precision, gpu, gpus, backend)
        lo, hi = split.in_flight_range
        slow, fast = no_overlap / pipeline_speedup(gpus, prompt, lo), no_overlap / pipeline_speedup(gpus, prompt, hi)
        per_token = no_overlap / pipeline_speedup(gpus, prompt, split.in_flight)
        in_flight = split.in_flight
    elif gpus > 1 and engine in LAYER_SPLIT_ENGINES:
        per_token /= pipeline_speedup(gpus, prompt, float(LLAMACPP_BATCH // LLAMACPP_UBATCH))
    elif gpus > 1 and dp > 1 and model.is_moe:
        # data-parallel attention, expert parallel: each GPU prefills its own prompts and sends each token to its
        # experts and back (1 + 2 bytes a value) once, all GPUs at once; no attention all-reduce
        _, gbps = link(gpu)
        k = model.experts_per_token or 1
        _, per_expert = arch.expert_split(model)
        routed = 2 * k * per_expert / rate * (1 / EP_BALANCE - 1)  # the busiest GPU's experts (EP_BALANCE)
        sent = model.num_layers * k * model.hidden_size * 3 * (gpus - 1) / gpus / (gbps * 1e9) / EP_BALANCE
        per_token = (per_token + routed + sent) / gpus
        no_overlap = per_token
    elif gpus > 1:
        _, gbps = link(gpu)
        per_token = per_token / gpus + 2 * model.num_layers * 2 * (gpus - 1) / gpus * model.hidden_size * 2 / (gbps * 1e9)
        no_overlap = per_token
    # llama.cpp MoE: the routed experts' multiplies at the ends of the record's prefill band
    f_slow, f_fast = ((no_overlap + moe_extra[end] - moe_extra["central"]) / no_overlap for end in ("slow", "fast"))
    return {"seconds": per_token, "seconds_no_overlap": no_overlap, "seconds_slow": (slow or per_token) * f_slow,
            "seconds_fast": (fast or per_token) * f_fast, "in_flight": in_flight, "dense": dense, "attention": attn,
            "attention_flops": attn_flops, "mfu": p_mfu, "attn_eff": eff["attn_eff"]}


def layer_split_assumptions(model: ModelArch, precision: Precision, gpu: Gpu, gpus: int, prompt: int,
                            backend: LlamaCppBackend | None) -> list[str]:
    """What the answer says about llama.cpp's layer split: decode gains nothing, and how much the prompt's
    micro-batches overlap (the record and where its figures come from)."""
    split, measured = llamacpp_split(model, precision, gpu, gpus, backend)
    lo, hi = split.in_flight_range
    if split.in_flight <= 1:
        first = (f"llama.cpp splits layers across GPUs: more cards add memory, not decode speed, and for "
                 f"{weights_kind(precision)} weights of a model this size on {gpus} GPUs barely any prefill speed "
                 "(measured: two GPUs prefill about as fast as four)")
    else:
        first = "llama.cpp splits layers across GPUs: more cards add memory and pipelined prefill, not decode speed"
    where = "measured on CUDA" if measured else f"CUDA's figures, none measured on {llamacpp_backend_for(gpu, backend)}"
    return [first, f"llama.cpp layer split: prefill {pipeline_speedup(gpus, prompt, split.in_flight):.1f}x one GPU at a time "
                   f"({split.in_flight:g} micro-batch{'' if split.in_flight == 1 else 'es'} of {LLAMACPP_UBATCH} tokens "
                   f"in flight, range {lo:g}-{hi:g}; "
                   f"{split.id}, {where})"]


def llamacpp_moe_decode_range(model: ModelArch, precision: Precision, kv_bits: float, gpu: Gpu, gpus: int, batch: int,
                              context: int, backend: LlamaCppBackend | None) -> tuple[tuple[float, float], str]:
    """A llama.cpp MoE decode range: the slow and fast ends of the backend's MoE bands (builds and GPUs
    the rows spread over), each widened by the dense rows' measured error (its 10th and 90th percentiles)."""
    ends = {}
    for end in ("slow", "fast"):
        e = decode_step_seconds(model, precision, kv_bits, gpu, "llama.cpp", gpus, batch, context, backend, moe_end=end)
        ends[end] = 1 / (max(e["memory"], e["compute"]) + e["overhead"] + e["comm"])
    (lo, _), words = measured_range(ends["slow"], "decode speed (llama.cpp)", (ends["slow"] * 0.87, ends["slow"] * 1.1),
                                    SPEED_FALLBACK_WORDS)
    (_, hi), _ = measured_range(ends["fast"], "decode speed (llama.cpp)", (ends["fast"] * 0.87, ends["fast"] * 1.1),
                                SPEED_FALLBACK_WORDS)
    return (lo, hi), words


def llamacpp_moe_words(rec: LlamaCppMoe, backend: LlamaCppBackend) -> str:
    """The assumption line of a llama.cpp MoE answer: the record's figures, bands and where they come from."""
    own = backend == rec.backends[0]
    decode = "measured" if rec.decode_measured and own else f"not measured on {backend}"
    prefill = "measured" if rec.prefill_measured and own else f"not measured on {backend}"
    (s_lo, s_hi), (c_lo, c_hi), (p_lo, p_hi) = (rec.routed_decode_eff_range, rec.expert_overhead_s_range,
                                                 rec.routed_prefill_eff_range)
    return (f"llama.cpp MoE on {backend}: routed experts read at {rec.routed_decode_eff:.0%} of the dense decode efficiency "
            f"(band {s_lo:.0%}-{s_hi:.0%}) plus {rec.expert_overhead_s * 1e6:.0f} us per layer per routed expert "
            f"(band {c_lo * 1e6:.0f}-{c_hi * 1e6:.0f} us); their prefill multiplies at {rec.routed_prefill_eff:.0%} of the "
            f"dense rate (band {p_lo:.0%}-{p_hi:.0%}); {rec.id}, decode {decode}, prefill {prefill}; the ranges span "
            "these bands on top of the dense rows' error")


def format_unit_warnings(precision: Precision, gpu: Gpu) -> list[str]:
    """What an 8-bit format does on a card without the tensor cores for it (the card's FP8/INT8 figures and the
    format's weight_only_archs, knowledge/data): FP8 on Ampere is weight-only (Marlin W8A16), saving memory
    and decode reads but not compute; on Volta no vLLM kernel takes FP8 or INT8 W8A8 at all."""
    if gpu.stack != "cuda":
        return []
    if precision.compute == "fp8" and not gpu.fp8_tflops:
        if gpu.arch in precision.weight_only_archs:
            return [f"{gpu.name} has no FP8 tensor cores: FP8 runs weight-only there (W8A16, vLLM's Marlin kernels): "
                    "it halves the weight memory and the bytes read per token, but the matrix multiplies run in 16-bit, "
                    "so prompts are processed no faster than in BF16"]
        return [f"{gpu.name} has no FP8 tensor cores and no FP8 kernel in vLLM (Marlin's weight-only FP8 needs Ampere "
                "or newer): use FP16, or 4-bit AWQ/GPTQ to save memory"]
    if precision.family == "int" and precision.bits_per_weight == 8 and not gpu.int8_tops:
        return [f"{gpu.name} has no INT8 tensor cores: 8-bit integer weights save memory there but not time, and "
                "vLLM's INT8 W8A8 kernels need Turing or newer"]
    return []


def sixteen_bit_warnings(precision: Precision, gpu: Gpu) -> list[str]:
    """What 16-bit weights do on a card without BF16: FP16 tensor cores only (Volta, Turing), or no tensor cores at
    all (Pascal), where the multiplies run on the CUDA cores."""
    if precision.id not in ("bf16", "fp16") or gpu.native_bf16:
        return []
    if not gpu.tensor_cores:
        return [f"{gpu.name} has no tensor cores and no BF16: the weights are served in fp16, the same size, and "
                f"multiplied on its CUDA cores at {gpu.bf16_tflops:g} TFLOPS (a model trained in bf16 can "
                "overflow in fp16)"]
    return [f"{gpu.name} has no BF16 support (FP16 tensor cores only): the weights are served in fp16, "
            "the same size (a model trained in bf16 can overflow in fp16)"]


def inter_node_gbps(network_gbit_per_s: float | None) -> float:
    """GB/s a pipeline hand-over gets between servers: the stated network (Gb/s over 8), else one 400 Gb/s NIC."""
    return network_gbit_per_s / 8 if network_gbit_per_s else INTER_NODE_GBPS


def pipeline_hop_seconds(model: ModelArch, micro_batch: int, pp: int, network_gbit_per_s: float | None = None) -> float:
    """Network time a token spends between pipeline stages: pp sends of the micro-batch's activations
    (hidden size x 2 bytes each), the last one back to the first stage for the next token, at the stated
    network speed between the servers (else one 400 Gb/s NIC per GPU)."""
    if pp <= 1:
        return 0.0
    rate = inter_node_gbps(network_gbit_per_s) * 1e9
    return pp * (INTER_NODE_LATENCY_S + micro_batch * model.hidden_size * 2 / rate)


def expert_network_seconds(model: ModelArch, tokens_per_gpu: int, servers: int,
                           network_gbit_per_s: float | None = None) -> float:
    """Network time of one forward pass of a data-parallel-attention, expert-parallel copy spread over `servers`
    servers: each MoE layer dispatches every token to its top-k experts (FP8, 1 byte a value) and combines their
    outputs back (BF16, 2 bytes), once to each other server that holds any of its experts
    (remote_servers_per_token), over one NIC per GPU, with a send's latency each way (DeepEP's internode kernels:
    about 50-60 GB/s of RDMA per GPU)."""
    if servers <= 1 or not model.is_moe:
        return 0.0
    rate = inter_node_gbps(network_gbit_per_s) * 1e9
    moe_layers = model.num_layers - (model.dense_layers or 0)
    sent = tokens_per_gpu * remote_servers_per_token(model, servers) * model.hidden_size * 3
    return moe_layers * (2 * INTER_NODE_LATENCY_S + sent / rate) / EP_BALANCE


def remote_servers_per_token(model: ModelArch, servers: int) -> float:
    """Other servers a token's top-k experts sit on, on average, with the experts spread evenly over `servers`
    servers and routed uniformly: (servers - 1) x (1 - (1 - 1/servers)^k). DeepEP's internode dispatch sends a
    token once to each server that holds any of its experts and fans it out there over NVLink (DeepSeek-V3
    report, sec. 3.2.2; DeepEP README), so it crosses the network that many times, not k x (servers - 1) / servers
    (k = 8 over two servers: 1.0 copies, not 4)."""
    k = model.experts_per_token or 1
    return (servers - 1) * (1 - (1 - 1 / servers) ** k)


def pipeline_prompt_seconds(model: ModelArch, prompt: int, pp: int, network_gbit_per_s: float | None = None) -> float:
    """Network time a prompt spends between pipeline stages: its activations (prompt x hidden size x 2 bytes)
    cross pp - 1 boundaries before the first token."""
    if pp <= 1:
        return 0.0
    rate = inter_node_gbps(network_gbit_per_s) * 1e9
    return (pp - 1) * (INTER_NODE_LATENCY_S + prompt * model.hidden_size * 2 / rate)


def _ranged(t: Term, low: float, high: float) -> Term:
    return t.model_copy(update={"low": min(low, t.value), "high": max(high, t.value)})


def speed(inp: SpeedInput) -> SpeedResult:
    model = resolve_model(inp.model)
    precision = find_precision(inp.precision)
    gpu = find_gpu(inp.gpu)
    engine: Engine = inp.engine or default_engine(precision, gpu)
    check_format_runs(engine, precision)
    check_engine_runs(engine, gpu)
    kv = kv_precision_for(precision, inp.kv_precision, engine)
    backend = llamacpp_backend_for(gpu, inp.llamacpp_backend) if engine == "llama.cpp" else None
    n = inp.gpus
    if inp.pp > 1 and engine in LAYER_SPLIT_ENGINES:
        raise ToolError(f"{engine} splits layers over the GPUs of one machine; pipeline stages across servers are "
                        "sized for vLLM and SGLang")
    assumptions: list[str] = []
    warnings: list[str] = [w for w in (name_only(model),) if w]  # said first, never only assumed

    kv_bits = kv.kv_bits or 16
    lc_moe = llamacpp_moe(model, engine, gpu, backend)
    # pipeline parallel: the batch runs as pp micro-batches, one in each stage; a sequence's token passes
    # every stage in turn, so it waits for the whole model's weights (over tp GPUs) and its micro-batch's KV
    micro = -(-inp.batch // inp.pp)
    hop = pipeline_hop_seconds(model, micro, inp.pp, inp.network_gbit_per_s)
    hop += expert_network_seconds(model, -(-inp.batch // n), inp.expert_servers, inp.network_gbit_per_s)
    dp = max(inp.dp_attention, n if inp.expert_servers > 1 else 1)
    d = decode_step_seconds(model, precision, kv_bits, gpu, engine, n, micro, inp.context, backend, dp=dp)
    d["comm"] += hop
    core = max(d["memory"], d["compute"])
    step = core + d["overhead"] + d["comm"]
    bound: Literal["memory bandwidth", "compute"] = "memory bandwidth" if d["memory"] >= d["compute"] else "compute"
    per_seq = 1 / step
    # the fixed overhead is the least certain part: the range takes half to double of it
    if big_moe(model, engine):
        # big MoE: the grouped-GEMM efficiency and the expert dispatch spread most (kernels, versions)
        f = decode_step_seconds(model, precision, kv_bits, gpu, engine, n, micro, inp.context, backend,
                                moe_eff=MOE_GROUPED_EFF["fast"], dp=dp)
        sl = decode_step_seconds(model, precision, kv_bits, gpu, engine, n, micro, inp.context, backend,
                                 moe_eff=MOE_GROUPED_EFF["slow"], dp=dp)
        f["comm"] += hop
        sl["comm"] += hop
        fast = 1 / (max(f["memory"], f["compute"]) * 0.9 + f["overhead"] * 0.5 + f["comm"] - f["moe_comm"] * 0.5)
        slow = 1 / (max(sl["memory"], sl["compute"]) * 1.15 + sl["overhead"] * 2 + sl["comm"] * 1.5
                    + sl["moe_comm"] * (MOE_COMM_SLOW - 1.5))
        assumptions.append("decode range: the grouped-GEMM and expert-dispatch ends above (calibrated on the "
                           "DeepSeek-R1 rows), not a residual band")
    elif lc_moe is not None:
        (slow, fast), words = llamacpp_moe_decode_range(model, precision, kv_bits, gpu, n, inp.batch, inp.context, backend)
        assumptions.append(words)
    else:
        # the bench's measured error for this engine's decode; without rows, half to double the fixed
        # overhead and -15 % .. +10 % on the rest
        own = (1 / (core * 1.15 + d["overhead"] * 2 + d["comm"] * 1.5), 1 / (core * 0.9 + d["overhead"] * 0.5 + d["comm"]))
        (slow, fast), words = measured_range(per_seq, f"decode speed ({engine})", own, SPEED_FALLBACK_WORDS)
        assumptions.append(words)

    p = prefill_token_seconds(model, precision, gpu, engine, n, inp.context, backend, dp=dp)
    prefill = 1 / p["seconds"]
    (plo, phi), words = measured_range(prefill, f"prefill speed ({engine})", (prefill * 0.7, prefill * 1.3),
                                       "-30 % to +30 % of the estimate")
    assumptions.append(words)
    # llama.cpp's layer split: the overlap itself spreads (its record's range), on top of the measured band
    prefill_range = (plo * p["seconds"] / p["seconds_slow"], phi * p["seconds"] / p["seconds_fast"])
    ttft = (inp.context * p["seconds"] + step + pipeline_prompt_seconds(model, inp.context, inp.pp, inp.network_gbit_per_s)
            + expert_network_seconds(model, inp.context, inp.expert_servers, inp.network_gbit_per_s))
    if inp.expert_servers > 1:
        assumptions.append(
            f"data-parallel attention with expert parallelism over {n} GPUs on {inp.expert_servers} servers: each "
            f"GPU runs attention for its own sequences, and every MoE layer sends each token to its experts and back "
            f"over the network between the servers ({expert_network_seconds(model, -(-inp.batch // n), inp.expert_servers, inp.network_gbit_per_s) * 1e3:.2f} ms "
            "per token at this batch)")
    if inp.pp > 1:
        net = (f"the {inp.network_gbit_per_s:g} Gb/s network said between the servers" if inp.network_gbit_per_s
               else "InfiniBand or RoCE")
        assumptions.append(
            f"pipeline parallel over {inp.pp} servers ({n} GPUs each, tensor parallel inside): {inp.batch} sequence(s) as "
            f"{inp.pp} micro-batches of {micro}; each token crosses {inp.pp} stage boundaries over {net} "
            f"({inter_node_gbps(inp.network_gbit_per_s):g} GB/s, {INTER_NODE_LATENCY_S * 1e6:g} us per send): "
            f"{hop * 1e3:.2f} ms per token; a prompt passes the stages one after another, so the first token is no "
            "sooner than on one server")
    if engine == "llama.cpp" and n > 1:
        assumptions += layer_split_assumptions(model, precision, gpu, n, inp.context, backend)
    if engine != "llama.cpp" and n > 1 and link(gpu)[0] == "pcie" and not gpu.has_nvlink:
        warnings.append(f"{gpu.name} has no NVLink: tensor parallelism sends {2 * model.num_layers} all-reduces per token over PCIe")
    warnings += format_unit_warnings(precision, gpu)
    warnings += sixteen_bit_warnings(precision, gpu)

    terms = [
        _ranged(term("decode_tokens_per_s", "Decode speed per sequence", per_seq, "tokens/s",
             "1 / (max(bytes read per step / (bandwidth x efficiency), FLOPs per step / (tensor FLOPS x efficiency)) "
             "+ fixed per-layer overhead + GPU-to-GPU communication)",
             {"weight_bytes_read": d["weight_read"], "kv_bytes_read": d["kv_read"],
              "bandwidth_gbps": gpu.memory_bandwidth_gbps,
              "bandwidth_efficiency": d["bandwidth_eff"],
              "step_overhead_s": d["overhead"], "communication_s": d["comm"], "batch": inp.batch, "gpus": n}
             | ({"pipeline_stages": inp.pp, "micro_batch": micro, "pipeline_hops_s": hop} if inp.pp > 1 else {})
             | ({"routed_expert_bytes_read": d["routed_read"], "grouped_gemm_efficiency": d["grouped_eff"],
                 "expert_dispatch_s": d["moe_comm"]} if d["routed_read"] and lc_moe is None else {})
             | ({"routed_expert_bytes_read": d["routed_read"], "routed_expert_share": d["grouped_eff"],
                 "expert_fixed_s": d["expert_overhead"]} if lc_moe is not None else {})
             | ({"llamacpp_backend": backend} if backend else {})), slow, fast),
        _ranged(term("time_per_output_token_s", "Time per output token", step, "s",
                     "one decode step at this batch: max(memory, compute) + overhead + communication",
                     {"batch": inp.batch, "context": inp.context}), 1 / fast, 1 / slow),
        term("aggregate_decode_tokens_per_s", "Decode speed, all sequences", per_seq * inp.batch, "tokens/s",
             "batch x per-sequence speed", {"batch": inp.batch}),
        _ranged(term("prefill_tokens_per_s", "Prefill speed", prefill, "tokens/s",
             "1 / (2 x active parameters / (matmul TFLOPS x MFU) + non-matmul time + attention FLOPs / (TFLOPS x attention efficiency)), "
             "divided over GPUs",
             {"active_parameters": model.active_params_b * 1e9,
              "matmul_tflops": matmul_tflops(gpu, precision, engine), "mfu": p["mfu"],
              "attention_efficiency": p["attn_eff"], "prompt_tokens": inp.context, "gpus": n}
             | ({"layer_split_micro_batches_in_flight": p["in_flight"]} if p["in_flight"] else {})), *prefill_range),
    ]
    if model.is_moe:
        read = arch.params_read_per_step(model, inp.batch)
        assumptions.append(
            f"MoE: each step reads {read / 1e9:.1f}B of {model.total_params_b:g}B parameters "
            f"(the experts that {inp.batch} sequence(s) route to)")
    assumptions.append(f"{engine}: {d['bandwidth_eff']:.0%} of peak bandwidth in decode, "
                       f"{p['mfu']:.0%} of peak tensor throughput in prefill matrix multiplies")
    if backend:
        rec = efficiency(engine, gpu, precision, backend)["record"]
        kind = weights_kind(precision)
        assumptions.append(f"llama.cpp {backend} backend, {kind} kernels: efficiencies from "
                           + (f"{rec.id} (fitted on {rec.fitted_on})" if rec else "the CUDA fit (no measurements for this backend)"))
    if lc_moe is not None and backend:
        assumptions.append(llamacpp_moe_words(lc_moe, backend))
    if d["routed_read"] and lc_moe is None:
        assumptions.append(
            f"MoE decode: routed experts ({d['routed_read'] / 1e9:.0f} GB per step) read by a grouped GEMM at "
            f"{MOE_GROUPED_EFF['central']:.0%} of the dense efficiency (range {MOE_GROUPED_EFF['slow']:.0%}-"
            f"{MOE_GROUPED_EFF['fast']:.0%}), plus an expert dispatch and combine per layer across GPUs; calibrated on "
            "SGLang's DeepSeek-R1 FP8 TP8 H200 sweep, the slow end on an early-2025 vLLM report")
    if precision.compute == "fp8" and not gpu.fp8_tflops:
        assumptions.append(f"{gpu.name} has no FP8 tensor cores: FP8 weights are computed in 16-bit")
    if model.resolved_from == "name" and not arch.is_generic(model):  # a catalog layout taken by the name: said
        assumptions.append(f"{model.name}: {model.notes.split('; ', 1)[0]}")
    return SpeedResult(
        model=model.name, gpu=gpu.id, gpus=n, pp=inp.pp, engine=engine, batch=inp.batch, context=inp.context,
        decode_tokens_per_s=per_seq, decode_tokens_per_s_range=(slow, fast),
        aggregate_decode_tokens_per_s=per_seq * inp.batch,
        prefill_tokens_per_s=prefill, prefill_tokens_per_s_range=prefill_range,
        time_to_first_token_s=ttft, time_per_output_token_s=step, time_per_output_token_s_range=(1 / fast, 1 / slow),
        bound=bound, terms=terms, assumptions=assumptions, warnings=warnings,
    )
