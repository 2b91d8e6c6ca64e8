"""Build a ModelArch from a Hugging Face `config.json` (no transformers needed).

Handles dense and MoE (Mixtral, Qwen-MoE, DeepSeek, gpt-oss), GQA, MLA, sliding-window and
hybrid layouts, and multimodal files whose language model sits under `text_config`.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

from gpu_advisor.knowledge.schema import ModelArch


class ConfigError(ValueError):
    """The config.json cannot describe a language model we can size."""


_GEMMA3_TEXT_DEFAULTS = {
    "vocab_size": 262_208, "num_attention_heads": 8, "num_key_value_heads": 4, "head_dim": 256,
    "max_position_embeddings": 131_072, "sliding_window": 4096, "sliding_window_pattern": 6,
}


# The whole-number fields this reader uses, with the largest value any real model could have: a value
# past it (10**18 layers, a 5,000-digit number), a negative one, a fraction or a text is refused in one
# line instead of being sized (or looped over).
_LAYERS, _WIDTH, _HEADS, _CONTEXT = 10_000, 1 << 22, 1 << 16, 1 << 28
FIELD_LIMITS: dict[str, int] = {
    **dict.fromkeys(("hidden_size", "n_embd", "d_model"), 1 << 20),
    **dict.fromkeys(("num_hidden_layers", "n_layer", "num_layers", "first_k_dense_replace",
                     "sliding_window_pattern", "full_attention_interval", "attn_layer_period",
                     "attn_layer_offset"), _LAYERS),
    **dict.fromkeys(("num_attention_heads", "n_head", "num_key_value_heads", "num_kv_heads",
                     "multi_query_group_num", "head_dim", "kv_channels", "num_local_experts", "n_routed_experts",
                     "num_experts", "num_experts_per_tok", "num_experts_per_token", "moe_topk", "n_shared_experts",
                     "num_shared_experts", "kv_lora_rank", "qk_rope_head_dim", "qk_nope_head_dim", "v_head_dim",
                     "q_lora_rank", "linear_num_value_heads", "linear_key_head_dim", "linear_value_head_dim",
                     "linear_num_key_heads", "linear_conv_kernel_dim", "mamba_num_heads", "mamba_head_dim",
                     "ssm_state_size", "n_groups", "conv_kernel", "mamba_d_state", "mamba_expand", "mamba_d_conv"),
                    _HEADS),
    **dict.fromkeys(("intermediate_size", "ffn_hidden_size", "ffn_dim", "n_inner", "moe_intermediate_size",
                     "shared_expert_intermediate_size"), _WIDTH),
    "vocab_size": 1 << 24,
    **dict.fromkeys(("max_position_embeddings", "seq_length", "n_positions", "max_sequence_length",
                     "sliding_window"), _CONTEXT),
}
MAX_LAYER_LIST = _LAYERS  # entries of layer_types, characters of hybrid_override_pattern


def _shown(value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"a number of about {int(value.bit_length() * 0.30103) + 1:,} digits"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def check_fields(cfg: dict[str, Any]) -> None:
    """Every whole-number field this reader uses is one (0 to its limit), or absent (null; a
    sliding_window of false); the layer lists are of a size a model can have."""
    for key, limit in FIELD_LIMITS.items():
        value = cfg.get(key)
        if value is None or (key == "sliding_window" and value is False):
            continue
        if isinstance(value, float) and value.is_integer() and 0 <= value <= limit:
            cfg[key] = int(value)
            continue
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= limit:
            raise ConfigError(f"config.json field '{key}' must be a whole number from 0 to {limit:,}, "
                              f"got {_shown(value)}")
    for key in ("layer_types", "hybrid_override_pattern"):
        value = cfg.get(key)
        if isinstance(value, (list, str)) and len(value) > MAX_LAYER_LIST:
            raise ConfigError(f"config.json field '{key}' lists {len(value):,} layers; a model has at most "
                              f"{MAX_LAYER_LIST:,}")


def _first(cfg: dict[str, Any], *names: str) -> Any:
    for n in names:
        if cfg.get(n) is not None:
            return cfg[n]
    return None


def _require(cfg: dict[str, Any], label: str, *names: str) -> int:
    value = _first(cfg, *names)
    if value is None:
        raise ConfigError(f"config.json is missing the field '{names[0]}' ({label})")
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ConfigError(f"config.json field '{names[0]}' must be a positive integer, got {value!r}")
    return value


def count_params(
    *,
    hidden: int,
    layers: int,
    heads: int,
    kv_heads: int,
    head_dim: int,
    intermediate: int,
    vocab: int,
    tied: bool,
    experts: int | None = None,
    experts_per_token: int | None = None,
    shared_experts: int = 0,
    shared_intermediate: int | None = None,
    dense_layers: int = 0,
    dense_intermediate: int | None = None,
    mla: dict[str, int] | None = None,
    gated: bool = True,
    positions: int = 0,
) -> tuple[float, float]:
    """Total and active parameters (in units, not billions) from the architecture.

    embeddings V*h (+ output head V*h unless tied) + learned position embeddings positions*h (OPT,
    GPT-2) + per layer attention + MLP: gated 3*h*I (SwiGLU/GeGLU), or 2*h*I (GELU/ReLU: OPT, GPT-2,
    GPT-NeoX, Falcon, BLOOM). MoE layers hold `experts` MLPs of width I and activate `experts_per_token`.
    """
    embed = vocab * hidden * (1 if tied else 2) + positions * hidden
    if mla:
        q = hidden * heads * head_dim if not mla.get("q_lora_rank") else (
            hidden * mla["q_lora_rank"] + mla["q_lora_rank"] * heads * head_dim
        )
        kv = hidden * (mla["kv_lora_rank"] + mla["qk_rope_head_dim"]) + mla["kv_lora_rank"] * heads * (
            head_dim - mla["qk_rope_head_dim"] + mla["v_head_dim"]
        )
        attn = q + kv + heads * mla["v_head_dim"] * hidden
    else:
        attn = hidden * heads * head_dim * 2 + hidden * kv_heads * head_dim * 2
    if experts:
        moe_layers = layers - dense_layers
        expert_mlp = 3 * hidden * intermediate
        shared = shared_experts * 3 * hidden * (shared_intermediate or intermediate)
        dense_mlp = 3 * hidden * (dense_intermediate or intermediate)
        router = hidden * experts
        total = embed + layers * attn + dense_layers * dense_mlp + moe_layers * (
            experts * expert_mlp + shared + router
        )
        active = embed + layers * attn + dense_layers * dense_mlp + moe_layers * (
            (experts_per_token or 1) * expert_mlp + shared + router
        )
        return float(total), float(active)
    total = embed + layers * (attn + (3 if gated else 2) * hidden * intermediate)
    return float(total), float(total)


def shape_params(model: ModelArch) -> tuple[float, float]:
    """Total and active parameters (units) of a catalog shape, by count_params: the language model only
    (a vision tower is the record's vision_params_b, an audio encoder its audio_params_b), with the parts
    count_params has no term for: linear-attention layers whose mixer is wider than an attention layer
    (recurrent_projections) and Gemma 3n's per-layer embeddings (_layer_parts)."""
    total, active = _shape_counted(model)
    extra = _layer_parts(model)
    return total + extra, active + extra


def _layer_parts(model: ModelArch) -> float:
    """Parameters outside count_params' layout, in every token's path (so active too):
    - a linear-attention layer of `recurrent_projections` matrices of hidden x heads x head_dim in place of the
      attention layer counted (MiniMax lightning attention: 5, q, k and v on all 64 heads, a gate, the output);
    - per-layer embeddings (Gemma 3n): a table of per_layer_vocab_size x (layers x per_layer_input_size), the
      projection of the hidden state to the same width, and in each layer its gate and projection back."""
    h, heads, d = model.hidden_size, model.num_attention_heads, model.head_dim
    extra = 0.0
    if model.recurrent_projections and model.recurrent_layers:
        counted = 2 * h * heads * d + 2 * h * model.num_kv_heads * d
        extra += model.recurrent_layers * (model.recurrent_projections * h * heads * d - counted)
    if model.per_layer_input_size:
        width = model.num_layers * model.per_layer_input_size
        extra += (model.per_layer_vocab_size or model.vocab_size) * width + h * width \
            + model.num_layers * 2 * h * model.per_layer_input_size
    return extra


def _shape_counted(model: ModelArch) -> tuple[float, float]:
    mla = None
    if model.attention == "mla" and model.kv_lora_rank and model.qk_rope_head_dim:
        mla = {"kv_lora_rank": model.kv_lora_rank, "qk_rope_head_dim": model.qk_rope_head_dim,
               "v_head_dim": model.v_head_dim or model.head_dim - model.qk_rope_head_dim,
               "q_lora_rank": model.q_lora_rank or 0}
    return count_params(
        hidden=model.hidden_size, layers=model.num_layers, heads=model.num_attention_heads,
        kv_heads=model.num_kv_heads, head_dim=model.head_dim, intermediate=model.intermediate_size,
        vocab=model.vocab_size, tied=model.tied_embeddings, experts=model.num_experts,
        experts_per_token=model.experts_per_token, shared_experts=model.num_shared_experts,
        shared_intermediate=model.shared_expert_intermediate_size, dense_layers=model.dense_layers,
        dense_intermediate=model.dense_intermediate_size, mla=mla, gated=model.gated_mlp,
        positions=model.learned_positions,
    )


# Model types whose MLP is two matrices with GELU or ReLU between (no gate), and those that learn their
# position embeddings (a table of max_positions x hidden) instead of rotating or using ALiBi.
UNGATED_MLP = frozenset({"opt", "gpt2", "gpt_neo", "gpt_neox", "gptj", "gpt_bigcode", "bloom", "falcon", "phi",
                         "mpt", "starcoder2", "codegen", "bert", "roberta"})
# Types whose config class leaves transformers' default (tied input and output embeddings) in place,
# so their config.json often omits the field.
TIED_BY_DEFAULT = frozenset({"gpt2", "opt", "gpt_neo", "gpt_bigcode", "bloom", "falcon", "mpt"})
LEARNED_POSITIONS = {"opt": 2, "gpt2": 0, "gpt_neo": 0, "gpt_bigcode": 0, "bert": 0, "roberta": 2}  # + offset


def _check_count(total: float, active: float) -> None:
    """Refuse a config.json whose fields, each within its own bounds, multiply out to a model no one has (65,536
    experts of 10,000 layers: 10^20 parameters) or to none at all, as a bare size is refused."""
    from gpu_advisor.knowledge.resolve import MAX_PARAMS_B

    if total / 1e9 > MAX_PARAMS_B:
        raise ConfigError(f"config.json describes {total / 1e9:,.0f}B parameters, beyond any model that exists (the "
                          "largest are about 2,000B); check its sizes, layers and experts")
    if round(total / 1e9, 6) <= 0 or round(active / 1e9, 6) <= 0:
        raise ConfigError(f"config.json describes {total:,.0f} parameters: too few for a model this tool sizes")


def model_from_config(cfg: dict[str, Any], *, name: str, source: str) -> ModelArch:
    if not isinstance(cfg, dict):
        raise ConfigError("config.json must hold a JSON object")
    from gpu_advisor.knowledge.quant import parse_quantization

    quant = cfg.get("quantization_config")
    if isinstance(cfg.get("text_config"), dict):
        outer, cfg = cfg, {**cfg["text_config"]}
        cfg.setdefault("vocab_size", outer.get("vocab_size"))
        modality = "vision-language"
    else:
        modality = "text"
    model_type = str(cfg.get("model_type", ""))
    if model_type.startswith("gemma3"):
        # Gemma 3 files omit fields equal to Gemma3TextConfig's defaults (transformers 4.50)
        cfg = {**_GEMMA3_TEXT_DEFAULTS, **{k: v for k, v in cfg.items() if v is not None}}
    else:
        cfg = dict(cfg)
    check_fields(cfg)

    hidden = _require(cfg, "hidden size", "hidden_size", "n_embd", "d_model")
    layers = _require(cfg, "layer count", "num_hidden_layers", "n_layer", "num_layers")
    heads = _require(cfg, "attention heads", "num_attention_heads", "n_head")
    vocab = _require(cfg, "vocabulary size", "vocab_size")
    kv_heads = _first(cfg, "num_key_value_heads", "num_kv_heads", "multi_query_group_num") or heads
    head_dim = _first(cfg, "head_dim", "kv_channels") or hidden // heads
    intermediate = _first(cfg, "intermediate_size", "ffn_hidden_size", "ffn_dim", "n_inner") or 4 * hidden
    if model_type == "qwen":  # first-generation Qwen stores twice the per-branch MLP width
        intermediate //= 2
    max_context = _first(cfg, "max_position_embeddings", "seq_length", "n_positions", "max_sequence_length") or 4096
    tied = bool(cfg.get("tie_word_embeddings", model_type.startswith("gemma") or model_type in TIED_BY_DEFAULT))

    experts = _first(cfg, "num_local_experts", "n_routed_experts", "num_experts")
    per_token = _first(cfg, "num_experts_per_tok", "num_experts_per_token", "moe_topk")
    moe_width = _first(cfg, "moe_intermediate_size")
    shared = int(_first(cfg, "n_shared_experts", "num_shared_experts") or 0)
    shared_width = _first(cfg, "shared_expert_intermediate_size")
    if shared_width and not shared:
        shared = 1
    dense_layers = int(_first(cfg, "first_k_dense_replace") or 0)
    dense_width = intermediate
    if model_type.startswith("llama4") and experts:
        shared, shared_width, dense_layers, dense_width = _llama4_moe(cfg, layers, intermediate)
    if experts and not per_token:
        raise ConfigError("config.json is missing the field 'num_experts_per_tok' (MoE routing)")

    mla = None
    attention = "mha" if kv_heads == heads else "gqa"
    if cfg.get("kv_lora_rank"):
        nope = _require(cfg, "MLA", "qk_nope_head_dim")
        rope = _require(cfg, "MLA", "qk_rope_head_dim")
        mla = {
            "kv_lora_rank": cfg["kv_lora_rank"],
            "qk_rope_head_dim": rope,
            "v_head_dim": cfg.get("v_head_dim") or nope,
            "q_lora_rank": cfg.get("q_lora_rank") or 0,
        }
        head_dim, kv_heads, attention = nope + rope, heads, "mla"

    window, sliding_layers = _sliding(cfg, model_type, layers, max_context)
    if sliding_layers:
        attention = "sliding" if sliding_layers == layers else "hybrid"
    recurrent, state_bytes = recurrent_layers(cfg, model_type, layers, hidden)
    sliding_layers = min(sliding_layers, layers - recurrent)

    qinfo = parse_quantization(quant, row=hidden)
    total, active = count_params(
        hidden=hidden, layers=layers, heads=heads, kv_heads=kv_heads, head_dim=head_dim,
        intermediate=moe_width or intermediate, vocab=vocab, tied=tied,
        experts=experts, experts_per_token=per_token, shared_experts=shared,
        shared_intermediate=shared_width or moe_width, dense_layers=dense_layers if experts else 0,
        dense_intermediate=dense_width, mla=mla, gated=model_type not in UNGATED_MLP,
        positions=max_context + LEARNED_POSITIONS[model_type] if model_type in LEARNED_POSITIONS else 0,
    )
    _check_count(total, active)
    return ModelArch(
        id=name.lower(),
        name=name,
        family=model_type or "unknown",
        total_params_b=round(total / 1e9, 6),
        active_params_b=round(active / 1e9, 6),
        num_layers=layers,
        hidden_size=hidden,
        intermediate_size=moe_width or intermediate,
        num_attention_heads=heads,
        num_kv_heads=kv_heads,
        head_dim=head_dim,
        vocab_size=vocab,
        max_context=max_context,
        tied_embeddings=tied,
        attention=attention,
        sliding_window=window if sliding_layers else None,
        sliding_layers=sliding_layers,
        recurrent_layers=recurrent,
        recurrent_state_bytes=state_bytes,
        kv_lora_rank=mla["kv_lora_rank"] if mla else None,
        qk_rope_head_dim=mla["qk_rope_head_dim"] if mla else None,
        q_lora_rank=(mla["q_lora_rank"] or None) if mla else None,
        v_head_dim=mla["v_head_dim"] if mla else None,
        num_experts=experts,
        experts_per_token=per_token,
        num_shared_experts=shared,
        shared_expert_intermediate_size=(shared_width or moe_width) if experts and shared else None,
        dense_layers=dense_layers if experts else 0,
        dense_intermediate_size=dense_width if experts and dense_layers else None,
        modality=modality,
        native_precision=qinfo.precision if qinfo else None,
        native_bits_per_weight=round(qinfo.bits_per_weight, 4) if qinfo else None,
        resolved_from="config",
        notes="parameter count computed from config.json" + (
            f"; {recurrent} linear-attention or state-space layers: their fixed state is counted, their "
            "parameters are approximated as attention layers (exact when read from the checkpoint)"
            if recurrent else "") + (f"; checkpoint quantization: {qinfo.note}" + (
            f" (kept in 16 bits: {', '.join(qinfo.kept_16bit)})" if qinfo.kept_16bit else "") if qinfo else ""),
        source=source,
        as_of=date(2026, 11, 1),
    )


def _llama4_moe(cfg: dict[str, Any], layers: int, intermediate: int) -> tuple[int, int, int, int]:
    """Llama 4: every MoE layer has one shared expert as wide as a routed one; with interleave_moe_layer_step
    k only every k-th layer is MoE, the others a dense MLP of intermediate_size_mlp (Maverick: k = 2).
    Returns (shared experts, their width, dense layers, dense width)."""
    step = int(cfg.get("interleave_moe_layer_step") or 1)
    return 1, intermediate, layers - layers // step, int(cfg.get("intermediate_size_mlp") or intermediate)


def _sliding(cfg: dict[str, Any], model_type: str, layers: int, max_context: int) -> tuple[int | None, int]:
    """(window, layers that attend within it) from the config's sliding-window or chunked-attention fields."""
    window = cfg.get("sliding_window")
    sliding_layers = 0
    layer_types = cfg.get("layer_types")
    if isinstance(layer_types, list) and layer_types:
        sliding_layers = sum(1 for t in layer_types if "sliding" in str(t))
    elif window and model_type.startswith("gemma2"):
        sliding_layers = layers // 2
    elif window and model_type.startswith("gemma3"):
        pattern = int(cfg.get("sliding_window_pattern") or 6)
        sliding_layers = layers - layers // pattern
    elif window and cfg.get("use_sliding_window", model_type in ("mistral", "mixtral")) and window < max_context:
        sliding_layers = layers
    elif model_type.startswith("llama4") and cfg.get("attention_chunk_size"):
        # Llama 4's RoPE layers attend within chunks of attention_chunk_size tokens (a cache of at most one
        # chunk, sized as a window); every no_rope_layer_interval-th layer (default 4) is global NoPE attention
        window = int(cfg["attention_chunk_size"])
        nope = cfg.get("no_rope_layers")
        if isinstance(nope, list) and nope:
            sliding_layers = sum(1 for x in nope[:layers] if x)
        else:
            sliding_layers = layers - layers // int(cfg.get("no_rope_layer_interval") or 4)
        sliding_layers = sliding_layers if window < max_context else 0
    if not window:
        sliding_layers = 0
    return window, sliding_layers


def recurrent_layers(cfg: dict, model_type: str, layers: int, hidden: int) -> tuple[int, float]:
    """(layers with a fixed-size recurrent state instead of a KV cache, bytes of that state per sequence
    over all of them): linear attention (Qwen3-Next and Qwen3.5 gated DeltaNet) and state-space blocks
    (Jamba's Mamba, Nemotron-H's Mamba-2). Layer kinds come from `layer_types`, `full_attention_interval`,
    `hybrid_override_pattern` or `attn_layer_period`; a layer of another kind counts as attention."""
    types = cfg.get("layer_types")
    pattern = cfg.get("hybrid_override_pattern")
    if isinstance(types, list) and types:
        count = sum(1 for t in types if any(k in str(t) for k in ("linear", "mamba", "ssm", "recurrent")))
        non_attention = count
    elif cfg.get("full_attention_interval"):
        interval = max(1, int(cfg["full_attention_interval"]))
        count = layers - layers // interval
        non_attention = count
    elif isinstance(pattern, str) and pattern:
        count = pattern.count("M")
        non_attention = len(pattern) - pattern.count("*")  # '-' blocks are MLP-only: no cache at all
    elif cfg.get("attn_layer_period"):
        period, offset = max(1, int(cfg["attn_layer_period"])), int(cfg.get("attn_layer_offset") or 0)
        count = sum(1 for i in range(layers) if i % period != offset)
        non_attention = count
    else:
        return 0, 0.0
    bytes_per_value = 4 if str(cfg.get("mamba_ssm_dtype", "float32")) in ("float32", "fp32") else 2
    values = 0
    if cfg.get("linear_num_value_heads"):  # gated DeltaNet: a k x v matrix per value head, plus the conv window
        vh, kd, vd = cfg["linear_num_value_heads"], cfg["linear_key_head_dim"], cfg["linear_value_head_dim"]
        key_dim = int(cfg.get("linear_num_key_heads") or vh) * kd
        values = vh * kd * vd + (int(cfg.get("linear_conv_kernel_dim") or 4) - 1) * (2 * key_dim + vh * vd)
    elif cfg.get("mamba_num_heads"):  # Mamba-2
        inner = cfg["mamba_num_heads"] * cfg["mamba_head_dim"]
        state = int(cfg.get("ssm_state_size") or 128)
        groups = int(cfg.get("n_groups") or 1)
        values = inner * state + (int(cfg.get("conv_kernel") or 4) - 1) * (inner + 2 * groups * state)
    elif cfg.get("mamba_d_state"):  # Mamba (Jamba)
        inner = int(cfg.get("mamba_expand") or 2) * hidden
        values = inner * cfg["mamba_d_state"] + (int(cfg.get("mamba_d_conv") or 4) - 1) * inner
    return min(non_attention, layers), float(count * values * bytes_per_value)


# A Hugging Face config.json is a few KB and a few levels deep; anything far past that is not one.
MAX_CONFIG_BYTES = 1 << 20
MAX_CONFIG_DEPTH = 32


def read_config_json(path: str | Path) -> dict:
    """A config.json read with bounded work: only a regular file of at most MAX_CONFIG_BYTES (never a
    device, a FIFO or /dev/zero), valid UTF-8 JSON, an object nested at most MAX_CONFIG_DEPTH deep."""
    p = Path(path)
    try:
        if not p.is_file():
            raise ConfigError(f"{p} is not a regular file; give a config.json file")
        with p.open("rb") as f:
            raw = f.read(MAX_CONFIG_BYTES + 1)
    except OSError as e:
        raise ConfigError(f"cannot read {p}: {e.strerror or e}") from None
    if len(raw) > MAX_CONFIG_BYTES:
        raise ConfigError(f"{p} is over {MAX_CONFIG_BYTES // 1024} KB: not a model config.json")
    try:
        cfg = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ConfigError(f"{p} is not UTF-8 text: not a model config.json") from None
    except json.JSONDecodeError as e:
        raise ConfigError(f"{p} is not valid JSON: {e.msg} at line {e.lineno}") from None
    except (RecursionError, ValueError):  # nesting past the parser's depth, a number past int()'s digit limit
        raise ConfigError(f"{p} is not a model config.json (too deeply nested or an absurd number)") from None
    if not isinstance(cfg, dict):
        raise ConfigError(f"{p} is not a model config.json: the top level must be a JSON object")
    if _depth(cfg) > MAX_CONFIG_DEPTH:
        raise ConfigError(f"{p} is nested more than {MAX_CONFIG_DEPTH} levels deep: not a model config.json")
    return cfg


def _depth(value, level: int = 0) -> int:
    if level > MAX_CONFIG_DEPTH:
        return level
    if isinstance(value, dict):
        return max((_depth(v, level + 1) for v in value.values()), default=level + 1)
    if isinstance(value, list):
        return max((_depth(v, level + 1) for v in value), default=level + 1)
    return level


def load_config_file(path: str | Path) -> ModelArch:
    p = Path(path)
    cfg = read_config_json(p)
    name = p.parent.name if p.name == "config.json" else p.stem
    return model_from_config(cfg, name=name.replace("__", "/"), source=str(p))
