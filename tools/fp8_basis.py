"""The basis FP8 weights are sized on, card by card (knowledge/data/precisions.yaml: fp8's weight_only_archs and
its source, vLLM's FP8 page: W8A8 needs FP8 tensor cores, Ampere loads FP8 weight-only through the Marlin W8A16
kernels; gpus.yaml: fp8_tflops). A card with FP8 units computes in FP8; an Ampere card (A100, A800, RTX 30) holds
the weights in 8 bits but multiplies in 16 (tools.throughput sizes its prefill at the BF16 rate); a card with
neither (Volta, V100) has no FP8 kernel in vLLM at all, and FP8 on it is refused."""

from __future__ import annotations

from gpu_advisor.knowledge import find_gpu, find_precision
from gpu_advisor.tools.throughput import format_unit_warnings

INT8_ROUTE = "w8a8-int8"  # the 8-bit format an Ampere card computes (the chat's pick there: tools.recommend)


def fp8_basis(precision: str | None, gpu_ids: list[str]) -> tuple[list[str], str | None]:
    """(the sizing basis said for each card that runs `precision` weight-only, the one-line refusal for the first
    card that cannot run it at all, else None). Empty for any format but FP8 and for cards with FP8 units."""
    if not precision:
        return [], None
    try:
        fmt = find_precision(precision)
    except (LookupError, ValueError):
        return [], None
    if fmt.compute != "fp8":
        return [], None
    said: list[str] = []
    for gpu_id in dict.fromkeys(gpu_ids):
        gpu = find_gpu(gpu_id)
        words = format_unit_warnings(fmt, gpu)
        if not words:
            continue
        if gpu.arch not in fmt.weight_only_archs:
            return said, words[0]
        said.append(f"{words[0]}; sized so: weights and decode reads in 8 bits, prompts at the card's 16-bit "
                    f"rate, never its FP8 throughput (vLLM: {fmt.source.split(' ', 1)[0]})"
                    + (f"; {INT8_ROUTE} computes in 8 bits on its INT8 tensor cores" if gpu.int8_tops else ""))
    return said, None
