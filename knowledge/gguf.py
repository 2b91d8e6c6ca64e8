"""GGUF file sizes, tensor by tensor.

A llama.cpp file type (Q4_K_M, Q3_K_S, IQ2_XS ...) is a mix: each tensor gets a ggml type chosen by
rules that look at what the tensor is (token embedding, output head, attention V/K/Q/output, FFN
gate/up/down), which layer it sits in, the model's GQA ratio and expert count, and whether the
row length fits the type's block. This module restates those rules (as documented by the behaviour of
llama.cpp's quantizer, `src/llama-quant.cpp`, read at commit 007dbbf3) in its own code, lists the
tensors a model's GGUF holds, and adds up their bytes with the ggml block sizes, so any model in
any file type gets its real size rather than one bits-per-weight figure taken from a 7B table.

What is approximated: the metadata block (tokenizer strings and merges, estimated per vocabulary entry)
and 32-byte tensor alignment padding (under 0.01 %). Norms, biases and router weights stay F32.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from gpu_advisor.knowledge.schema import ModelArch

# ggml types: (values per block, bytes per block). From ggml's block layouts (ggml-common.h).
GGML_TYPES: dict[str, tuple[int, int]] = {
    "F32": (1, 4), "F16": (1, 2), "BF16": (1, 2),
    "Q4_0": (32, 18), "Q4_1": (32, 20), "Q5_0": (32, 22), "Q5_1": (32, 24), "Q8_0": (32, 34),
    "Q2_K": (256, 84), "Q3_K": (256, 110), "Q4_K": (256, 144), "Q5_K": (256, 176), "Q6_K": (256, 210),
    "IQ1_S": (256, 50), "IQ1_M": (256, 56), "IQ2_XXS": (256, 66), "IQ2_XS": (256, 74), "IQ2_S": (256, 82),
    "IQ3_XXS": (256, 98), "IQ3_S": (256, 110), "IQ4_NL": (32, 18), "IQ4_XS": (256, 136),
    "TQ1_0": (256, 54), "TQ2_0": (256, 66), "MXFP4": (32, 17),
}

# File type -> the type most tensors get (llama_ftype_get_default_type).
FILE_TYPES: dict[str, str] = {
    "F32": "F32", "F16": "F16", "BF16": "BF16", "Q4_0": "Q4_0", "Q4_1": "Q4_1", "Q5_0": "Q5_0", "Q5_1": "Q5_1",
    "Q8_0": "Q8_0", "Q2_K": "Q2_K", "Q2_K_S": "Q2_K", "Q3_K_S": "Q3_K", "Q3_K_M": "Q3_K", "Q3_K_L": "Q3_K",
    "Q4_K_S": "Q4_K", "Q4_K_M": "Q4_K", "Q5_K_S": "Q5_K", "Q5_K_M": "Q5_K", "Q6_K": "Q6_K",
    "IQ1_S": "IQ1_S", "IQ1_M": "IQ1_M", "IQ2_XXS": "IQ2_XXS", "IQ2_XS": "IQ2_XS", "IQ2_S": "IQ2_XS",
    "IQ2_M": "IQ2_S", "IQ3_XXS": "IQ3_XXS", "IQ3_XS": "IQ3_S", "IQ3_S": "IQ3_S", "IQ3_M": "IQ3_S",
    "IQ4_NL": "IQ4_NL", "IQ4_XS": "IQ4_XS", "TQ1_0": "TQ1_0", "TQ2_0": "TQ2_0", "MXFP4_MOE": "MXFP4",
}
UNQUANTIZED = {"F32", "F16", "BF16"}
_IQ_LOW = {"IQ2_XXS", "IQ2_XS", "IQ1_S", "IQ2_S", "IQ2_M", "IQ1_M"}
# Where a type's block does not divide a row, llama.cpp falls back to a type with 32-value blocks.
_FALLBACK = {"IQ1_S": "IQ4_NL", "IQ1_M": "IQ4_NL", "IQ2_XXS": "IQ4_NL", "IQ2_XS": "IQ4_NL", "IQ2_S": "IQ4_NL",
             "IQ3_XXS": "IQ4_NL", "IQ3_S": "IQ4_NL", "IQ4_XS": "IQ4_NL", "Q2_K": "Q4_0", "Q3_K": "Q4_0",
             "TQ1_0": "Q4_0", "TQ2_0": "Q4_0", "Q4_K": "Q5_0", "Q5_K": "Q5_1", "Q6_K": "Q8_0"}
# Metadata (tokenizer strings, token types, merges, KV pairs) per vocabulary entry: fitted to the
# Llama 3 8B BF16 file (16,068,890,912 bytes; tests/reference/gguf_sizes.csv), about 57 bytes each.
METADATA_BYTES_PER_TOKEN = 57


@dataclass(frozen=True)
class Tensor:
    name: str
    category: str  # token_embd output attn_q attn_k attn_v attn_qkv attn_output ffn_gate ffn_up ffn_down other
    layer: int  # -1 outside the blocks
    ne0: int  # row length (the dimension blocks run along)
    numel: int
    quantizable: bool  # 2-D (or 3-D expert) weights; norms, biases, routers are not


@dataclass(frozen=True)
class GgufSize:
    file_type: str
    total_bytes: float
    tensor_bytes: float
    metadata_bytes: float
    by_type: dict[str, float]  # bytes per ggml type
    parameters: int

    @property
    def bits_per_weight(self) -> float:
        return self.tensor_bytes * 8 / self.parameters


def normalise_file_type(name: str) -> str:
    key = name.strip().upper().replace("-", "_")
    for prefix in ("GGUF_", "GGUF "):
        if key.startswith(prefix):
            key = key[len(prefix):]
    if key not in FILE_TYPES:
        raise KeyError(f"unknown GGUF file type '{name}'; known: {', '.join(FILE_TYPES)}")
    return key


def type_bytes(ggml_type: str, numel: int) -> float:
    block, size = GGML_TYPES[ggml_type]
    return numel / block * size


def tensors(m: ModelArch) -> list[Tensor]:
    """The tensors a GGUF conversion of `m` holds, in file order (blk.0 ... blk.N-1)."""
    h, layers, v = m.hidden_size, m.num_layers, m.vocab_size
    q_width = m.num_attention_heads * m.head_dim
    kv_width = m.num_kv_heads * m.head_dim
    out = [Tensor("token_embd.weight", "token_embd", -1, h, v * h, True)]
    for i in range(layers):
        p = f"blk.{i}."
        out.append(Tensor(p + "attn_norm.weight", "other", i, h, h, False))
        if m.attention == "mla" and m.kv_lora_rank:
            rope = m.qk_rope_head_dim or 0
            q_out = m.num_attention_heads * m.head_dim
            if m.q_lora_rank:  # DeepSeek V3/R1: the query through a rank-1536 bottleneck (attn_q_a, attn_q_b)
                out.append(Tensor(p + "attn_q_a.weight", "attn_q", i, h, h * m.q_lora_rank, True))
                out.append(Tensor(p + "attn_q_a_norm.weight", "other", i, m.q_lora_rank, m.q_lora_rank, False))
                out.append(Tensor(p + "attn_q_b.weight", "attn_q", i, m.q_lora_rank, m.q_lora_rank * q_out, True))
            else:
                out.append(Tensor(p + "attn_q.weight", "attn_q", i, h, h * q_out, True))
            out.append(Tensor(p + "attn_kv_a_mqa.weight", "other", i, h, h * (m.kv_lora_rank + rope), True))
            nope = m.head_dim - rope
            v = m.v_head_dim or nope
            out.append(Tensor(p + "attn_kv_b.weight", "attn_kv_b", i, m.kv_lora_rank,
                              m.kv_lora_rank * m.num_attention_heads * (nope + v), True))
            out.append(Tensor(p + "attn_output.weight", "attn_output", i, m.num_attention_heads * v,
                              m.num_attention_heads * v * h, True))
        else:
            out.append(Tensor(p + "attn_q.weight", "attn_q", i, h, h * q_width, True))
            out.append(Tensor(p + "attn_k.weight", "attn_k", i, h, h * kv_width, True))
            out.append(Tensor(p + "attn_v.weight", "attn_v", i, h, h * kv_width, True))
            out.append(Tensor(p + "attn_output.weight", "attn_output", i, q_width, q_width * h, True))
        out.append(Tensor(p + "ffn_norm.weight", "other", i, h, h, False))
        dense_layer = not m.is_moe or i < _dense_layers(m)
        if dense_layer:
            inter = m.intermediate_size if not m.is_moe else _dense_width(m)
            out += [Tensor(p + "ffn_gate.weight", "ffn_gate", i, h, h * inter, True),
                    Tensor(p + "ffn_up.weight", "ffn_up", i, h, h * inter, True),
                    Tensor(p + "ffn_down.weight", "ffn_down", i, inter, inter * h, True)]
        else:
            e, inter = m.num_experts or 1, m.intermediate_size
            out += [Tensor(p + "ffn_gate_inp.weight", "other", i, h, h * e, False),
                    Tensor(p + "ffn_gate_exps.weight", "ffn_gate", i, h, e * h * inter, True),
                    Tensor(p + "ffn_up_exps.weight", "ffn_up", i, h, e * h * inter, True),
                    Tensor(p + "ffn_down_exps.weight", "ffn_down", i, inter, e * inter * h, True)]
            if m.num_shared_experts:
                s = m.num_shared_experts * (m.shared_expert_intermediate_size or inter)
                out += [Tensor(p + "ffn_gate_shexp.weight", "ffn_gate", i, h, h * s, True),
                        Tensor(p + "ffn_up_shexp.weight", "ffn_up", i, h, h * s, True),
                        Tensor(p + "ffn_down_shexp.weight", "ffn_down", i, s, s * h, True)]
    out.append(Tensor("output_norm.weight", "other", -1, h, h, False))
    if not m.tied_embeddings:
        out.append(Tensor("output.weight", "output", -1, h, v * h, True))
    return out


def _dense_layers(m: ModelArch) -> int:
    """MoE layers with a dense MLP: the record's own count (DeepSeek's first_k_dense_replace: 3 for V3/R1), else
    1 for an MLA MoE (V2-Lite)."""
    if m.dense_layers:
        return m.dense_layers
    return 1 if m.attention == "mla" and m.is_moe else 0


def _dense_width(m: ModelArch) -> int:
    return m.dense_intermediate_size or m.intermediate_size * max(1, (m.experts_per_token or 1))


def _use_more_bits(i: int, n: int) -> bool:
    return i < n // 8 or i >= 7 * n // 8 or (i - n // 8) % 3 == 2


def assign_types(m: ModelArch, file_type: str, *, imatrix: bool = False) -> list[tuple[Tensor, str]]:
    """(tensor, ggml type) for every tensor of `m` in `file_type`."""
    ftype = normalise_file_type(file_type)
    default = FILE_TYPES[ftype]
    ts = tensors(m)
    tied = not any(t.category == "output" for t in ts)
    n_gqa = m.num_attention_heads // m.num_kv_heads
    n_expert = m.num_experts or 0
    n_layer = m.num_layers
    # llama.cpp's "70B" size class (80 layers of width 8192: Llama 2/3 70B, Qwen2/2.5 72B) gets attn_v a step up
    is_70b = n_layer == 80 and m.hidden_size == 8192
    n_attn_v = sum(1 for t in ts if t.category in ("attn_v", "attn_qkv", "attn_kv_b"))
    counters = {"attn_v": 0, "ffn_down": 0}
    out = []
    for t in ts:
        if not t.quantizable:
            out.append((t, "F32"))
            continue
        if default in UNQUANTIZED:
            out.append((t, default))
            continue
        new = _choose(t, ftype, default, n_gqa=n_gqa, n_expert=n_expert, n_layer=n_layer, n_attn_v=n_attn_v,
                      tied=tied, is_70b=is_70b, imatrix=imatrix, counters=counters)
        block = GGML_TYPES[new][0]
        if t.ne0 % block:
            new = _FALLBACK.get(new, "F16")
            if t.ne0 % GGML_TYPES[new][0]:
                new = "F16"
        out.append((t, new))
    return out


def _choose(  # noqa: C901 - llama.cpp's per-tensor type rules, one branch each, kept in their order
    t: Tensor, ftype: str, new: str, *, n_gqa: int, n_expert: int, n_layer: int, n_attn_v: int,
    tied: bool, is_70b: bool, imatrix: bool, counters: dict[str, int],
) -> str:
    cat = t.category
    attn_v_like = cat in ("attn_v", "attn_qkv", "attn_kv_b")
    if cat == "output" or (tied and cat == "token_embd"):
        if ftype == "MXFP4_MOE" or t.ne0 % GGML_TYPES[new][0]:
            return "Q8_0"
        if ftype in ("IQ2_XXS", "IQ2_XS", "IQ3_XXS", "IQ1_S", "IQ2_S", "IQ2_M", "IQ1_M"):
            return "Q5_K"
        return new if new == "Q8_0" else "Q6_K"
    if ftype == "MXFP4_MOE":
        return "MXFP4" if "_exps" in t.name else "Q8_0"
    if cat == "token_embd":
        if ftype in ("IQ2_XXS", "IQ2_XS", "IQ1_S", "IQ1_M"):
            return "Q2_K"
        if ftype in ("IQ2_S", "IQ2_M", "IQ3_XXS"):
            return "IQ3_S"
        if ftype in ("TQ1_0", "TQ2_0"):
            return "Q4_K"
        return new
    if ftype in _IQ_LOW:
        if attn_v_like:
            counters["attn_v"] += 1
            if n_gqa >= 4 or n_expert >= 4:
                return "Q4_K"
            return "IQ3_S" if ftype in ("IQ2_S", "IQ2_M") else "Q2_K"
        if n_expert == 8 and cat == "attn_k":
            return "Q4_K"
        if cat == "ffn_down":
            i = counters["ffn_down"]
            counters["ffn_down"] += 1
            if i < n_layer // 8:
                return "IQ3_S" if ftype in ("IQ2_S", "IQ2_M") else "Q2_K"
            return new
        if cat == "attn_output":
            if n_expert == 8:
                return "Q5_K"
            if ftype in ("IQ1_S", "IQ1_M"):
                return "IQ2_XXS"
            if ftype in ("IQ2_S", "IQ2_M"):
                return "IQ3_S"
        return new
    if attn_v_like:
        i = counters["attn_v"]
        if ftype == "Q2_K":
            new = "Q4_K" if n_gqa >= 4 else "Q3_K"
        elif ftype == "Q2_K_S" and n_gqa >= 4:
            new = "Q4_K"
        elif ftype == "IQ3_XXS":
            new = "Q4_K" if n_gqa >= 4 else ("IQ3_S" if not imatrix else "IQ3_XXS")
        elif (ftype in ("IQ3_XS", "IQ3_S") and n_gqa >= 4) or ftype == "IQ3_M":
            new = "Q4_K"
        elif ftype == "Q3_K_M":
            new = "Q5_K" if i < 2 else "Q4_K"
        elif ftype == "Q3_K_L" or (ftype in ("IQ4_NL", "IQ4_XS") and n_gqa >= 4):
            new = "Q5_K"
        elif ftype in ("Q4_K_M", "Q5_K_M") and _use_more_bits(i, n_attn_v):
            new = "Q6_K"
        elif ftype == "Q4_K_S" and i < 4:
            new = "Q5_K"
        if is_70b and new in ("Q3_K", "Q4_K"):
            new = "Q5_K"
        if n_expert == 8:
            new = "Q8_0"
        counters["attn_v"] += 1
        return new
    if cat == "attn_k":
        if n_expert == 8:
            return "Q8_0"
        if ftype == "IQ3_XS":
            return "IQ3_XXS"
        if ftype == "IQ3_XXS":
            return "IQ2_S"
        return new
    if cat == "attn_q":
        if ftype == "IQ3_XS":
            return "IQ3_XXS"
        if ftype == "IQ3_XXS":
            return "IQ2_S"
        return new
    if cat == "ffn_down":
        i = t.layer if n_expert > 1 else counters["ffn_down"]
        counters["ffn_down"] += 1
        n = n_layer
        if ftype == "Q2_K":
            return "Q3_K"
        if ftype == "Q2_K_S":
            return "Q4_K" if i < n // 8 else new
        if ftype == "IQ3_XXS" and not imatrix:
            return "Q4_K" if i < n // 8 else "Q3_K"
        if ftype == "Q3_K_M":
            return "Q5_K" if i < n // 16 else "Q4_K"
        if ftype == "IQ3_M" and (i < n // 8 or (n_expert == 8 and _use_more_bits(i, n))):
            return "Q4_K"
        if ftype == "Q3_K_L":
            return "Q5_K"
        if ftype == "Q4_K_M":
            return "Q6_K" if _use_more_bits(i, n) else new
        if i < n // 8 and ftype in ("IQ4_NL", "IQ4_XS") and not imatrix:
            return "Q5_K"
        if ftype == "Q5_K_M" and _use_more_bits(i, n):
            return "Q6_K"
        if ftype == "Q4_K_S" and i < n // 8:
            return "Q5_K"
        if ftype in ("Q4_0", "Q5_0") and imatrix and i < n // 8:
            return "Q4_1" if ftype == "Q4_0" else "Q5_1"
        return new
    if cat == "attn_output":
        if n_expert == 8:
            if ftype in ("Q2_K", "IQ3_XS", "IQ3_XXS", "Q3_K_S", "Q3_K_M", "IQ4_NL", "Q4_K_S", "Q4_K_M", "IQ3_S",
                         "IQ3_M", "IQ4_XS"):
                return "Q5_K"
            return new
        return {"Q2_K": "Q3_K", "IQ3_XXS": "IQ3_S", "Q3_K_M": "Q4_K", "Q3_K_L": "Q5_K", "IQ3_M": "Q4_K"}.get(ftype, new)
    if cat == "attn_qkv":
        return {"Q3_K_M": "Q4_K", "Q3_K_L": "Q4_K", "IQ3_M": "Q4_K", "Q4_K_M": "Q5_K", "Q5_K_M": "Q6_K"}.get(ftype, new)
    if cat in ("ffn_gate", "ffn_up"):
        if ftype == "IQ3_XS" and n_layer // 8 <= t.layer < 7 * n_layer // 8:
            return "IQ3_XXS"
        return new
    return new


def _shape_key(m: ModelArch) -> tuple:
    return (m.hidden_size, m.num_layers, m.vocab_size, m.num_attention_heads, m.num_kv_heads, m.head_dim,
            m.intermediate_size, m.tied_embeddings, m.attention, m.kv_lora_rank, m.qk_rope_head_dim,
            m.num_experts, m.experts_per_token, m.num_shared_experts, m.family, m.q_lora_rank, m.v_head_dim,
            m.dense_layers, m.dense_intermediate_size, m.shared_expert_intermediate_size)


_SIZES: dict[tuple, GgufSize] = {}


def file_size(m: ModelArch, file_type: str, *, imatrix: bool = False) -> GgufSize:
    """Bytes of `m` as a GGUF file of `file_type`: every tensor at its type, plus metadata (memoised by shape)."""
    key = (_shape_key(m), normalise_file_type(file_type), imatrix)
    if key not in _SIZES:
        if len(_SIZES) > 4096:
            _SIZES.clear()
        _SIZES[key] = _file_size(m, file_type, imatrix=imatrix)
    return _SIZES[key]


def _file_size(m: ModelArch, file_type: str, *, imatrix: bool = False) -> GgufSize:
    by_type: dict[str, float] = {}
    params = 0
    for t, ty in assign_types(m, file_type, imatrix=imatrix):
        by_type[ty] = by_type.get(ty, 0.0) + type_bytes(ty, t.numel)
        params += t.numel
    tensor_bytes = sum(by_type.values())
    meta = float(m.vocab_size * METADATA_BYTES_PER_TOKEN)
    return GgufSize(normalise_file_type(file_type), tensor_bytes + meta, tensor_bytes, meta, by_type, params)


def file_types() -> Iterable[str]:
    return FILE_TYPES.keys()


__all__ = ["FILE_TYPES", "GGML_TYPES", "GgufSize", "Tensor", "assign_types", "file_size", "file_types",
           "normalise_file_type", "tensors", "type_bytes"]


def read_split(m: ModelArch, file_type: str, *, imatrix: bool = False) -> tuple[float, float]:
    """(bytes of the routed-expert tensors, bytes of the tensors every decode step reads in full) of `m` as a
    GGUF file of `file_type`. A file type gives the attention, shared-expert and dense-layer tensors other types
    than the routed experts (IQ1_S keeps attn_kv_b at Q4_K and the output head at Q5_K), so a token's bytes are
    these at their own types plus the routed share, not the file's average bits times the active parameters.
    The token embedding is left out of both: a step reads one row of it."""
    routed = every = 0.0
    for t, ty in assign_types(m, file_type, imatrix=imatrix):
        size = type_bytes(ty, t.numel)
        if "_exps." in t.name:
            routed += size
        elif t.category != "token_embd":
            every += size
    return routed, every
