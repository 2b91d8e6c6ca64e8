"""Inference memory: weights + KV cache + activations + engine overhead, per GPU and in total."""

from __future__ import annotations

import math
from typing import Literal

from pydantic import Field

from knowledge import engine_for, engines_on, find_gpu, find_precision
from knowledge.schema import Gpu, ModelArch, Precision
from tools import arch
from tools.common import GIB, Explained, Term, ToolError, ToolInput, term
from tools.models import resolve_model

Engine = Literal["transformers", "vllm", "llama.cpp"]

# What the driver leaves of a card's nominal memory: vLLM logs total_gpu_memory 79.22 GiB on an
# "80 GB" card (reference inference_memory.csv rows 623-629, VLLM_PR10511): 0.99 of 80 GiB.
USABLE_FRACTION = 0.99
# macOS lets the GPU wire about three quarters of unified memory by default.
APPLE_USABLE_FRACTION = 0.75

# vLLM: non-torch memory (CUDA context, NCCL, CUDA graphs) was 1.79 GiB at TP=1 and 3.58 GiB per GPU
# at TP=2 for Llama-3-8B (reference rows 624 and 628).
VLLM_NON_TORCH_BYTES = 1.79 * GIB
VLLM_DEFAULT_UTILISATION = 0.90
VLLM_BATCHED_TOKENS = 8192  # max_num_batched_tokens used by vLLM's profiling run
VLLM_MAX_SEQS = 256
# Activation bytes per batched token per unit of width, fitted so that Llama-3-8B gives the 1.26 GiB
# torch activation peak of reference row 626: 2 bytes x (4 h + 4 I) per token, plus sampler logits.
VLLM_ACT_H, VLLM_ACT_I = 4, 4

# transformers generate(): prefill peak per prompt token, fitted to the Qwen2.5 speed benchmark
# (reference inference_memory.csv rows 73-184): 2 bytes x (ACT_H h + ACT_I I) per token.
HF_ACT_H, HF_ACT_I = 4.0, 1.6
HF_CUDA_CONTEXT_BYTES = 0.5e9  # CUDA context + cuBLAS workspace, outside torch's allocator

# llama.cpp: compute buffer for one micro-batch (n_ubatch 512) with flash attention: f32 logits for
# the micro-batch plus working tensors; CUDA context about 0.35 GB.
LLAMACPP_UBATCH = 512
LLAMACPP_CUDA_CONTEXT_BYTES = 0.35e9


class InferenceMemoryInput(ToolInput):
    model: str = Field(description="catalog name, HF repo id, path to config.json, or a size like 27B or 30B-A3B")
    precision: str = Field("bf16", description="weight format: bf16, fp8, int8, int4, gptq-int4, awq, nf4, q4_k_m ...")
    kv_precision: str | None = Field(None, description="KV-cache format; default 16-bit")
    context: int = Field(4096, gt=0, description="tokens per sequence (prompt + output)")
    batch: int = Field(1, gt=0, description="concurrent sequences")
    gpus: int = Field(1, gt=0, le=64, description="tensor-parallel degree")
    pp: int = Field(1, gt=0, le=64, description="pipeline stages")
    gpu: str | None = Field(None, description="GPU to check the fit on")
    engine: Engine | None = Field(None, description="default: llama.cpp for GGUF formats, else vLLM")
    gpu_memory_utilization: float = Field(VLLM_DEFAULT_UTILISATION, gt=0, le=1)


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


def usable_bytes(gpu: Gpu) -> float:
    """Memory a framework can use: nominal GiB x 0.99 (x 0.75 of unified memory on Apple)."""
    return gpu.memory_gb * GIB * (APPLE_USABLE_FRACTION if gpu.unified_memory else USABLE_FRACTION)


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
    sized = f"sized as {engine}" if name != engine else ""
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
    from knowledge import precisions

    return [p for p in precisions() if p.usable_for_kv]


def activation_term(model: ModelArch, engine: Engine, context: int, batch: int) -> Term:
    h, inter = model.hidden_size, model.intermediate_size * (model.experts_per_token or 1)
    if engine == "vllm":
        tokens = VLLM_BATCHED_TOKENS
        logits = min(VLLM_MAX_SEQS, tokens) * model.vocab_size * 4
        value: float = tokens * 2 * (VLLM_ACT_H * h + VLLM_ACT_I * inter) + logits
        return term("activation_bytes", "Activations (profiling peak)", value, "bytes",
                    "max_num_batched_tokens x 2 bytes x (4 x hidden + 4 x MLP width) + 256 sequences x vocab x 4 bytes of logits",
                    {"max_num_batched_tokens": tokens, "hidden": h, "mlp_width": inter, "vocab": model.vocab_size},
                    rel_low=0.4, rel_high=0.6)
    if engine == "llama.cpp":
        ub = min(LLAMACPP_UBATCH, context * batch)
        value = ub * model.vocab_size * 4 + ub * 4 * (8 * h + 2 * inter)
        return term("activation_bytes", "Compute buffer", value, "bytes",
                    "n_ubatch x vocab x 4 bytes (f32 logits) + n_ubatch x 4 bytes x (8 x hidden + 2 x MLP width)",
                    {"n_ubatch": ub, "vocab": model.vocab_size, "hidden": h, "mlp_width": inter},
                    rel_low=0.4, rel_high=0.6)
    tokens = context * batch
    value = tokens * 2 * (HF_ACT_H * h + HF_ACT_I * inter) + batch * model.vocab_size * 4
    return term("activation_bytes", "Activations (prefill peak)", value, "bytes",
                "prompt tokens x batch x 2 bytes x (4 x hidden + 1.6 x MLP width) + last-token logits",
                {"tokens": tokens, "hidden": h, "mlp_width": inter, "vocab": model.vocab_size},
                rel_low=0.4, rel_high=0.6)


def overhead_term(engine: Engine, gpus: int) -> Term:
    if engine == "vllm":
        value = VLLM_NON_TORCH_BYTES * (1 if gpus == 1 else 2)
        return term("overhead_bytes", "Engine overhead", value, "bytes",
                    "vLLM non-torch memory: CUDA context, CUDA graphs, and NCCL buffers when split over GPUs",
                    {"gpus": gpus}, rel_low=0.3, rel_high=0.5)
    if engine == "llama.cpp":
        return term("overhead_bytes", "Engine overhead", LLAMACPP_CUDA_CONTEXT_BYTES, "bytes",
                    "CUDA context and llama.cpp's small buffers", {}, rel_low=0.3, rel_high=0.7)
    return term("overhead_bytes", "Engine overhead", HF_CUDA_CONTEXT_BYTES, "bytes",
                "CUDA context and cuBLAS workspace (outside PyTorch's allocator)", {}, rel_low=0.4, rel_high=0.6)


def inference_memory(inp: InferenceMemoryInput) -> InferenceMemoryResult:
    model = resolve_model(inp.model)
    precision = find_precision(inp.precision)
    card = find_gpu(inp.gpu) if inp.gpu else None
    engine: Engine = inp.engine or default_engine(precision, card)
    if engine not in precision.engines:
        raise ToolError(
            f"{precision.name} weights do not run on {engine}; engines for it: {', '.join(precision.engines)}"
        )
    if card is not None:
        check_engine_runs(engine, card)
    kv = kv_precision_for(precision, inp.kv_precision, engine)
    assumptions: list[str] = []
    warnings: list[str] = []
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
    per_token = arch.cached_token_layers(model, inp.context) / inp.context * arch.kv_bytes_per_token_layer(
        model, kv.kv_bits or 16, latent_mla=latent) + model.recurrent_state_bytes / inp.context
    kv_total = arch.kv_cache_bytes(model, kv.kv_bits or 16, inp.context, inp.batch, latent_mla=latent)
    kv_formula = ("sequences x tokens x layers x (kv_lora_rank + rope dim) x bytes (MLA latent)"
                  if model.attention == "mla" and latent else
                  "sequences x tokens x layers x 2 (K and V) x KV heads x head size x bytes")
    if model.sliding_layers:
        kv_formula += f"; {model.sliding_layers} sliding-window layers keep at most {model.sliding_window:,} tokens"
    kv_inputs = {"sequences": inp.batch, "tokens": inp.context, "layers": model.num_layers,
                 "kv_heads": model.num_kv_heads, "head_dim": model.head_dim, "kv_bits": kv.kv_bits or 16}
    if model.recurrent_layers:
        kv_formula += (f"; {model.recurrent_layers} linear-attention or state-space layers keep no KV cache but a "
                       "fixed state per sequence instead")
        kv_inputs["recurrent_state_bytes_per_sequence"] = model.recurrent_state_bytes
        assumptions.append(f"{model.recurrent_layers} of {model.num_layers} layers keep a fixed state "
                           f"({model.recurrent_state_bytes / 1e6:,.0f} MB per sequence) instead of a KV cache; "
                           "the state's size is approximated from the config")
    kv_t = term("kv_cache_bytes", "KV cache", kv_total, "bytes", kv_formula, kv_inputs,
                rel_low=0.02, rel_high=0.05)
    act_t = activation_term(model, engine, inp.context, inp.batch)
    over_t = overhead_term(engine, n_gpu)

    shards = arch.kv_shards(model, inp.gpus)
    per_gpu = {
        "weights": weights / n_gpu,
        "kv": kv_total / shards / inp.pp,
        "act": act_t.value,
        "over": over_t.value,
    }
    total = weights + kv_total * inp.gpus / shards + (act_t.value + over_t.value) * n_gpu
    per_gpu_total = sum(per_gpu.values())
    lo = weights_t.low / n_gpu + kv_t.low / shards / inp.pp + act_t.low + over_t.low
    hi = weights_t.high / n_gpu + kv_t.high / shards / inp.pp + act_t.high + over_t.high
    if shards < inp.gpus:
        assumptions.append(
            f"{inp.gpus} GPUs but {'an MLA latent cache' if model.attention == 'mla' else f'{model.num_kv_heads} KV heads'}: "
            "each GPU holds a copy of part of the KV cache")

    assumptions += [
        _engine_words(engine, card) + f"; KV cache in {kv.name}",
        f"{inp.batch} sequence(s) of {inp.context:,} tokens each held in memory at once",
    ]
    if arch.is_generic(model):
        assumptions.append(f"{model.name}: {model.notes}")
    if inp.gpus not in arch.valid_tensor_parallel(model, max(8, inp.gpus)):
        warnings.append(
            f"tensor parallel degree {inp.gpus} does not divide {model.name}'s {model.num_attention_heads} attention heads "
            f"evenly; valid: {', '.join(map(str, arch.valid_tensor_parallel(model)))}")
    if n_gpu > 1:
        assumptions.append(f"weights split evenly over {inp.gpus} tensor-parallel x {inp.pp} pipeline GPUs")

    result = InferenceMemoryResult(
        model=model.name, model_id=model.id, precision=precision.id, kv_precision=kv.id, engine=engine,
        context=inp.context, batch=inp.batch, gpus=inp.gpus, pp=inp.pp,
        weights_bytes=weights, kv_cache_bytes=kv_total * inp.gpus / shards if shards < inp.gpus else kv_total,
        activation_bytes=act_t.value * n_gpu, overhead_bytes=over_t.value * n_gpu,
        total_bytes=total, total_range_bytes=(lo * n_gpu, hi * n_gpu),
        per_gpu_weights_bytes=per_gpu["weights"], per_gpu_kv_cache_bytes=per_gpu["kv"],
        per_gpu_activation_bytes=per_gpu["act"], per_gpu_overhead_bytes=per_gpu["over"],
        per_gpu_total_bytes=per_gpu_total, per_gpu_total_range_bytes=(lo, hi),
        kv_bytes_per_token=per_token,
        terms=[weights_t, kv_t, act_t, over_t], assumptions=assumptions, warnings=warnings,
    )
    if inp.gpu:
        _check_fit(result, find_gpu(inp.gpu), model, inp, shards)
    return result


def _check_fit(r: InferenceMemoryResult, gpu: Gpu, model: ModelArch, inp: InferenceMemoryInput, shards: int) -> None:
    capacity = usable_bytes(gpu)
    r.gpu, r.gpu_capacity_bytes = gpu.id, capacity
    if r.engine == "vllm":
        budget = capacity * inp.gpu_memory_utilization
        free_for_kv = budget - r.per_gpu_weights_bytes - r.per_gpu_activation_bytes - r.per_gpu_overhead_bytes
        per_token_gpu = r.kv_bytes_per_token / shards / inp.pp
        r.kv_cache_capacity_tokens = max(0, int(free_for_kv // per_token_gpu)) if per_token_gpu else 0
        r.max_concurrent_sequences = round(r.kv_cache_capacity_tokens / inp.context, 2)
        r.fits = r.per_gpu_total_bytes <= budget and r.kv_cache_capacity_tokens >= inp.context
        r.headroom_bytes = budget - r.per_gpu_total_bytes
        r.terms.append(term("kv_cache_capacity_tokens", "KV capacity", r.kv_cache_capacity_tokens, "tokens",
                            "(capacity x gpu_memory_utilization - weights - activations - overhead) / KV bytes per token",
                            {"capacity_bytes": capacity, "gpu_memory_utilization": inp.gpu_memory_utilization,
                             "kv_bytes_per_token_per_gpu": per_token_gpu}))
        r.assumptions.append(f"vLLM reserves {inp.gpu_memory_utilization:.0%} of each card and fills what is left with KV cache")
        if r.max_concurrent_sequences > VLLM_MAX_SEQS:
            r.assumptions.append(f"vLLM schedules at most {VLLM_MAX_SEQS} sequences at once by default (max_num_seqs)")
    else:
        r.fits = r.per_gpu_total_range_bytes[1] <= capacity or r.per_gpu_total_bytes <= capacity
        r.headroom_bytes = capacity - r.per_gpu_total_bytes
    r.terms.append(term("gpu_capacity_bytes", f"{gpu.name} usable memory", capacity, "bytes",
                        "nominal GiB x 0.99 (the driver keeps the rest)" if not gpu.unified_memory else
                        "unified memory x 0.75 (macOS's default GPU limit)", {"memory_gb": gpu.memory_gb}))
    if not r.fits:
        need = math.ceil(r.per_gpu_total_bytes / 1e9)
        r.warnings.append(f"does not fit: needs about {need} GB per GPU, {gpu.name} has {capacity / 1e9:.0f} GB usable")
    elif r.per_gpu_total_range_bytes[1] > capacity * (inp.gpu_memory_utilization if r.engine == "vllm" else 1):
        r.warnings.append("fits at the estimate but not at the top of its range: little room for error")
    if inp.gpus > 1 and not gpu.has_nvlink:
        r.warnings.append(f"{gpu.name} has no NVLink: tensor parallelism over PCIe slows every token")

