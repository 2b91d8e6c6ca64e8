"""The weight format a sizing command sizes when none is given: the checkpoint's own (gpt-oss ships
MXFP4, DeepSeek-V3/R1 and Kimi K2 FP8), as the conversation and `recommend` already do, else BF16.

A card whose engine has no kernels for that format (Ascend: no FP8 or FP4) serves the checkpoint
converted to W8A8, as `recommend` does (tools.recommend.serving_precision)."""

from __future__ import annotations

from typing import NamedTuple

from gpu_advisor.knowledge import find_gpu, find_precision
from gpu_advisor.tools.models import resolve_model

FALLBACK = "bf16"
CONVERTED = "w8a8-int8"  # vLLM-Ascend / MindIE serve FP8 and FP4 checkpoints as W8A8


class DefaultFormat(NamedTuple):
    precision: str
    native: bool  # the checkpoint's own format (or its W8A8 conversion where that cannot run)
    converted_from: str | None = None  # the native format when it was converted for the card


def default_format(model: str, gpu: str | None = None) -> DefaultFormat:
    """The checkpoint's own format of `model`, else BF16. An unknown model or card gives BF16: the
    sizing tool then raises its own error, which names the closest entries."""
    try:
        native = resolve_model(model).native_precision
    except (KeyError, LookupError, ValueError, OSError):
        return DefaultFormat(FALLBACK, False)
    if not native:
        return DefaultFormat(FALLBACK, False)
    if gpu:
        try:
            stack = find_gpu(gpu).stack
        except (KeyError, LookupError, ValueError):
            stack = None
        if stack is not None and stack in find_precision(native).unconverted_stacks:
            return DefaultFormat(CONVERTED, True, native)
    return DefaultFormat(native, True)


def default_note(choice: DefaultFormat) -> str | None:
    """The line a command prints when it sized the checkpoint's own format without being asked."""
    if not choice.native:
        return None
    if choice.converted_from:
        return (f"weights in {choice.precision} by default: the checkpoint's own format "
                f"({choice.converted_from}) has no kernels on this card, so it is served converted; "
                "--precision to size another format")
    return f"weights in {choice.precision} by default: the checkpoint's own format; --precision to size another"
