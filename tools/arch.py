"""Quantities derived from a model's architecture: parameter splits and KV-cache sizes."""

from __future__ import annotations

from gpu_advisor.knowledge.schema import ModelArch, Precision


def is_generic(model: ModelArch) -> bool:
    """A model known only by its size (layout borrowed from a catalog model)."""
    return model.family == "generic"


def embedding_params(model: ModelArch) -> float:
    """Token embeddings plus the output head (shared when tied): V*h*(1 or 2)."""
    if is_generic(model):
        return 0.0
    return float(model.vocab_size * model.hidden_size * (1 if model.tied_embeddings else 2))


# GGUF formats are sized tensor by tensor (knowledge.gguf) for any model whose shape is known. The eight
# file types the catalog had before that are switched with EXACT_GGUF, so that figures elsewhere
# (golden conversations, scenarios) can move to the exact sizes in one step.
EXACT_GGUF = True
LEGACY_GGUF = frozenset({"f16", "q8_0", "q6_k", "q5_k_m", "q4_k_m", "q4_0", "q3_k_m", "q2_k"})


def gguf_file_type(precision: Precision) -> str | None:
    """The llama.cpp file type of a GGUF precision ('q4_k_m' -> 'Q4_K_M'); None for other formats."""
    if precision.family != "gguf":
        return None
    return "BF16" if precision.id == "gguf-bf16" else precision.id.upper()


def weight_bytes(model: ModelArch, precision: Precision, params: float | None = None) -> float:
    """Bytes of weights: quantized body at the format's effective bits, embeddings at 16 bits
    where the format leaves them alone (GPTQ, AWQ, bitsandbytes, FP8).

    In the checkpoint's own format the checkpoint decides: the bytes its safetensors headers list
    (every tensor as stored, 16-bit parts included) when known, else its own bits per weight (the
    group size its quantization_config names)."""
    total = model.total_params_b * 1e9 if params is None else params
    share = total / (model.total_params_b * 1e9)
    file_type = gguf_file_type(precision)
    if file_type and precision.id in model.gguf_file_bytes:  # a GGUF repository's own file of that type
        return model.gguf_file_bytes[precision.id] * share
    if file_type and not is_generic(model) and (EXACT_GGUF or precision.id not in LEGACY_GGUF):
        from gpu_advisor.knowledge.gguf import file_size

        return file_size(model, file_type, imatrix=file_type.startswith("IQ")).tensor_bytes * share
    native = precision.id == model.native_precision
    if native and model.checkpoint_bytes:
        return model.checkpoint_bytes * share
    bits = model.native_bits_per_weight if native and model.native_bits_per_weight else precision.bits_per_weight
    if precision.quantizes_embeddings or bits >= 16:
        return total * bits / 8
    embed = min(embedding_params(model) * share, total)
    return embed * 2 + (total - embed) * bits / 8


def expert_split(model: ModelArch) -> tuple[float, float]:
    """(parameters outside the routed experts, parameters of one routed expert summed over layers).

    From total T, active A, experts E and experts per token k: T - A = (E - k) * p_expert.
    """
    total, active = model.total_params_b * 1e9, model.active_params_b * 1e9
    e, k = model.num_experts, model.experts_per_token
    if e is None or k is None or e == k:  # dense (is_moe is `num_experts is not None`)
        return total, 0.0
    per_expert = (total - active) / (e - k)
    return total - e * per_expert, per_expert


def params_read_per_step(model: ModelArch, batch: int) -> float:
    """Weights a decode step must read. Dense: all. MoE: the shared part plus every expert that at
    least one of the batch's tokens routes to, expected E * (1 - (1 - k/E)^batch) experts."""
    e, k = model.num_experts, model.experts_per_token
    if e is None or k is None:  # dense
        return model.total_params_b * 1e9
    shared, per_expert = expert_split(model)
    distinct = e * (1 - (1 - k / e) ** max(batch, 1))
    return shared + distinct * per_expert


def moe_bytes_read_per_step(model: ModelArch, precision: Precision, batch: int) -> tuple[float, float] | None:
    """(weight bytes a decode step reads, of which routed experts) for a MoE model in a GGUF file type sized
    tensor by tensor: the tensors every token passes (attention, shared experts, dense layers, output head) at
    their own types in full, the routed experts at theirs times the share of experts the batch touches.
    None where the file is not sized tensor by tensor (a repository's own file, a model known by size)."""
    e, k = model.num_experts, model.experts_per_token
    file_type = gguf_file_type(precision)
    if not (file_type and e and k and e != k) or is_generic(model) or precision.id in model.gguf_file_bytes \
            or not (EXACT_GGUF or precision.id not in LEGACY_GGUF):
        return None
    from gpu_advisor.knowledge.gguf import read_split

    routed, every = read_split(model, file_type, imatrix=file_type.startswith("IQ"))
    touched = 1 - (1 - k / e) ** max(batch, 1)  # share of the experts at least one token routes to
    return every + routed * touched, routed * touched


def kv_bytes_per_token_layer(model: ModelArch, kv_bits: float, *, latent_mla: bool = True) -> float:
    """KV bytes one token adds in one layer.

    MHA/GQA: 2 (K and V) x kv_heads x head_dim x bytes. MLA engines that cache the compressed latent
    (vLLM, llama.cpp, SGLang): (kv_lora_rank + rope dim) x bytes; others store full K and V per head.
    """
    per_value = kv_bits / 8
    if model.attention == "mla" and latent_mla:
        return (model.kv_lora_rank + model.qk_rope_head_dim) * per_value  # type: ignore[operator]
    return 2 * model.num_kv_heads * model.head_dim * per_value


def cached_token_layers(model: ModelArch, context: int) -> float:
    """Sum over layers of the tokens each layer keeps: sliding layers keep at most the window, linear-
    attention and state-space layers none (their fixed state is recurrent_state_bytes)."""
    full = model.num_layers - model.sliding_layers - model.recurrent_layers
    window = min(context, model.sliding_window or context)
    return full * context + model.sliding_layers * window


def kv_cache_bytes(model: ModelArch, kv_bits: float, context: int, sequences: int, *, latent_mla: bool = True) -> float:
    """Per-token KV of the attention layers plus the fixed recurrent state of the others, for every sequence."""
    per_token = cached_token_layers(model, context) * kv_bytes_per_token_layer(model, kv_bits, latent_mla=latent_mla)
    return sequences * (per_token + model.recurrent_state_bytes)


def kv_shards(model: ModelArch, tensor_parallel: int) -> int:
    """How many ways tensor parallelism splits the KV cache. KV heads are split across GPUs, and
    replicated once there are more GPUs than KV heads; an MLA latent is replicated on every GPU."""
    if model.attention == "mla":
        return 1
    return max(1, min(tensor_parallel, model.num_kv_heads))


def tp_blockers(model: ModelArch, tp: int) -> list[str]:
    """What keeps a tensor-parallel degree from splitting the model (vLLM refuses to start): 'heads' when the
    attention heads do not divide by it, 'kv_heads' when the KV heads neither divide by it nor divide it (with more
    GPUs than KV heads vLLM copies each KV head to a whole number of GPUs). Empty: the degree works."""
    out = []
    if model.num_attention_heads % tp:
        out.append("heads")
    kv = model.num_kv_heads
    if kv % tp and tp % kv:
        out.append("kv_heads")
    return out


def valid_tensor_parallel(model: ModelArch, max_degree: int = 8) -> list[int]:
    """Degrees that divide the attention heads, with KV heads either divisible by the degree or
    dividing it (vLLM replicates KV heads in that case)."""
    return [tp for tp in range(1, max_degree + 1) if not tp_blockers(model, tp)]


def cards_layout(model: ModelArch, cards: int) -> tuple[int, int]:
    """How a number of cards that no tensor-parallel degree uses whole can still hold one copy of the model: (the
    largest degree that works on fewer of them, the pipeline-parallel degree that uses all: each card a block of
    layers, which needs no head split)."""
    tp = max(t for t in valid_tensor_parallel(model, cards) if t <= cards)
    return tp, cards
