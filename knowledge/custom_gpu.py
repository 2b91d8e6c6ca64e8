"""A card that is not in the catalog, described by its numbers.

`custom:memory=96GB,bandwidth=1.8TB/s,bf16=500` -> a Gpu record, validated like the built-in data.
Keys (case-insensitive; units optional where the default is stated):
  memory     GB (default), GiB, TB                       required
  bandwidth  GB/s (default), TB/s                        required
  bf16       dense BF16/FP16 TFLOPS                      default: the catalog's median compute per byte/s
  fp8, int8  dense TFLOPS / TOPS
  power|tdp  W                                           default 300
  nvlink     GB/s per GPU (implies a fast GPU-to-GPU link)
  link       nvlink | pcie | infinity-fabric | hccs      default pcie
  vendor     nvidia | amd | apple | huawei               default nvidia
  segment    consumer | workstation | datacenter         default datacenter
  price      USD for one card
  name       a label
  domestic   yes | no: made by a Chinese vendor (a domestic-only rule keeps it)   default no
"""

from __future__ import annotations

import re
import statistics
from datetime import date

from pydantic import ValidationError

from gpu_advisor.knowledge.loader import error_words
from gpu_advisor.knowledge.resolve import BadValue
from gpu_advisor.knowledge.schema import Gpu

PREFIX = "custom:"
_NUMBER = re.compile(r"^\s*(?P<x>\d+(?:\.\d+)?)\s*(?P<unit>[a-z/]*)\s*$", re.IGNORECASE)
_KEYS = {"memory", "mem", "vram", "bandwidth", "bw", "bf16", "fp16", "fp8", "int8", "power", "tdp", "nvlink", "link",
         "vendor", "segment", "price", "name", "domestic"}
_STACK = {"nvidia": "cuda", "amd": "rocm", "apple": "metal", "huawei": "cann"}


# A described card has no datasheet date; a fixed one keeps answers byte-identical from day to day.
DESCRIBED_AS_OF = date(2026, 11, 1)


def is_custom(text: str) -> bool:
    return text.strip().lower().startswith(PREFIX)


def _number(key: str, raw: str, units: dict[str, float], default_unit: str) -> float:
    m = _NUMBER.match(raw.replace(",", ""))
    if not m:
        raise BadValue(f"custom GPU: '{key}={raw}' is not a number with a unit ({', '.join(units)})")
    unit = (m["unit"] or default_unit).lower()
    if unit not in units:
        raise BadValue(f"custom GPU: unit '{m['unit']}' of {key} is not one of {', '.join(units)}")
    value = float(m["x"]) * units[unit]
    if value <= 0:
        raise BadValue(f"custom GPU: {key} must be more than zero")
    return value


def _median_flops_per_byte() -> float:
    from gpu_advisor.knowledge.loader import gpus

    ratios = [g.bf16_tflops / g.memory_bandwidth_gbps for g in gpus() if g.segment == "datacenter"]
    return statistics.median(ratios)


def parse_custom_gpu(text: str) -> Gpu:
    """A Gpu from `custom:key=value,...`; BadValue with one line naming the problem otherwise."""
    body = text.strip()
    if body.lower().startswith(PREFIX):
        body = body[len(PREFIX):]
    fields: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in body.split(","))):
        if "=" not in part:
            raise BadValue(f"custom GPU: '{part}' is not key=value (e.g. memory=96GB,bandwidth=1.8TB/s,bf16=500)")
        k, v = (x.strip() for x in part.split("=", 1))
        k = k.lower()
        if k not in _KEYS:
            raise BadValue(f"custom GPU: unknown key '{k}'; use memory, bandwidth, bf16, fp8, int8, power, nvlink, "
                           "link, vendor, segment, price, name")
        fields[{"mem": "memory", "vram": "memory", "bw": "bandwidth", "fp16": "bf16", "tdp": "power"}.get(k, k)] = v
    if "memory" not in fields or "bandwidth" not in fields:
        raise BadValue("custom GPU needs at least memory and bandwidth, e.g. custom:memory=96GB,bandwidth=1.8TB/s")
    memory = _number("memory", fields["memory"], {"gb": 1, "gib": 1.073741824, "tb": 1000}, "gb")
    bandwidth = _number("bandwidth", fields["bandwidth"], {"gb/s": 1, "gbps": 1, "tb/s": 1000, "tbps": 1000}, "gb/s")
    notes = ["A card described by its numbers (custom:); nothing here comes from a datasheet."]
    if "bf16" in fields:
        bf16 = _number("bf16", fields["bf16"], {"tflops": 1, "": 1}, "tflops")
    else:
        ratio = _median_flops_per_byte()
        bf16 = round(bandwidth * ratio, 1)
        notes.append(f"bf16 not given: assumed {bf16:g} TFLOPS, the catalog's median for datacenter cards of "
                     f"{ratio * 1000:.0f} TFLOPS per TB/s of bandwidth")
    fp8 = _number("fp8", fields["fp8"], {"tflops": 1, "": 1}, "tflops") if "fp8" in fields else None
    int8 = _number("int8", fields["int8"], {"tops": 1, "": 1}, "tops") if "int8" in fields else None
    power = _number("power", fields["power"], {"w": 1, "kw": 1000}, "w") if "power" in fields else 300.0
    nvlink = _number("nvlink", fields["nvlink"], {"gb/s": 1, "tb/s": 1000}, "gb/s") if "nvlink" in fields else None
    vendor = fields.get("vendor", "nvidia").lower()
    if vendor not in _STACK:
        raise BadValue(f"custom GPU: vendor '{vendor}' is not one of {', '.join(_STACK)}")
    link = fields.get("link", "nvlink" if nvlink else "pcie").lower()
    price = _number("price", fields["price"].lstrip("$"), {"": 1, "usd": 1}, "") if "price" in fields else None
    label = fields.get("name") or f"custom {memory:g} GB, {bandwidth / 1000:g} TB/s"
    # the id is the description itself, so that find_gpu(gpu.id) gives the same card back
    gid = PREFIX + ",".join(f"{k}={fields[k]}" for k in sorted(fields))
    try:
        return Gpu(
            id=gid, name=label, vendor=vendor, stack=_STACK[vendor], segment=fields.get("segment", "datacenter"),
            memory_gb=memory, memory_bandwidth_gbps=bandwidth,
            memory_type="lpddr" if vendor == "apple" else "hbm" if fields.get("segment", "datacenter") == "datacenter" else "gddr",
            bf16_tflops=bf16, fp8_tflops=fp8, int8_tops=int8, interconnect=link, nvlink_gbps=nvlink,
            tdp_w=power, buy_price_usd=price, unified_memory=vendor == "apple", market_notes=notes,
            domestic_china=fields.get("domestic", "no").lower() in ("yes", "true", "1"),
            source=f"user-described: {gid}", as_of=DESCRIBED_AS_OF,
        )
    except ValidationError as e:
        first = e.errors()[0]
        raise BadValue(f"custom GPU: {'.'.join(map(str, first['loc']))}: {error_words(first)}") from None


__all__ = ["PREFIX", "is_custom", "parse_custom_gpu"]
