"""The engine arguments that turn on YaRN RoPE scaling for a context past the model's native one that its model card
documents (knowledge models.yaml: yarn_context, yarn_original; Qwen2.5 7B: 32,768 native, 131,072 with factor 4):
vLLM's --hf-overrides with the rope_scaling block the card gives (vLLM's context-extension docs), SGLang's
--json-model-override-args with the same block, llama.cpp's --rope-scaling yarn with its scale and original
context. Nothing when the context is within the native one or no YaRN is on record."""

from __future__ import annotations

import json

from gpu_advisor.knowledge.schema import ModelArch


def yarn_args(model: ModelArch, context: int, engine: str) -> list[str]:
    """The flags for `engine` ('vllm', 'sglang', 'llama.cpp'), or [] when no YaRN is needed or on record."""
    if not model.yarn_context or context <= model.max_context or context > model.yarn_context:
        return []
    native = model.yarn_original or model.max_context
    factor = model.yarn_context / native
    block = {"rope_type": "yarn", "factor": factor, "original_max_position_embeddings": native}
    if engine == "vllm":
        return ["--hf-overrides", json.dumps({"rope_scaling": block})]
    if engine == "sglang":
        return ["--json-model-override-args", json.dumps({"rope_scaling": block})]
    if engine == "llama.cpp":
        return ["--rope-scaling", "yarn", "--rope-scale", f"{factor:g}", "--yarn-orig-ctx", str(native)]
    return []
