"""The warning a context past what the model reads carries: past its native context within the YaRN reach its model
card documents (turn it on in the engine), past every reach on record (RoPE scaling, another model, splitting), or,
for a model known only by its size, past the context most releases read natively: its own limit is not on record (its
layout is borrowed for the KV cache alone, never its context or rope scaling: review CT E8 'Quokka-34B' was told
Qwen3-32B's 40,960 tokens and YaRN reach), so its config.json is asked for."""

from __future__ import annotations

from gpu_advisor.knowledge import rules
from gpu_advisor.knowledge.schema import ModelArch
from gpu_advisor.tools.arch import is_generic


def context_warnings(model: ModelArch, longest: int) -> list[str]:
    """The one warning `longest` tokens per conversation or item earn on `model`, or none."""
    if is_generic(model):
        if longest <= rules().unknown_native_context_tokens:
            return []
        return [f"{longest:,} tokens: I don't know how long a context this {model.name} reads, nor its rope scaling; "
                "send its config.json (max_position_embeddings, rope_scaling) to check it reads that far"]
    if model.yarn_context and model.max_context < longest <= model.yarn_context:
        return [f"{longest:,} tokens is more than {model.name} reads natively ({model.max_context:,}); its model "
                f"card documents YaRN RoPE scaling up to {model.yarn_context:,}: turn it on in the engine"]
    if longest > model.max_context:
        return [f"{longest:,} tokens is more than {model.name} reads ({model.max_context:,}-token context): "
                "it needs RoPE scaling (YaRN) where the model supports it, a longer-context model, or splitting the text"]
    return []
