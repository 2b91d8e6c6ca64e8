"""Macs named the way people buy them: chip, GPU cores and memory ("M3 Max 30-core 36GB", "MacBook Air
M2 24GB", "m4 16gb"). The chip table (data/apple_chips.yaml) gives each configuration's bandwidth and
compute; a configuration the GPU catalog already has is that catalog record."""

from __future__ import annotations

import re
from datetime import date

from gpu_advisor.knowledge.loader import apple_chips, gpus
from gpu_advisor.knowledge.resolve import BadValue
from gpu_advisor.knowledge.schema import AppleChip, AppleVariant, Gpu

_CHIP = re.compile(
    r"(?<![a-z0-9])(?:apple\s+)?(?:mac\s*book\s*(?:air|pro)?\s*|mac\s*(?:mini|studio|pro)?\s*|imac\s*)?"
    r"m\s?(?P<gen>[1-4])(?:\s*[- ]?\s*(?P<tier>pro|max|ultra))?(?![a-z0-9])"
)
_CORES = re.compile(r"(?<!\d)(?P<n>\d{1,2})\s*[- ]?\s*(?:c\b|cores?\b(?:\s*gpu)?|core\s*gpu)")
_GPU_CORES = re.compile(r"(?<!\d)(?P<n>\d{1,2})\s*[- ]?\s*(?:c\b|cores?)\s*gpu|gpu\s*[:(]?\s*(?P<m>\d{1,2})\s*[- ]?\s*cores?")
_MEMORY = re.compile(r"(?<!\d)(?P<n>\d{1,3})\s*g(?:b|ib|igs?)?(?![a-z0-9/])")
_ID = re.compile(r"^apple-(?P<chip>m[1-4](?:-(?:pro|max|ultra))?)-(?P<cores>\d{1,2})c-(?P<mem>\d{1,3})gb$")


def canonical_id(chip: AppleChip, variant: AppleVariant, memory: int) -> str:
    return f"apple-{chip.id}-{variant.gpu_cores}c-{memory}gb"


def parse_apple(text: str) -> Gpu | None:
    """The Mac a short text names by chip (and GPU cores and memory, when given), or None when the text
    names no Apple chip; BadValue for a configuration Apple never sold (an M4 Max with 32 GB)."""
    m = _ID.match(text.strip().lower())
    if m:
        return configuration(m["chip"], int(m["cores"]), int(m["mem"]))
    said = apple_said(text)
    return configuration(*said) if said else None


def apple_said(text: str) -> tuple[str, int | None, int | None] | None:
    """(chip id, GPU cores, memory in GB) a short text names ('M3 Max 30-core 36GB' -> ('m3-max', 30, 36)), the
    cores and memory None where not said; None when the text names no Apple chip."""
    t = text.strip().lower()[:120]
    c = _CHIP.search(t.replace("_", " "))
    if not c:
        return None
    chip_id = f"m{c['gen']}" + (f"-{c['tier']}" if c["tier"] else "")
    rest = t[:c.start()] + " " + t[c.end():]
    g = _GPU_CORES.search(rest)
    cores_m = g or _CORES.search(rest)
    digits = (cores_m.group("n") or cores_m.groupdict().get("m") or "") if cores_m else ""
    mem_m = _MEMORY.search(rest)
    return chip_id, int(digits) if digits else None, int(mem_m["n"]) if mem_m else None


def memory_sold(text: str) -> tuple[str, list[int]] | None:
    """(chip name, the memory sizes Apple sold it with) for the chip a text names, or None."""
    c = _CHIP.search(text.strip().lower()[:120])
    if not c:
        return None
    chip_id = f"m{c['gen']}" + (f"-{c['tier']}" if c["tier"] else "")
    chip = next((x for x in apple_chips() if x.id == chip_id), None)
    return (chip.name, sorted({m for v in chip.variants for m in v.memory_gb})) if chip else None


def configuration(chip_id: str, cores: int | None, memory: int | None) -> Gpu | None:
    """The chip's configuration with those GPU cores and that memory (the largest GPU sold with it where the cores are
    not said, the largest memory where the memory is not): the GPU catalog's record when it has one; None for no such
    chip; BadValue for a configuration Apple never sold."""
    chip = next((c for c in apple_chips() if c.id == chip_id), None)
    if chip is None:
        return None
    variants = [v for v in chip.variants if cores is None or v.gpu_cores == cores]
    if not variants:
        sold = " or ".join(str(v.gpu_cores) for v in chip.variants)
        raise BadValue(f"Apple sold the {chip.name} with a {sold}-core GPU, not {cores}")
    if memory is not None:
        sold_with = sorted({m for v in variants for m in v.memory_gb})
        variants = [v for v in variants if memory in v.memory_gb]
        if not variants:
            which = f"{chip.name} ({cores}-core GPU)" if cores else chip.name
            sizes = ", ".join(map(str, sold_with[:-1])) + (" or " if len(sold_with) > 1 else "") + str(sold_with[-1])
            raise BadValue(f"Apple sold the {which} with {sizes} GB, not {memory} GB")
    variant = variants[-1]  # the largest GPU sold with that memory
    mem = memory if memory is not None else max(variant.memory_gb)
    name = f"Apple {chip.name} ({variant.gpu_cores}-core GPU, {mem}GB)"
    for g in gpus():
        if g.name == name:
            return g
    guessed = [w for w, unsure in (("GPU cores", cores is None and len(variants) > 1),
                                   ("memory", memory is None)) if unsure]
    notes = [
        f"Built from the Apple chip table: {chip.name} with a {variant.gpu_cores}-core GPU, {mem} GB of unified "
        f"memory at {variant.bandwidth_gbps:g} GB/s" + (f"; {' and '.join(guessed)} not given, the largest "
                                                         "configuration taken" if guessed else ""),
        "Apple GPU: bf16_tflops is the GPU's peak FP32 rate (FP16 runs at about the same rate on M1-M4). "
        "Approximate.",
        "Unified memory: macOS keeps a share for the system; prompt processing is slow next to NVIDIA cards.",
    ]
    return Gpu(
        id=canonical_id(chip, variant, mem), name=name, aliases=[], vendor="apple", stack="metal", segment="apple",
        memory_gb=mem, memory_bandwidth_gbps=variant.bandwidth_gbps, memory_type="lpddr",
        bf16_tflops=round(chip.fp32_tflops_per_core * variant.gpu_cores, 2), interconnect="unified",
        tdp_w=chip.tdp_w, unified_memory=True, market_notes=notes, source=chip.source,
        as_of=date.fromisoformat(str(chip.as_of)),
    )
