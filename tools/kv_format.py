"""The 8-bit KV-cache format a card's serving engine stores the cache in, from the card's record (knowledge
gpus.yaml: fp8_tflops, int8_tops, stack): one rule for the plan's lever, the owned card's tries and the launch flag.

- CUDA and ROCm cards: FP8 (vLLM/SGLang --kv-cache-dtype fp8; on cards without FP8 units the cache is stored in
  FP8 and read back to 16 bits, https://docs.vllm.ai/en/latest/features/quantization/quantized_kvcache/).
- Other stacks (Huawei Ascend: CANN) store FP8 only where the card computes it (fp8_tflops); the Ascend 910B has no
  FP8 units, and its engines' 8-bit cache is INT8 with W8A8 weights (MindIE 'KV Cache int8' (C8) with W8A8 on
  Atlas 800I A2, hiascend.com/document/detail/zh/mindie/20RC1/mindiellm/llmdev/mindie_llm0292.html; Huawei
  ModelArts' vLLM on Ascend, '--kv-cache-dtype int8', support.huaweicloud.com/bestpractice-modelarts/
  modelarts_ds_infer_c_908c71.html; a fixed list of models in both). No INT8 units either: no 8-bit cache.
"""

from __future__ import annotations

from gpu_advisor.knowledge.schema import Gpu

FP8_KV_STACKS = ("cuda", "rocm")


def kv8_format(gpu: Gpu) -> str | None:
    """'fp8', 'int8' or None (the card's engines keep a 16-bit cache)."""
    if gpu.fp8_tflops or gpu.stack in FP8_KV_STACKS:
        return "fp8"
    return "int8" if gpu.int8_tops else None
