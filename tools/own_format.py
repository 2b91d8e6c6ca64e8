"""The checkpoint's own format ('满血版', 'native weights', 'the original checkpoint': the precision code NATIVE)
as the format id a tool can size: the format the official weights ship in (DeepSeek-R1 and V3: FP8, gpt-oss:
MXFP4), 16-bit for a model published in BF16 (BF16, or FP16 on a card without BF16), and on a stack whose
engines cannot load that checkpoint (Ascend: FP8 and FP4) the same-width format it is converted to (W8A8 INT8).
Every tool entry that takes a format passes it through here, so the code never reaches a format lookup."""

from __future__ import annotations

from gpu_advisor.knowledge import find_precision, resolve_model
from gpu_advisor.knowledge.resolve import NotFound
from gpu_advisor.knowledge.schema import Gpu

NATIVE = "native"  # the reader's precision code for "the checkpoint's own weights"


def own_format(model: str | None, precision: str | None, gpu: Gpu | None = None) -> str | None:
    """`precision` itself unless it is NATIVE; then the checkpoint's own format for `model` on `gpu`."""
    if precision != NATIVE:
        return precision
    native = None
    if model:
        try:
            native = resolve_model(model).native_precision
        except NotFound:
            native = None
    if native:
        return "w8a8-int8" if gpu is not None and gpu.stack in find_precision(native).unconverted_stacks else native
    return "fp16" if gpu is not None and not gpu.native_bf16 else "bf16"
