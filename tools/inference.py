"""Inference memory: weights + KV cache + activations + engine overhead, per GPU and in total."""

from __future__ import annotations

import math
from typing import Literal

from pydantic import Field

from gpu_advisor.knowledge import engine_for, engines_on, find_gpu, find_precision
from gpu_advisor.knowledge.schema import Gpu, ModelArch, Precision
from gpu_advisor.tools import arch
from gpu_advisor.tools.common import (
    ENGINE_HELP,
    GIB,
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
from gpu_advisor.tools.models import name_only, resolve_model

Engine = Literal["transformers", "vllm", "llama.cpp", "sglang"]
# vLLM's memory accounting by release (its worker's determine_available_memory):
#   v0: the V0 engine (the constants below come from its log, reference rows 623-629, VLLM_PR10511);
#   v1-before-0.21: the V1 engine from 0.9 up to 0.20 (CUDA graphs captured after the KV cache is
#     sized, so they live in the 1 - gpu_memory_utilization headroom; the start-up snapshot holds the
#     CUDA context, so it is outside the budget too; what NCCL and the profile run add outside PyTorch
#     is inside it). Its logs say so: "Free memory on device (43.93/44.42 GiB) on startup. Desired GPU
#     memory utilization is (0.9, 39.98 GiB). Actual usage is 27.72 GiB for weight, 1.4 GiB for peak
#     activation, 0.21 GiB for non-torch memory, and 3.45 GiB for CUDAGraph memory", with 10.65 GiB
#     available (= 39.98 - 27.72 - 1.4 - 0.21; reference VLLM_L40S_QWEN3_235B, vLLM 0.10.2);
#   v1: the current release (0.21+): the memory snapshot is taken after NCCL is initialised, so the
#     CUDA context and NCCL buffers sit outside the budget, and CUDA graph memory is profiled and
#     subtracted before the KV cache is sized ("CUDA graph memory profiling is enabled (default since
#     v0.21.0)", vLLM's own log line).
EngineVersion = Literal["v1", "v1-before-0.21", "v0"]
ENGINE_VERSION_WORDS = {
    "v1": "vLLM V1, current release (0.21 or later: CUDA graph memory profiled inside the budget)",
    "v1-before-0.21": "vLLM V1 before 0.21 (CUDA context and CUDA graphs in the headroom, outside the budget)",
    "v0": "vLLM V0 engine (the accounting of its Dec 2024 log)",
}

# What the driver leaves of a card's nominal memory: vLLM logs total_gpu_memory 79.22 GiB on an
# "80 GB" card (reference inference_memory.csv rows 623-629, VLLM_PR10511): 0.99 of 80 GiB.
USABLE_FRACTION = 0.99
# Data-centre cards with GDDR memory (L4, L40S, L20, A10, A40, T4) ship with ECC on, which keeps one
# sixteenth of the memory for check bits: an L40S shows 46,068 of 49,152 MiB in nvidia-smi and vLLM
# logs "Free memory on device (43.93/44.42 GiB)" (reference rows VLLM_L40S_QWEN3_235B).
GDDR_ECC_FRACTION = 15 / 16
# macOS lets the GPU wire about three quarters of unified memory by default.
APPLE_USABLE_FRACTION = 0.75

# vLLM: non-torch memory (CUDA context, NCCL, CUDA graphs) was 1.79 GiB at TP=1 and 3.58 GiB per GPU
# at TP=2 for Llama-3-8B (reference rows 624 and 628).
VLLM_NON_TORCH_BYTES = 1.79 * GIB
# vLLM's CacheConfig default, the same 0.90 in V0 and in every V1 release read (vllm/config/cache.py).
VLLM_DEFAULT_UTILISATION = 0.90
VLLM_DEFAULT_UTILISATION_BY_VERSION: dict[str, float] = {"v0": 0.90, "v1-before-0.21": 0.90, "v1": 0.90}
VLLM_BATCHED_TOKENS = 8192  # max_num_batched_tokens used by vLLM V0's profiling run
VLLM_MAX_SEQS = 256
# V1's `vllm serve` defaults (vllm/engine/arg_utils.py get_batch_defaults): cards with 70 GiB or more
# that are not A100s get max_num_batched_tokens 8192 and max_num_seqs 1024, the others 2048 and 256.
VLLM_V1_LARGE = (8192, 1024)
VLLM_V1_SMALL = (2048, 256)
# V1's profile run ends with a sampler warm-up on max_num_seqs rows of full-vocabulary logits with
# top-k (vocab - 1) and top-p set (gpu_model_runner._dummy_sampler_run). Bytes live per (row, vocabulary
# entry) at the sampler's peak depend on which top-k/top-p path runs:
#   flashinfer (used when FlashInfer is installed; vLLM's images and 0.2x wheels have it): 2 (bf16
#     logits from the LM head) + 4 (fp32 copy) + 4 (top-k masked logits) + 4 (their softmax) = 14;
#   native, V1 before 0.21 (the 0.10 wheels without FlashInfer: "FlashInfer is not available. Falling
#     back to the PyTorch-native implementation"): 2 + 4 + the sort of every row, 4 (values) + 8 (int64
#     indices), with the sort's own input indices and double buffers (8 + 4 + 8) live at its peak = 38;
#     logged: 1.4 GiB peak activation for 256 x 151,936 logits (reference row VLLM_L40S_QWEN3_235B);
#   native, 0.21 or later: the peak moves to the scatter back out of sorted order, 2 + 4 + 4 (sorted
#     values) + 8 (indices) + 1 (top-k mask) + 4 (softmax, cumsum in place) + 1 (top-p mask) + 4 (the
#     scattered result) = 28; logged: 1.04 GiB for 256 x 152,064 logits with VLLM_USE_FLASHINFER_SAMPLER=0
#     (reference row VLLM_RTX4080_QWEN25_AWQ).
VllmSampler = Literal["flashinfer", "native"]
VLLM_SAMPLER_BYTES_PER_LOGIT: dict[tuple[str, str], int] = {
    ("v1", "flashinfer"): 14, ("v1", "native"): 28,
    ("v1-before-0.21", "flashinfer"): 14, ("v1-before-0.21", "native"): 38,
}
# What `pip install vllm` ran by default: 0.2x wheels bring FlashInfer; the 0.10 wheels did not.
VLLM_DEFAULT_SAMPLER: dict[str, VllmSampler] = {"v1": "flashinfer", "v1-before-0.21": "native"}
# vLLM's KV cache is paged in blocks of 16 tokens (CacheConfig block_size default); the capacity it
# logs is a whole number of blocks.
VLLM_BLOCK_TOKENS = 16
# Sliding-window layers (Gemma 2/3, gpt-oss, Mistral 7B v0.1) by release:
#   V0: a model that mixes sliding-window and full-attention layers is scheduled as full attention ("the
#     scheduler and the model treat it as full attention ... only the attention layer itself is aware of the
#     sliding window", vllm/config.py since PR #10584, 0.6.5); a model whose every layer slides keeps only
#     the window's blocks. Its log prints the blocks and "Maximum concurrency" = blocks x 16 / max_model_len.
#   V1 from 0.9.1 (hybrid KV cache manager, PR #17996; "Initial full support for Hybrid Memory Allocator"
#     in the 0.9.1 release notes): layers are grouped by kind into groups of equal size (the smaller kind's
#     count, or the larger's when it is under 1.5 x the smaller; padding layers fill the last group of a kind,
#     _get_kv_cache_groups_uniform_page_size), and all groups share one pool of num_blocks = available //
#     (page x layers per group). "GPU KV cache size: N tokens" prints num_blocks // groups x 16 (as if every
#     group held every token, _report_kv_cache_config), and "Maximum concurrency" is num_blocks over the
#     blocks one max_model_len request reserves: cdiv(L, 16) per full-attention group and
#     cdiv(min(window - 1 + in-flight tokens, L), 16) + 1 per sliding group (SlidingWindowSpec.
#     max_memory_usage_bytes; get_max_concurrency_for_kv_cache_config). --disable-hybrid-kv-cache-manager
#     turns the sliding layers into full attention (unify_hybrid_kv_cache_specs). V1 0.8 to 0.9.0 did that
#     for every mixed model; not modelled (v1-before-0.21 is the 0.9.1+ accounting most of its users ran).
#   The in-flight tokens: max_num_batched_tokens up to 0.25; from 0.26 max_concurrent_batches x
#     max_num_batched_tokens, 2 batches with async scheduling (on by default), so twice as many for v1.
VLLM_IN_FLIGHT_BATCHES: dict[str, int] = {"v1": 2, "v1-before-0.21": 1, "v0": 1}
VLLM_GROUP_RATIO = 1.5  # _get_kv_cache_groups_uniform_page_size: one group size when the kinds are this close
VllmSliding = Literal["hybrid", "full", "window"]
# V1 0.21+: what the profile run adds outside PyTorch's allocator once NCCL is up, 0.11 GiB on an A100
# at TP1 (kvcached PR #448, two models); CUDA graph memory as vLLM 0.2x's estimate logs it, 0.11-0.36
# GiB on the logs read (gpustack/runner PR #251: 0.36 GiB at TP2; club-3090 issue #127: 0.17 GiB at
# TP4; vllm-windows-build issue #4: 0.14 GiB estimated, 0.11 actual); larger cards capture up to 512
# sizes, so 0.5 GiB with a range of 0.1 to 1.5 GiB.
VLLM_V1_NON_TORCH_INCREASE_BYTES = 0.11 * GIB
VLLM_CUDA_GRAPH_BYTES = 0.5 * GIB
# V1 before 0.21 (0.9 to 0.20, vllm/v1/worker/gpu_worker.py init_device): the memory snapshot is taken
# once the CUDA context exists and before torch.distributed starts, so the context sits outside the
# budget, and what NCCL and the profile run add outside PyTorch ("non-torch memory") sits inside it.
# Over PCIe (custom all-reduce off): 0.21 GiB per GPU at TP8 (vLLM 0.10.2 log, reference
# VLLM_L40S_QWEN3_235B), 0.12 GiB more per GPU at TP2 than at TP1 (vLLM 0.10.1.1 logs, reference
# DL22_VLLM_BENCH): 0.10 GiB. Over NVLink, where vLLM's custom all-reduce and NCCL's NVLink buffers
# come up: 0.55 and 0.54 GiB at TP2 against 0.13 and 0.14 GiB at TP1 on H100 (reference
# LLMD_EMPIRICAL_MEMORY): 0.41 GiB.
VLLM_NCCL_INSIDE_BYTES = 0.10 * GIB
VLLM_NCCL_NVLINK_INSIDE_BYTES = 0.41 * GIB
# Activation bytes per batched token per unit of width, fitted so that Llama-3-8B gives the 1.26 GiB
# torch activation peak of reference row 626: 2 bytes x (4 h + 4 I) per token, plus sampler logits.
VLLM_ACT_H, VLLM_ACT_I = 4, 4

# transformers generate(): the peak is in the prefill, over the prompt only (the generated tokens add KV
# cache, not activations): 2 bytes x (ACT_H h + ACT_I I) per prompt token, the hidden state with q, k, v
# and the attention output (4 h) and the MLP's gate, up and their product (3 I). Checked on the Qwen2.5
# speed benchmark (reference inference_memory.csv rows 73-184, 2,048 tokens generated after each prompt):
# 0.8 % median error with the output tokens left out of the prefill; counting the whole context as
# prompt (the figure before output_tokens) had needed 1.6 I to reach 2.9 %.
HF_ACT_H, HF_ACT_I = 4.0, 3.0
HF_CUDA_CONTEXT_BYTES = 0.5e9  # CUDA context + cuBLAS workspace, outside torch's allocator
# PyTorch's caching allocator keeps freed blocks reserved; transformers' generate() grows the KV cache
# by concatenation, so reserved memory sits above the allocated peak. An assumption, not a measurement:
# 5 % of the allocator's peak, range 2-15 %.
ALLOCATOR_SLACK_FRACTION = 0.05

# SGLang (python/sglang/srt/model_executor/model_runner_kv_cache_mixin.py profile_max_num_token): the
# KV pool is the free memory after the weights load minus (1 - mem_fraction_static) x the free memory
# before they load, i.e. mem_fraction_static x free-before-load - weights. Before the load each rank
# holds its CUDA context and what torch.distributed's init allocates (NCCL, custom all-reduce): SGLang
# logs "Init torch distributed ends. mem usage=2.01 GB" per rank at TP8 (sglang PR #11716 log, H200).
SGLANG_DISTRIBUTED_INIT_BYTES = 2.0 * GIB
SGLANG_CUDA_CONTEXT_BYTES = HF_CUDA_CONTEXT_BYTES

# llama.cpp: compute buffer for one micro-batch (n_ubatch 512) with flash attention: f32 logits for
# the micro-batch plus working tensors; CUDA context about 0.35 GB.
LLAMACPP_UBATCH = 512
LLAMACPP_CUDA_CONTEXT_BYTES = 0.35e9


class InferenceMemoryInput(ToolInput):
    model: str = Field(description=MODEL_HELP)
    precision: str = Field("bf16", description=PRECISION_HELP)
    kv_precision: str | None = Field(None, description=KV_PRECISION_HELP)
    context: int = Field(4096, gt=0, le=MAX_COUNT, description="tokens per sequence (prompt + output)")
    output_tokens: int = Field(0, ge=0, description="of the context, tokens generated after the prompt: transformers' "
                                                     "prefill peak covers only the prompt (default 0: all prompt)")
    batch: int = Field(1, gt=0, le=MAX_COUNT, description="concurrent sequences")
    gpus: int = Field(1, gt=0, le=64, description="tensor-parallel degree")
    pp: int = Field(1, gt=0, le=64, description="pipeline stages")
    gpu: str | None = Field(None, description="GPU to check the fit on")
    engine: Engine | None = Field(None, description=ENGINE_HELP)
    gpu_memory_utilization: float | None = Field(
        None, gt=0, le=1, description="vLLM: share of each card it may use; default per engine version (0.90)")
    engine_version: EngineVersion = Field(
        "v1", description="vLLM accounting: v1 (current release, default), v1-before-0.21, v0")
    mem_fraction_static: float | None = Field(
        None, gt=0, le=1, description="SGLang: share of memory for weights and KV pool; default SGLang's own rule")
    vllm_sampler: VllmSampler | None = Field(
        None, description="vLLM top-k/top-p path in the profile run: flashinfer or native; default per engine version")
    disable_hybrid_kv_cache_manager: bool = Field(
        False, description="vLLM V1 --disable-hybrid-kv-cache-manager: sliding-window layers then keep every token "
        "(as V0 does for models that mix sliding-window and full-attention layers)")
    dp_attention: int = Field(
        1, gt=0, le=64, description="data-parallel attention ranks among the tensor-parallel GPUs (SGLang "
        "--enable-dp-attention --dp-size, vLLM data-parallel attention): each rank keeps the KV cache of its own "
        "sequences, and the weights outside the routed experts are split over gpus / dp_attention only")


class InferenceMemoryResult(Explained):
    model: str
    model_id: str
    precision: str
    kv_precision: str
    engine: Engine
    context: int
    batch: int
    gpus: int
    pp: int
    weights_bytes: float
    kv_cache_bytes: float
    activation_bytes: float
    overhead_bytes: float
    total_bytes: float
    total_range_bytes: tuple[float, float]
    per_gpu_weights_bytes: float
    per_gpu_kv_cache_bytes: float
    per_gpu_activation_bytes: float
    per_gpu_overhead_bytes: float
    per_gpu_total_bytes: float
    per_gpu_total_range_bytes: tuple[float, float]
    kv_bytes_per_token: float = Field(description="per sequence, all layers, whole model")
    gpu: str | None = None
    gpu_capacity_bytes: float | None = None
    fits: bool | None = None
    headroom_bytes: float | None = None
    kv_cache_capacity_tokens: int | None = None
    max_concurrent_sequences: float | None = None
    engine_version: str | None = Field(None, description="vLLM accounting applied (v1, v1-before-0.21, v0)")
    allocator_peak_bytes: float = Field(0.0, description="what the framework's allocator reports at peak, all GPUs "
                                        "(torch.cuda.max_memory_allocated; ggml buffers for llama.cpp)")
    per_gpu_allocator_peak_bytes: float = 0.0
    device_bytes: float = Field(0.0, description="what the devices need: the allocator's peak plus CUDA context, "
                                "NCCL and CUDA graphs, allocator slack (the same as total_bytes)")
    per_gpu_device_bytes: float = 0.0
    mem_fraction_static: float | None = None


# macOS lets the GPU wire about two thirds of memory on Macs of 36 GB or less, three quarters above
# (recommendedMaxWorkingSetSize; raised with `sudo sysctl iogpu.wired_limit_mb`, which answers mention).
SMALL_MAC_GB = 36
SMALL_MAC_USABLE_FRACTION = 2 / 3


def usable_bytes(gpu: Gpu) -> float:
    """Memory a framework can use: nominal GiB x 0.99 (x 15/16 more on data-centre GDDR cards, whose ECC
    is on); of unified memory 0.75, and on a Mac of 36 GB or less two thirds (macOS's default GPU
    working-set limit)."""
    if gpu.unified_memory and gpu.stack == "metal" and gpu.memory_gb <= SMALL_MAC_GB:
        return gpu.memory_gb * GIB * SMALL_MAC_USABLE_FRACTION
    if gpu.unified_memory:
        return gpu.memory_gb * GIB * APPLE_USABLE_FRACTION
    ecc = GDDR_ECC_FRACTION if gpu.memory_type == "gddr" and gpu.segment == "datacenter" else 1.0
    return gpu.memory_gb * GIB * USABLE_FRACTION * ecc


def default_engine(precision: Precision, gpu: Gpu | None = None) -> Engine:
    """llama.cpp for GGUF files, else vLLM; on a card vLLM does not run on (a Mac), the first engine
    for the format that does."""
    first: Engine = "llama.cpp" if precision.family == "gguf" else "vllm"
    if gpu is None or engine_for(first, gpu) is not None:
        return first
    for e in ("llama.cpp", "transformers"):
        if e in precision.engines and engine_for(e, gpu) is not None:
            return e
    return first


def check_format_runs(engine: Engine, precision: Precision) -> None:
    """Refuse a weight format the engine cannot load (SGLang loads what vLLM loads)."""
    if (engine if engine != "sglang" else "vllm") not in precision.engines:
        raise ToolError(
            f"{precision.name} weights do not run on {engine}; engines for it: {', '.join(precision.engines)}"
        )


def _stage_weights(model: ModelArch, precision: Precision, weights: float, pp: int) -> float:
    """Weight bytes on the fullest pipeline stage: the layers split evenly, plus the token embeddings
    (first stage) or the output head (last stage), one vocabulary x hidden matrix either way; a tied
    head is a copy the last stage holds too."""
    if pp <= 1:
        return weights
    matrix = arch.embedding_params(model) / (1 if model.tied_embeddings else 2)
    if not matrix:
        return weights / pp
    per_value = 2.0 if not precision.quantizes_embeddings or precision.bits_per_weight >= 16 else \
        precision.bits_per_weight / 8
    embeddings = arch.embedding_params(model) * per_value
    body = max(weights - embeddings, 0.0)
    return body / pp + matrix * per_value


def check_engine_runs(engine: Engine, gpu: Gpu) -> None:
    """Refuse figures for an engine that does not run on the card (engines.yaml)."""
    if engine_for(engine, gpu) is None:
        here = ", ".join(name for _, name in engines_on(gpu)) or "none in the catalog"
        raise ToolError(f"{engine} does not run on {gpu.name}; engines there: {here}")


def _engine_words(engine: Engine, card: Gpu | None) -> str:
    """'engine vLLM-Ascend (sized as vllm; also runs here: SGLang, MindIE)' on a card, else 'engine vllm'."""
    if card is None:
        return f"engine {engine}"
    name = engine_for(engine, card) or engine
    others = [n for e, n in engines_on(card) if n != name and e.id != "transformers"]
    sized = f"sized as {engine}" if name != engine and name != "SGLang" else ""
    also = f"also runs here: {', '.join(others)}" if others else ""
    extra = "; ".join(x for x in (sized, also) if x)
    return f"engine {name}" + (f" ({extra})" if extra else "")


def kv_precision_for(precision: Precision, kv: str | None, engine: Engine) -> Precision:
    if kv:
        p = find_precision(kv)
        if not p.usable_for_kv:
            usable = ", ".join(x.id for x in _kv_formats())
            raise ToolError(f"'{kv}' cannot hold a KV cache; use one of: {usable}")
        return p
    return find_precision("f16" if engine == "llama.cpp" else "bf16")


def _kv_formats() -> list[Precision]:
    from gpu_advisor.knowledge import precisions

    return [p for p in precisions() if p.usable_for_kv]


def vllm_batch_defaults(gpu: Gpu | None, version: EngineVersion) -> tuple[int, int]:
    """(max_num_batched_tokens, max_num_seqs) that `vllm serve` picks for the card."""
    if version == "v0":
        return VLLM_BATCHED_TOKENS, VLLM_MAX_SEQS
    if gpu is not None and gpu.memory_gb >= 70 and "a100" not in f"{gpu.id} {gpu.name}".lower():
        return VLLM_V1_LARGE
    return VLLM_V1_SMALL


def activation_term(model: ModelArch, engine: Engine, context: int, batch: int,
                    version: EngineVersion = "v1", gpu: Gpu | None = None, tp: int = 1,
                    sampler: VllmSampler | None = None, output_tokens: int = 0) -> Term:
    h, inter = model.hidden_size, model.intermediate_size * (model.experts_per_token or 1)
    if engine == "vllm" and version == "v0":
        tokens = VLLM_BATCHED_TOKENS
        logits = min(VLLM_MAX_SEQS, tokens) * model.vocab_size * 4
        value: float = tokens * 2 * (VLLM_ACT_H * h + VLLM_ACT_I * inter) + logits
        return term("activation_bytes", "Activations (profiling peak)", value, "bytes",
                    "max_num_batched_tokens x 2 bytes x (4 x hidden + 4 x MLP width) + 256 sequences x vocab x 4 bytes of logits",
                    {"max_num_batched_tokens": tokens, "hidden": h, "mlp_width": inter, "vocab": model.vocab_size},
                    rel_low=0.4, rel_high=0.6)
    if engine == "vllm":
        tokens, seqs = vllm_batch_defaults(gpu, version)
        kind = sampler or VLLM_DEFAULT_SAMPLER[version]
        per_logit = VLLM_SAMPLER_BYTES_PER_LOGIT[(version, kind)]
        forward = tokens * 2 * (VLLM_ACT_H * h + VLLM_ACT_I * inter)
        sampler_bytes = seqs * model.vocab_size * per_logit
        value = max(forward, sampler_bytes)
        which = "the sampler warm-up" if sampler_bytes >= forward else "the forward pass"
        return term("activation_bytes", f"Activations (profiling peak: {which})", value, "bytes",
                    "max(max_num_batched_tokens x 2 bytes x (4 x hidden + 4 x MLP width), "
                    f"max_num_seqs x vocab x {per_logit} bytes of sampler warm-up ({kind} top-k/top-p path))",
                    {"max_num_batched_tokens": tokens, "max_num_seqs": seqs, "hidden": h, "mlp_width": inter,
                     "vocab": model.vocab_size, "forward_bytes": forward, "sampler_bytes": sampler_bytes,
                     "sampler_bytes_per_logit": per_logit},
                    rel_low=0.3, rel_high=0.4)
    if engine == "sglang":
        chunk, graph_bs = sglang_sizes(gpu, tp)
        value = (512 + max(chunk, 2048) * 1.5 + graph_bs * 2) * 2**20
        return term("activation_bytes", "Activations and CUDA graphs (SGLang's reserve)", value, "bytes",
                    "SGLang's own estimate: 512 MiB + 1.5 MiB per chunked-prefill token + 2 MiB per CUDA-graph batch size",
                    {"chunked_prefill_size": chunk, "cuda_graph_max_bs": graph_bs}, rel_low=0.5, rel_high=0.5)
    if engine == "llama.cpp":
        ub = min(LLAMACPP_UBATCH, context * batch)
        value = ub * model.vocab_size * 4 + ub * 4 * (8 * h + 2 * inter)
        return term("activation_bytes", "Compute buffer", value, "bytes",
                    "n_ubatch x vocab x 4 bytes (f32 logits) + n_ubatch x 4 bytes x (8 x hidden + 2 x MLP width)",
                    {"n_ubatch": ub, "vocab": model.vocab_size, "hidden": h, "mlp_width": inter},
                    rel_low=0.4, rel_high=0.6)
    tokens = (context - output_tokens) * batch  # generate() peaks in the prefill, over the prompt
    value = tokens * 2 * (HF_ACT_H * h + HF_ACT_I * inter) + batch * model.vocab_size * 4
    return term("activation_bytes", "Activations (prefill peak)", value, "bytes",
                "prompt tokens x batch x 2 bytes x (4 x hidden + 3 x MLP width) + last-token logits",
                {"tokens": tokens, "hidden": h, "mlp_width": inter, "vocab": model.vocab_size},
                rel_low=0.4, rel_high=0.6)


def sglang_sizes(gpu: Gpu | None, tp: int) -> tuple[int, int]:
    """(chunked_prefill_size, cuda_graph_max_bs) by SGLang's rule (server_args._handle_gpu_memory_settings)."""
    if gpu is None:
        return 4096, 160
    mib = gpu.memory_gb * 1024
    if mib < 20 * 1024:
        return 2048, 8
    if mib < 35 * 1024:
        return 2048, 24 if tp < 4 else 80
    if mib < 60 * 1024:
        return 4096, 32 if tp < 4 else 160
    if mib < 160 * 1024:
        return 8192, 256 if tp < 4 else 512
    return 16384, 512


def sglang_default_mem_fraction(gpu: Gpu | None, tp: int, pp: int) -> float:
    """SGLang's default --mem-fraction-static: (memory - reserve) / memory, the reserve in MiB being
    512 + 1.5 x chunked_prefill_size + 2 x cuda_graph_max_bs + tp x pp / 8 x 1024, at least 10 GiB on
    cards over 60 GiB; 0.88 when the card is unknown (sglang server_args.py)."""
    if gpu is None:
        return 0.88
    mib = gpu.memory_gb * 1024
    chunk, graph_bs = sglang_sizes(gpu, tp)
    reserved = 512 + max(chunk, 2048) * 1.5 + graph_bs * 2 + tp * pp / 8 * 1024
    if mib > 60 * 1024:
        reserved = max(reserved, 10 * 1024)
    return round((mib - reserved) / mib, 3)


def overhead_term(engine: Engine, gpus: int, version: EngineVersion = "v1", nvlink: bool = False) -> Term:
    if engine == "vllm":
        base = VLLM_NON_TORCH_BYTES * (1 if gpus == 1 else 2)
        if version == "v0":
            return term("overhead_bytes", "Engine overhead", base, "bytes",
                        "vLLM non-torch memory: CUDA context, CUDA graphs, and NCCL buffers when split over GPUs",
                        {"gpus": gpus}, rel_low=0.3, rel_high=0.5)
        if version == "v1-before-0.21":
            inside = _vllm_non_torch_inside(gpus, nvlink)
            outside = _vllm_outside_budget(version, gpus)
            return term("overhead_bytes", "Engine overhead", inside + outside, "bytes",
                        "inside the budget: what NCCL and the profile run add outside PyTorch (0.11 GiB; when split "
                        "0.10 GiB more over PCIe, 0.41 GiB over NVLink); outside it: the CUDA context (0.5 GB, in "
                        "the start-up snapshot) and CUDA graphs (0.5 GiB, captured after the KV cache is sized)",
                        {"gpus": gpus, "non_torch_inside_bytes": inside, "outside_budget_bytes": outside,
                         "cuda_graph_bytes": VLLM_CUDA_GRAPH_BYTES}, rel_low=0.3, rel_high=0.5)
        outside = _vllm_outside_budget(version, gpus)
        value = outside + VLLM_CUDA_GRAPH_BYTES + VLLM_V1_NON_TORCH_INCREASE_BYTES
        return term("overhead_bytes", "Engine overhead", value, "bytes",
                    "CUDA context (0.5 GB) and NCCL init (2.0 GiB when split over GPUs), outside the budget, + CUDA "
                    "graphs (0.5 GiB, profiled) + what the profile run adds outside PyTorch (0.11 GiB)",
                    {"gpus": gpus, "outside_budget_bytes": outside, "cuda_graph_bytes": VLLM_CUDA_GRAPH_BYTES,
                     "non_torch_increase_bytes": VLLM_V1_NON_TORCH_INCREASE_BYTES},
                    rel_low=0.3, rel_high=0.5)
    if engine == "sglang":
        value = SGLANG_CUDA_CONTEXT_BYTES + (SGLANG_DISTRIBUTED_INIT_BYTES if gpus > 1 else 0.0)
        return term("overhead_bytes", "Engine overhead", value, "bytes",
                    "CUDA context + torch.distributed init (NCCL, custom all-reduce; 2.0 GiB per rank when split)",
                    {"gpus": gpus}, rel_low=0.3, rel_high=0.3)
    if engine == "llama.cpp":
        return term("overhead_bytes", "Engine overhead", LLAMACPP_CUDA_CONTEXT_BYTES, "bytes",
                    "CUDA context and llama.cpp's small buffers", {}, rel_low=0.3, rel_high=0.7)
    return term("overhead_bytes", "Engine overhead", HF_CUDA_CONTEXT_BYTES, "bytes",
                "CUDA context and cuBLAS workspace (outside PyTorch's allocator)", {}, rel_low=0.4, rel_high=0.6)


def _vllm_outside_budget(version: EngineVersion, gpus: int) -> float:
    """Per-GPU memory vLLM uses beyond gpu_memory_utilization x capacity: V1 0.21+ leaves the CUDA
    context and NCCL outside its budget; V1 before 0.21 the CUDA context and CUDA graphs; V0 as its log."""
    if version == "v1":
        # what exists before the snapshot: the CUDA context, and NCCL / custom all-reduce when split
        # (the same 2.0 GiB per rank SGLang logs for torch.distributed's init)
        return HF_CUDA_CONTEXT_BYTES + (SGLANG_DISTRIBUTED_INIT_BYTES if gpus > 1 else 0.0)
    if version == "v1-before-0.21":
        # the CUDA context is in the start-up snapshot; CUDA graphs are captured after the KV cache
        return HF_CUDA_CONTEXT_BYTES + VLLM_CUDA_GRAPH_BYTES
    return 0.0


def _vllm_non_torch_inside(gpus: int, nvlink: bool = False) -> float:
    """V1 before 0.21: non-torch memory the profile run adds, inside the budget (NCCL when split, more
    over NVLink where the custom all-reduce runs)."""
    if gpus <= 1:
        return VLLM_V1_NON_TORCH_INCREASE_BYTES
    return VLLM_V1_NON_TORCH_INCREASE_BYTES + (VLLM_NCCL_NVLINK_INSIDE_BYTES if nvlink else VLLM_NCCL_INSIDE_BYTES)


def vllm_sliding_mode(model: ModelArch, version: EngineVersion, disable_hybrid: bool = False) -> VllmSliding | None:
    """How vLLM caches a model's sliding-window layers: 'hybrid' (V1's hybrid KV cache manager: the window's
    blocks only), 'full' (every token: V0, or V1 with the hybrid manager off, for a model that mixes them with
    full attention), 'window' (every attention layer slides: one group that keeps the window); None without
    sliding layers."""
    if not model.sliding_layers or not model.sliding_window:
        return None
    if model.sliding_layers >= model.num_layers - model.recurrent_layers:
        return "window"
    return "full" if version == "v0" or disable_hybrid else "hybrid"


def vllm_kv_groups(model: ModelArch) -> tuple[int, int, int]:
    """(layers per group, full-attention groups, sliding-window groups) of vLLM's hybrid KV cache manager
    (_get_kv_cache_groups_uniform_page_size): Gemma 3 27B's 10 full and 52 sliding layers make 1 + 6 groups
    of 10 (8 padding layers); gpt-oss-20b's 12 and 12 make 2 groups of 12."""
    full = model.num_layers - model.sliding_layers - model.recurrent_layers
    counts = [c for c in (full, model.sliding_layers) if c]
    low, high = min(counts), max(counts)
    size = high if high < low * VLLM_GROUP_RATIO else low
    return size, -(-full // size), -(-model.sliding_layers // size)


def vllm_sliding_capacity(model: ModelArch, mode: VllmSliding, version: EngineVersion, free_bytes: float,
                          layer_token_bytes: float, context: int, batched_tokens: int,
                          pp: int = 1) -> tuple[int, float, int]:
    """(tokens "GPU KV cache size" prints, "Maximum concurrency" for `context`-token requests, blocks) for a
    model with sliding-window layers, from the KV memory one GPU has and the bytes one token takes in one of
    its layers. The arithmetic of vllm/v1/core/kv_cache_utils.py (V1) and V0's block count."""
    block = VLLM_BLOCK_TOKENS
    page = layer_token_bytes * block  # one block of one layer
    attention_layers = model.num_layers - model.recurrent_layers
    window = model.sliding_window or context
    in_flight = VLLM_IN_FLIGHT_BATCHES[version] * batched_tokens
    sliding_blocks = -(-min(window - 1 + in_flight, context) // block) + 1
    full_blocks = -(-context // block)
    if mode == "hybrid":
        size, full_groups, sliding_groups = vllm_kv_groups(model)
        blocks = max(0, int(free_bytes // page // -(-size // pp))) if page else 0
        tokens = blocks // (full_groups + sliding_groups) * block
        return tokens, blocks / (full_groups * full_blocks + sliding_groups * sliding_blocks), blocks
    blocks = max(0, int(free_bytes // page // -(-attention_layers // pp))) if page else 0
    tokens = blocks * block
    if mode == "window" and version != "v0":
        return tokens, blocks / sliding_blocks, blocks
    return tokens, tokens / context, blocks  # every token cached (V0's figure: blocks x 16 / max_model_len)


def _vllm_sliding_words(model: ModelArch, mode: VllmSliding, version: EngineVersion, tokens: int,
                        blocks: int, batched_tokens: int) -> str:
    if mode == "full":
        who = "vLLM V0" if version == "v0" else "vLLM V1 with --disable-hybrid-kv-cache-manager"
        return (f"{who} caches every token in the {model.sliding_layers} sliding-window layers as in the full-attention "
                f"ones (the {model.sliding_window:,}-token window saves compute, not memory)")
    in_flight = VLLM_IN_FLIGHT_BATCHES[version] * batched_tokens
    reserve = (f"a request reserves blocks for min(window - 1 + {in_flight:,} in-flight tokens, context) in each "
               "sliding group")
    if mode == "window":
        if version == "v0":
            return (f"every layer slides: vLLM V0 keeps the last {model.sliding_window:,} tokens' blocks, and its "
                    "concurrency figure is the blocks x 16 / context")
        return (f"every layer slides: vLLM keeps the last {model.sliding_window:,} tokens' blocks; {reserve}, so the "
                f"logged concurrency is {blocks:,} blocks over those")
    size, full_groups, sliding_groups = vllm_kv_groups(model)
    groups = full_groups + sliding_groups
    padding = groups * size - (model.num_layers - model.recurrent_layers)
    return (f"vLLM's hybrid KV cache manager (0.9.1 and later): {model.num_layers - model.sliding_layers - model.recurrent_layers}"
            f" full-attention and {model.sliding_layers} sliding-window layers in {groups} groups of {size}"
            + (f" ({padding} padding layers)" if padding else "")
            + f" sharing {blocks:,} blocks; 'GPU KV cache size' prints blocks / {groups} groups x 16 = {tokens:,} "
            f"tokens, as if every group held every token; {reserve} and every token in each full group; "
            "disable_hybrid_kv_cache_manager for the accounting without it")


def _kv_figures(model: ModelArch, inp: InferenceMemoryInput, engine: Engine, kv: Precision,
                latent: bool) -> tuple[float, float, str]:
    """(KV bytes per token, KV bytes of the batch, the formula's words). vLLM V0, and V1 without the hybrid
    manager, keep every token in the sliding layers of a model that mixes them with full attention."""
    sliding = vllm_sliding_mode(model, inp.engine_version, inp.disable_hybrid_kv_cache_manager) \
        if engine == "vllm" else None
    kv_model = model.model_copy(update={"sliding_layers": 0}) if sliding == "full" else model
    per_token = arch.cached_token_layers(kv_model, inp.context) / inp.context * arch.kv_bytes_per_token_layer(
        model, kv.kv_bits or 16, latent_mla=latent) + model.recurrent_state_bytes / inp.context
    kv_total = arch.kv_cache_bytes(kv_model, kv.kv_bits or 16, inp.context, inp.batch, latent_mla=latent)
    kv_formula = ("sequences x tokens x layers x (kv_lora_rank + rope dim) x bytes (MLA latent)"
                  if model.attention == "mla" and latent else
                  "sequences x tokens x layers x 2 (K and V) x KV heads x head size x bytes")
    if kv_model.sliding_layers:
        kv_formula += f"; {model.sliding_layers} sliding-window layers keep at most {model.sliding_window:,} tokens"
    elif sliding == "full":
        kv_formula += f"; the {model.sliding_layers} sliding-window layers cache every token too"
    return per_token, kv_total, kv_formula


def _state_words(model: ModelArch) -> tuple[str, str]:
    """The formula's clause and the assumption for layers that keep a fixed state per sequence instead of a KV cache:
    linear-attention or state-space layers, or Llama 3.2 Vision's cross-attention layers holding the image's keys."""
    mb = f"{model.recurrent_state_bytes / 1e6:,.0f}"
    if model.state_kind == "image_cross_attention":
        return (f"; {model.recurrent_layers} cross-attention layers keep the keys and values of the request's image "
                "patches instead of the text's",
                f"{model.recurrent_layers} of {model.num_layers} layers attend to the image: its patches' keys and "
                f"values ({mb} MB per request at the largest image) are counted for every sequence")
    return (f"; {model.recurrent_layers} linear-attention or state-space layers keep no KV cache but a fixed state per "
            "sequence instead",
            f"{model.recurrent_layers} of {model.num_layers} layers keep a fixed state ({mb} MB per sequence) instead "
            "of a KV cache; the state's size is approximated from the config")


def inference_memory(inp: InferenceMemoryInput) -> InferenceMemoryResult:
    model = resolve_model(inp.model)
    precision = find_precision(inp.precision)
    card = find_gpu(inp.gpu) if inp.gpu else None
    engine: Engine = inp.engine or default_engine(precision, card)
    check_format_runs(engine, precision)
    if card is not None:
        check_engine_runs(engine, card)
    kv = kv_precision_for(precision, inp.kv_precision, engine)
    assumptions: list[str] = []
    warnings: list[str] = [w for w in (name_only(model),) if w]  # said first, never only assumed
    if inp.context > model.max_context and not arch.is_generic(model):
        warnings.append(
            f"{inp.context:,} tokens is beyond {model.name}'s maximum context of {model.max_context:,}; "
            "the figures assume it could run that long"
        )
    n_gpu = inp.gpus * inp.pp
    latent = engine != "transformers"

    weights = arch.weight_bytes(model, precision)
    w_rel = 0.04 if precision.family == "gguf" else 0.02
    weights_t = term("weights_bytes", "Weights", weights, "bytes",
                     "parameters x effective bits per weight / 8"
                     + ("" if precision.quantizes_embeddings or precision.bits_per_weight >= 16 or arch.is_generic(model)
                        else " (embeddings and output head at 16 bits)"),
                     {"parameters": model.total_params_b * 1e9, "bits_per_weight": precision.bits_per_weight},
                     rel_low=w_rel, rel_high=w_rel)
    per_token, kv_total, kv_formula = _kv_figures(model, inp, engine, kv, latent)
    kv_inputs = {"sequences": inp.batch, "tokens": inp.context, "layers": model.num_layers,
                 "kv_heads": model.num_kv_heads, "head_dim": model.head_dim, "kv_bits": kv.kv_bits or 16}
    if model.recurrent_layers:
        kv_inputs["recurrent_state_bytes_per_sequence"] = model.recurrent_state_bytes
        formula, assumption = _state_words(model)
        kv_formula += formula
        assumptions.append(assumption)
    kv_t = term("kv_cache_bytes", "KV cache", kv_total, "bytes", kv_formula, kv_inputs,
                rel_low=0.02, rel_high=0.05)
    version: EngineVersion = inp.engine_version
    if inp.output_tokens >= inp.context:
        raise ToolError(f"output_tokens ({inp.output_tokens:,}) must be fewer than the context ({inp.context:,}), "
                        "which holds the prompt and the output")
    act_t = activation_term(model, engine, inp.context, inp.batch, version, card, inp.gpus, inp.vllm_sampler,
                            inp.output_tokens)
    over_t = overhead_term(engine, n_gpu, version, nvlink=card is not None and card.has_nvlink)

    dp = _check_dp_attention(inp)
    shards = arch.kv_shards(model, inp.gpus // dp)  # within one attention group
    kv_div = shards * dp  # each data-parallel attention rank holds its own sequences
    stage_weights = _stage_weights(model, precision, weights, inp.pp)  # the fullest pipeline stage
    copies = _dp_weight_copies(model, dp)
    per_gpu = {
        "weights": stage_weights * copies / inp.gpus,
        "kv": kv_total / kv_div / inp.pp,
        "act": act_t.value,
        "over": over_t.value,
    }
    allocator_per_gpu = per_gpu["weights"] + per_gpu["kv"] + per_gpu["act"]
    slack = allocator_per_gpu * ALLOCATOR_SLACK_FRACTION if engine == "transformers" else 0.0
    slack_t = term("allocator_slack_bytes", "Allocator slack", slack, "bytes",
                   "PyTorch's caching allocator: reserved above the allocated peak, 5 % of it (an assumption)",
                   {"fraction": ALLOCATOR_SLACK_FRACTION if slack else 0.0}, rel_low=0.6, rel_high=2.0)
    per_gpu["over"] = over_t.value + slack
    total = weights * copies + kv_total * inp.gpus / kv_div + (act_t.value + over_t.value + slack) * n_gpu
    per_gpu_total = sum(per_gpu.values())
    w_share = stage_weights * copies / inp.gpus / weights if weights else 0.0
    terms_lo = weights_t.low * w_share + kv_t.low / kv_div / inp.pp + act_t.low + over_t.low + slack_t.low
    terms_hi = weights_t.high * w_share + kv_t.high / kv_div / inp.pp + act_t.high + over_t.high + slack_t.high
    # the range of the total is the measured error of this engine's rows in the bench, not the terms'
    (lo, hi), range_words = measured_range(per_gpu_total, f"inference memory ({engine})", (terms_lo, terms_hi))
    total_range = (total * lo / per_gpu_total, total * hi / per_gpu_total) if per_gpu_total else (total, total)
    if dp > 1:
        assumptions.append(_dp_attention_words(model, inp, dp, copies))
    if shards < inp.gpus // dp:
        assumptions.append(
            f"{inp.gpus} GPUs but {'an MLA latent cache' if model.attention == 'mla' else f'{model.num_kv_heads} KV heads'}: "
            "each GPU holds a copy of part of the KV cache")

    if engine == "vllm":
        assumptions.append(f"accounting of {ENGINE_VERSION_WORDS[version]}"
                           + ("" if inp.engine_version != "v1" else "; engine_version v0 or v1-before-0.21 for older ones"))
        if version != "v0":
            tokens, seqs = vllm_batch_defaults(card, version)
            assumptions.append(f"vLLM serve defaults for this card: max_num_seqs {seqs}, max_num_batched_tokens "
                               f"{tokens:,}; the profiling peak is {act_t.label.split(': ')[-1].rstrip(')')}")
    if slack:
        assumptions.append("the device figure adds the CUDA context and 5 % allocator slack to what PyTorch's "
                           "allocator reports at peak")
    assumptions += [
        _engine_words(engine, card) + f"; KV cache in {kv.name}",
        f"{inp.batch} sequence(s) of {inp.context:,} tokens each held in memory at once",
    ]
    assumptions.append(range_words)
    if arch.is_generic(model):
        assumptions.append(f"{model.name}: {model.notes}")
    elif model.resolved_from == "name":  # a catalog layout taken by the name ('sized as X, the closest on record')
        assumptions.append(f"{model.name}: {model.notes.split('; ', 1)[0]}")
    if inp.gpus not in arch.valid_tensor_parallel(model, max(8, inp.gpus)):
        warnings.append(
            f"tensor parallel degree {inp.gpus} does not divide {model.name}'s {model.num_attention_heads} attention heads "
            f"evenly; valid: {', '.join(map(str, arch.valid_tensor_parallel(model)))}")
    if n_gpu > 1:
        assumptions.append(f"weights split evenly over {inp.gpus} tensor-parallel x {inp.pp} pipeline GPUs"
                           + (", the token embeddings on the first stage and the output head on the last (per-GPU "
                              "figures are the fuller of those two)" if inp.pp > 1 and arch.embedding_params(model)
                              else ""))

    result = InferenceMemoryResult(
        model=model.name, model_id=model.id, precision=precision.id, kv_precision=kv.id, engine=engine,
        context=inp.context, batch=inp.batch, gpus=inp.gpus, pp=inp.pp,
        weights_bytes=weights, kv_cache_bytes=kv_total * inp.gpus / kv_div if kv_div < inp.gpus else kv_total,
        activation_bytes=act_t.value * n_gpu, overhead_bytes=(over_t.value + slack) * n_gpu,
        total_bytes=total, total_range_bytes=total_range,
        per_gpu_weights_bytes=per_gpu["weights"], per_gpu_kv_cache_bytes=per_gpu["kv"],
        per_gpu_activation_bytes=per_gpu["act"], per_gpu_overhead_bytes=per_gpu["over"],
        per_gpu_total_bytes=per_gpu_total, per_gpu_total_range_bytes=(lo, hi),
        kv_bytes_per_token=per_token,
        engine_version=version if engine == "vllm" else None,
        allocator_peak_bytes=weights * copies + kv_total * inp.gpus / kv_div + act_t.value * n_gpu,
        per_gpu_allocator_peak_bytes=allocator_per_gpu, device_bytes=total, per_gpu_device_bytes=per_gpu_total,
        terms=[weights_t, kv_t, act_t, over_t] + ([slack_t] if slack else []), assumptions=assumptions,
        warnings=warnings,
    )
    result.terms.append(term("per_gpu_allocator_peak_bytes", "Allocator peak per GPU", allocator_per_gpu, "bytes",
                             "weights + KV cache + activations: what the framework's allocator reports at peak",
                             {}))
    result.terms.append(term("per_gpu_device_bytes", "Device memory per GPU", per_gpu_total, "bytes",
                             "allocator peak + engine overhead (CUDA context, NCCL, CUDA graphs) + allocator slack",
                             {}))
    if inp.gpu:
        _check_fit(result, find_gpu(inp.gpu), model, inp, shards)
    return result


def _check_dp_attention(inp: InferenceMemoryInput) -> int:
    """The data-parallel attention degree, which must divide the tensor-parallel GPUs."""
    if inp.gpus % inp.dp_attention:
        raise ToolError(f"dp_attention {inp.dp_attention} does not divide {inp.gpus} tensor-parallel GPUs")
    return inp.dp_attention


def _dp_weight_copies(model: ModelArch, dp: int) -> float:
    """How many times the weights are held across the GPUs: with data-parallel attention the layers outside
    the routed experts (attention, dense MLPs, embeddings) are split over gpus / dp only, so they are held
    dp times; the routed experts stay split over all GPUs."""
    if dp <= 1:
        return 1.0
    shared, _ = arch.expert_split(model)
    total = model.total_params_b * 1e9
    share = shared / total if total else 1.0
    return share * dp + (1 - share)


def _dp_attention_words(model: ModelArch, inp: InferenceMemoryInput, dp: int, copies: float) -> str:
    cache = "MLA latent cache" if model.attention == "mla" else "KV cache"
    return (f"data-parallel attention over {dp} ranks of {inp.gpus // dp} GPU(s): each rank keeps the {cache} of its "
            f"own sequences (the {inp.batch} sequence(s) spread over the ranks), and the weights outside the routed "
            f"experts are held {dp} times ({copies:.2f} x the model's weights over all GPUs)")


def _check_fit(r: InferenceMemoryResult, gpu: Gpu, model: ModelArch, inp: InferenceMemoryInput, shards: int) -> None:
    capacity = usable_bytes(gpu)
    r.gpu, r.gpu_capacity_bytes = gpu.id, capacity
    per_token_gpu = r.kv_bytes_per_token / shards / inp.pp
    if r.engine == "vllm":
        version: EngineVersion = inp.engine_version
        util = inp.gpu_memory_utilization or VLLM_DEFAULT_UTILISATION_BY_VERSION[version]
        outside = _vllm_outside_budget(version, inp.gpus * inp.pp)
        # vLLM refuses to start when the free memory at its snapshot is below util x capacity: where the
        # CUDA context and NCCL leave less, the budget is what is left (gpu_memory_utilization lowered)
        budget = min(capacity * util, capacity - outside)
        inside_overhead = r.per_gpu_overhead_bytes - outside
        free_for_kv = budget - r.per_gpu_weights_bytes - r.per_gpu_activation_bytes - inside_overhead
        sliding = vllm_sliding_mode(model, version, inp.disable_hybrid_kv_cache_manager)
        batched_tokens, max_seqs = vllm_batch_defaults(gpu, version)
        if sliding:
            layer_token = arch.kv_bytes_per_token_layer(model, find_precision(r.kv_precision).kv_bits or 16) / shards
            tokens, concurrency, blocks = vllm_sliding_capacity(model, sliding, version, max(0.0, free_for_kv),
                                                               layer_token, inp.context, batched_tokens, inp.pp)
            r.kv_cache_capacity_tokens = tokens
            r.assumptions.append(_vllm_sliding_words(model, sliding, version, tokens, blocks, batched_tokens))
        else:
            block = per_token_gpu * VLLM_BLOCK_TOKENS  # whole blocks of 16 tokens
            r.kv_cache_capacity_tokens = max(0, int(free_for_kv // block) * VLLM_BLOCK_TOKENS) if block else 0
            concurrency = r.kv_cache_capacity_tokens / inp.context
        r.max_concurrent_sequences = round(concurrency * inp.dp_attention, 2)
        in_budget = r.per_gpu_total_bytes - outside
        # vLLM's own start-up check: one request of the whole context must fit in the blocks
        r.fits = in_budget <= budget and (concurrency >= 1 if sliding in ("hybrid", "window")
                                          else r.kv_cache_capacity_tokens >= inp.context)
        r.headroom_bytes = budget - in_budget
        if capacity * util + outside > capacity:
            r.warnings.append(f"{util:.0%} of the card plus {outside / 1e9:.1f} GB outside vLLM's budget (CUDA context, "
                              f"NCCL) is more than the card has: set gpu_memory_utilization to about "
                              f"{math.floor(budget / capacity * 100) / 100:.2f} (the figures assume so)")
        r.terms.append(term("available_kv_cache_bytes", "Available KV cache memory", max(0.0, free_for_kv), "bytes",
                            "capacity x gpu_memory_utilization - weights - activation peak - overhead inside the budget",
                            {"capacity_bytes": capacity, "gpu_memory_utilization": util,
                             "overhead_inside_budget_bytes": inside_overhead, "overhead_outside_budget_bytes": outside}))
        capacity_formula = ("(capacity x gpu_memory_utilization - weights - activations - overhead inside the budget) "
                            "/ KV bytes per token, in whole blocks of 16 tokens")
        capacity_inputs: dict = {"capacity_bytes": capacity, "gpu_memory_utilization": util,
                                 "kv_bytes_per_token_per_gpu": per_token_gpu}
        if sliding == "hybrid":
            size, full_groups, sliding_groups = vllm_kv_groups(model)
            capacity_formula = ("blocks // KV cache groups x 16, blocks = available KV memory // (16 tokens x KV bytes "
                                "per token per layer x layers per group): what vLLM's 'GPU KV cache size' line prints")
            capacity_inputs.update(layers_per_group=size, full_attention_groups=full_groups,
                                   sliding_window_groups=sliding_groups)
        elif sliding:
            capacity_formula = ("available KV memory // (16 tokens x KV bytes per token per layer x attention layers) "
                                "x 16: every layer holds a block for each block of the pool")
        r.terms.append(term("kv_cache_capacity_tokens", "KV capacity", r.kv_cache_capacity_tokens, "tokens",
                            capacity_formula, capacity_inputs))
        r.assumptions.append(f"vLLM reserves {util:.0%} of each card and fills what is left with KV cache"
                             + (f"; {outside / GIB:.2f} GiB per card ("
                                + ("CUDA context, NCCL" if version == "v1" else "CUDA context, CUDA graphs")
                                + ") sit outside that share" if outside else ""))
        if r.max_concurrent_sequences > max_seqs:
            r.assumptions.append(f"vLLM schedules at most {max_seqs} sequences at once by default (max_num_seqs)")
    elif r.engine == "sglang":
        mfs = inp.mem_fraction_static or sglang_default_mem_fraction(gpu, inp.gpus, inp.pp)
        r.mem_fraction_static = mfs
        preload = r.per_gpu_overhead_bytes
        before_load = capacity - preload
        pool = mfs * before_load - r.per_gpu_weights_bytes
        r.kv_cache_capacity_tokens = max(0, int(pool // per_token_gpu)) if per_token_gpu else 0
        r.max_concurrent_sequences = round(r.kv_cache_capacity_tokens * inp.dp_attention / inp.context, 2)
        r.fits = pool >= r.per_gpu_kv_cache_bytes and r.kv_cache_capacity_tokens >= inp.context
        r.headroom_bytes = pool - r.per_gpu_kv_cache_bytes
        left = (1 - mfs) * before_load
        if r.fits and left < r.per_gpu_activation_bytes:
            r.warnings.append(f"mem_fraction_static {mfs:.2f} leaves {left / GIB:.1f} GiB per GPU for activations and "
                              f"CUDA graphs, less than SGLang's own reserve of {r.per_gpu_activation_bytes / GIB:.1f} GiB: "
                              "long prompts may run out of memory")
        r.terms.append(term("kv_pool_bytes", "KV cache pool", max(0.0, pool), "bytes",
                            "mem_fraction_static x (capacity - CUDA context - distributed init) - weights per GPU",
                            {"capacity_bytes": capacity, "mem_fraction_static": mfs, "before_load_bytes": before_load,
                             "weights_per_gpu_bytes": r.per_gpu_weights_bytes}))
        r.terms.append(term("kv_cache_capacity_tokens", "KV capacity", r.kv_cache_capacity_tokens, "tokens",
                            "KV cache pool / KV bytes per token per GPU", {"kv_bytes_per_token_per_gpu": per_token_gpu}))
        r.assumptions.append(f"SGLang keeps {mfs:.3f} of the memory free before loading (mem_fraction_static"
                             + (", its default rule for this card" if inp.mem_fraction_static is None else "")
                             + ") for weights and the KV pool; the rest is for activations and CUDA graphs")
    else:
        r.fits = r.per_gpu_total_range_bytes[1] <= capacity or r.per_gpu_total_bytes <= capacity
        r.headroom_bytes = capacity - r.per_gpu_total_bytes
    r.terms.append(term("gpu_capacity_bytes", f"{gpu.name} usable memory", capacity, "bytes",
                        "nominal GiB x 0.99 (the driver keeps the rest)" if not gpu.unified_memory else
                        "unified memory x 0.75 (macOS's default GPU limit)", {"memory_gb": gpu.memory_gb}))
    if not r.fits:
        need = math.ceil(r.per_gpu_total_bytes / 1e9)
        r.warnings.append(f"does not fit: needs about {need} GB per GPU, {gpu.name} has {capacity / 1e9:.0f} GB usable")
    elif r.engine != "sglang" and r.per_gpu_total_range_bytes[1] > capacity * (
            (inp.gpu_memory_utilization or VLLM_DEFAULT_UTILISATION) if r.engine == "vllm" else 1):
        r.warnings.append("fits at the estimate but not at the top of its range: little room for error")
    if inp.gpus > 1 and not gpu.has_nvlink:
        r.warnings.append(f"{gpu.name} has no NVLink: tensor parallelism over PCIe slows every token")

