"""What a checkpoint's `quantization_config` says about the bytes of its weights.

Reads the field as transformers writes it for GPTQ, AWQ, FP8, MXFP4, compressed-tensors (llm-compressor:
FP8, W8A8, W4A16, NVFP4) and bitsandbytes checkpoints, and gives the catalog precision that matches,
the effective bits per weight of the quantized matrices (values + scales + zero points, from the bits
and the group size actually used), and the modules the checkpoint keeps in 16 bits.

Storage rules (per quantized weight):
- GPTQ: b-bit values packed in int32, one FP16 scale and one packed b-bit zero point per group of g
  input columns: b + (16 + b) / g. group_size -1 means one group per row (per channel).
- AWQ (GEMM/GEMV packing): the same layout, b + (16 + b) / g.
- FP8 (E4M3): 8 bits; per-tensor, per-channel or 128x128-block FP32 scales add < 0.01 bit.
- compressed-tensors: num_bits + 16 / group_size for group strategies (+ num_bits / group_size with
  a zero point when asymmetric); channel and tensor strategies add < 0.01 bit.
- NVFP4: 4-bit E2M1 values with one FP8 (E4M3) scale per 16 values, 4 + 8/16 = 4.5 bits.
- MXFP4: 4-bit E2M1 values with one E8M0 scale per 32 values, 4 + 8/32 = 4.25 bits.
- bitsandbytes 4-bit: one FP32 absmax per 64 values (4.5 bits), or with double quantization an 8-bit
  absmax plus one FP32 per 256 blocks (4 + 8/64 + 32/(64*256) = 4.127 bits). 8-bit: int8 with one
  scale per row (8 bits).
Embeddings and the output head stay in 16 bits in every one of these formats unless the config lists
them as quantized; the sizing tools count them at 16 bits.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gpu_advisor.knowledge.hf_config import ConfigError


@dataclass(frozen=True)
class QuantInfo:
    precision: str  # Precision.id
    bits_per_weight: float  # quantized matrices, everything stored per weight
    method: str
    kept_16bit: list[str] = field(default_factory=list)
    note: str = ""


def _num(cfg: dict[str, Any], *names: str, default: Any = None) -> Any:
    for n in names:
        if cfg.get(n) is not None:
            return cfg[n]
    return default


def _int(cfg: dict[str, Any], *names: str, default: int, low: int, high: int, what: str) -> int:
    """A whole number field (the first of `names` that is set) within [low, high], or `default`; any other
    value (text, a list, an object, true/false, out of range) is refused with one line naming the field."""
    value = _num(cfg, *names, default=None)
    if value is None:
        return default
    if isinstance(value, float) and value.is_integer() and abs(value) < 2 ** 31:
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        shown = repr(value)[:40]
        raise ConfigError(f"config.json quantization_config field '{next(n for n in names if cfg.get(n) is not None)}' "
                          f"must be {what} (got {shown})")
    return value


def _object(cfg: dict[str, Any], name: str) -> dict[str, Any]:
    """A nested object field, {} when absent; anything else is refused with one line."""
    value = cfg.get(name)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ConfigError(f"config.json quantization_config field '{name}' must be an object (got {repr(value)[:40]})")
    return value


def _group_bits(bits: float, group: int | None, scale_bits: float = 16, zero: bool = True, row: int = 4096) -> float:
    g = row if not group or group <= 0 else group
    return bits + (scale_bits + (bits if zero else 0)) / g


def _kept(q: dict[str, Any]) -> list[str]:
    kept = _num(q, "modules_to_not_convert", "ignore", "ignored_layers", "llm_int8_skip_modules", default=[]) or []
    if isinstance(kept, str):
        kept = [kept]
    if not isinstance(kept, list) or not all(isinstance(k, str) for k in kept):
        raise ConfigError("config.json quantization_config lists the modules it keeps unquantized as something "
                          f"other than a list of names (got {repr(kept)[:40]})")
    return kept[:12]


def parse_quantization(q: Any, *, row: int = 4096) -> QuantInfo | None:  # noqa: C901 - one branch per quant_method
    """The QuantInfo for a config's `quantization_config`; None when there is none. `row` is the
    input width used for per-channel groups (the model's hidden size)."""
    if q is None:
        return None
    if not isinstance(q, dict):
        raise ConfigError("config.json field 'quantization_config' must be an object")
    method = str(q.get("quant_method") or "").lower()
    if not method and ("load_in_4bit" in q or "_load_in_4bit" in q):
        method = "bitsandbytes"
    kept = _kept(q)

    if method == "gptq":
        bits = _int(q, "bits", default=4, low=2, high=8, what="a bit width from 2 to 8")
        group = _int(q, "group_size", default=128, low=-1, high=1 << 20, what="a group size (-1 for per channel)")
        bpw = _group_bits(bits, group, row=row)
        pid = "gptq-int8" if bits >= 8 else "gptq-int4"
        note = f"GPTQ {bits}-bit, group size {group if group > 0 else 'per channel'}: {bpw:.3g} bits per weight"
        if bits not in (4, 8):
            note += f" (sized as {pid} with its own {bpw:.3g} bits)"
        return QuantInfo(pid, bpw, "gptq", kept, note)
    if method == "awq":
        bits = _int(q, "bits", "w_bit", default=4, low=2, high=8, what="a bit width from 2 to 8")
        group = _int(q, "group_size", "q_group_size", default=128, low=-1, high=1 << 20,
                     what="a group size (-1 for per channel)")
        bpw = _group_bits(bits, group, row=row)
        return QuantInfo("awq", bpw, "awq", kept, f"AWQ {bits}-bit, group size {group}: {bpw:.3g} bits per weight")
    if method in ("fp8", "fbgemm_fp8"):
        block = q.get("weight_block_size")
        blocks = isinstance(block, list) and len(block) == 2 and all(type(b) is int and b > 0 for b in block)
        scales = f"{block[0]}x{block[1]} blocks" if blocks else "per tensor or channel"  # type: ignore[index]
        return QuantInfo("fp8", 8.0, "fp8", kept, f"FP8 E4M3 weights, scales {scales}")
    if method == "mxfp4":
        return QuantInfo("mxfp4", 4.25, "mxfp4", kept, "MXFP4: E2M1 values, one E8M0 scale per 32")
    if method == "bitsandbytes":
        if q.get("load_in_4bit") or q.get("_load_in_4bit"):
            double = bool(q.get("bnb_4bit_use_double_quant"))
            bpw = 4 + 8 / 64 + 32 / (64 * 256) if double else 4 + 32 / 64
            said = q.get("bnb_4bit_quant_type")
            kind = said.upper() if isinstance(said, str) and said.isalnum() else "NF4"
            return QuantInfo("nf4", bpw, "bitsandbytes", kept,
                             f"bitsandbytes {kind}, blocks of 64{', double quantization' if double else ''}: {bpw:.3g} bits")
        if q.get("load_in_8bit") or q.get("_load_in_8bit"):
            return QuantInfo("int8", 8.0, "bitsandbytes", kept, "bitsandbytes LLM.int8: int8 with a scale per row")
        raise ConfigError("quantization_config for bitsandbytes sets neither load_in_4bit nor load_in_8bit")
    if method == "compressed-tensors":
        return _compressed_tensors(q, kept, row)
    if method == "modelopt":
        algo = str(q.get("quant_algo") or _object(q, "quantization").get("quant_algo") or "").upper()
        if "NVFP4" in algo:
            return QuantInfo("nvfp4", 4.5, "modelopt", kept, "NVIDIA ModelOpt NVFP4: one FP8 scale per 16 values")
        if "FP8" in algo:
            return QuantInfo("fp8", 8.0, "modelopt", kept, "NVIDIA ModelOpt FP8")
    raise ConfigError(f"quantization_config quant_method '{method or '?'}' is not one this tool sizes "
                      "(GPTQ, AWQ, FP8, MXFP4, NVFP4, compressed-tensors, bitsandbytes)")


def _compressed_tensors(q: dict[str, Any], kept: list[str], row: int) -> QuantInfo:
    groups = q.get("config_groups") or {}
    if not isinstance(groups, dict) or not groups:
        raise ConfigError("compressed-tensors quantization_config has no config_groups")
    scheme = next(iter(groups.values()))
    if not isinstance(scheme, dict):
        raise ConfigError(f"compressed-tensors config_groups entries must be objects (got {repr(scheme)[:40]})")
    weights = _object(scheme, "weights")
    acts = _object(scheme, "input_activations") or None
    bits = _int(weights, "num_bits", default=8, low=1, high=32, what="a bit width from 1 to 32")
    said_group = _int(weights, "group_size", default=0, low=-1, high=1 << 20, what="a group size")
    group = said_group if said_group > 0 else None
    kind = str(weights.get("type") or "int")
    strategy = str(weights.get("strategy") or "channel")
    fmt = str(q.get("format") or "")
    if kind == "float" and bits == 4:
        g = int(group or 16)
        return QuantInfo("nvfp4", 4 + 8 / g, "compressed-tensors", kept, f"compressed-tensors NVFP4 ({fmt}), FP8 scale per {g}")
    if kind == "float" and bits == 8:
        a = "dynamic FP8 activations" if acts else "16-bit activations"
        return QuantInfo("fp8", 8.0, "compressed-tensors", kept, f"compressed-tensors FP8 weights ({strategy}), {a}")
    if bits == 8:
        if acts and _int(acts, "num_bits", default=16, low=1, high=32, what="a bit width from 1 to 32") == 8:
            return QuantInfo("w8a8-int8", 8.0, "compressed-tensors", kept, "compressed-tensors W8A8 INT8 (int8 matmuls)")
        return QuantInfo("int8", 8.0, "compressed-tensors", kept, "compressed-tensors W8A16 INT8 weights")
    if bits == 4:
        zero = not weights.get("symmetric", True)
        bpw = _group_bits(4, int(group) if strategy == "group" and group else None, zero=zero, row=row)
        return QuantInfo("w4a16", bpw, "compressed-tensors", kept,
                         f"compressed-tensors W4A16 ({strategy}{f' {group}' if strategy == 'group' else ''}): {bpw:.3g} bits")
    raise ConfigError(f"compressed-tensors with {bits}-bit {kind} weights is not a scheme this tool sizes")


__all__ = ["QuantInfo", "parse_quantization"]
