"""What a follow-up moved, said in one line when it moved nothing ('what if i quantize it to fp8' on a plan already
in FP8, 'LoRA 吧' on a plan already of LoRA): the new plan's pick is the old one, on the same cards, in the same
precision, with the same memory, speed and time, so the reply says the plan already did that (code
`moved.nothing`, worded per language in the catalogs) instead of a table of figures "against" themselves."""

from __future__ import annotations

from typing import Any

from assistant.catalog import say
from assistant.writers import gpu_words

# The figures of a plan's pick that a change would move.
FIGURES = ("gpu", "gpus", "precision", "kv_precision", "serve_per_gpu_bytes", "train_per_gpu_bytes",
           "decode_tokens_per_s", "job_hours", "usd_per_hour", "job_usd", "tp", "pp", "replicas")


def nothing_moved(answer: Any, before: dict[str, Any], lang: str) -> str:
    """The line for a change that left the plan's pick as it was, or "" when anything moved."""
    new = answer.recommend.best
    if new is None or not before.get("gpu"):
        return ""
    now = new.model_dump(mode="json")
    if any(now.get(k) != before.get(k) for k in FIGURES):
        return ""
    if new.precision and not (new.train_per_gpu_bytes and not new.serve_per_gpu_bytes):
        return say(lang, "moved.nothing_precision", precision=str(new.precision).upper(), option=gpu_words(new, lang))
    return say(lang, "moved.nothing", option=gpu_words(new, lang))
