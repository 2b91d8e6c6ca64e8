"""FP8 training asked about ('FP8训练和BF16训练区别', 'fp8 training vs bf16 training, what's the difference?'): the
glossary's fp8-training entry (matmuls in FP8, master weights and optimizer states kept in BF16/FP32), never the
inference-quantisation comparison of 8-bit against 16-bit weights (reading/precisions.py) that the two widths alone
would read as. Asked beside a sizing, the sizing stays and the entry is answered beside it."""

from __future__ import annotations

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.knowledge import find_topic

# What a concept question may carry and still be one (the formats it weighs, the job it is about).
OWN_SLOTS = {"precision", "phase", "method", "serve_precision", "train_precision"}


def read_precision_concepts(m: Message, u: Understanding) -> None:
    """The formats weighed (reading/precisions.py), then FP8 training asked (this module), then a MoE model against a
    dense one (reading/moe_pair.py)."""
    from gpu_advisor.assistant.reading.moe_pair import read_moe_pair
    from gpu_advisor.assistant.reading.precisions import read_precision_compare

    read_precision_compare(m, u)
    read_fp8_training(m, u)  # 'FP8训练和BF16训练区别': training in FP8, not 8-bit weights for inference
    read_moe_pair(m, u)  # 'does moe need less vram? like mixtral 8x7b vs llama 2 70b': the two compared


def read_fp8_training(m: Message, u: Understanding) -> None:
    if u.intents & {"reset", "help", "empty"} or u.choice is not None:
        return
    try:
        topic = find_topic(m.raw)
    except (LookupError, ValueError):
        return
    if topic != "fp8-training":
        return
    if set(u.updates) - OWN_SLOTS:
        u.aside = topic  # '… full FT of 8B on H20 or H800? and fp8 training vs bf16?': the sizing, the entry beside
        return
    u.intents = (u.intents - {"precision_compare", "fit_check", "math", "whatif", "formats"}) | {"explain"}
    u.topic, u.aside, u.updates, u.problems = topic, None, {}, []
    u.ask.pop("widths", None)
    u.ask.pop("named", None)
