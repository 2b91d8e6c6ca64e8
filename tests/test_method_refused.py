"""A fine-tuning method refused beside the one asked for ('full fine-tuning (not lora)', 'no lora', '不是LoRA',
'不要lora') is neither compared nor weighed: the plan is the method asked for, whatever question follows (review V
E6: 'full fine-tuning (not lora) ... do we need more gpus?' was planned as LoRA)."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand

EN = ["full fine-tuning (not lora) of Qwen2.5 32B", "full fine-tuning, not lora, of Qwen2.5 32B",
      "no lora, a full fine-tune of Qwen2.5 32B", "full finetune Qwen2.5 32B without lora"]
ZH = ["全参微调（不是LoRA）qwen2.5 32b", "不要lora，全量微调qwen2.5 32b", "qwen2.5 32b全参微调，不用lora"]
EN_TAILS = ["", ". do we need more gpus?", "? how long on 4 A100s?", ". which gpus do we need?"]
ZH_TAILS = ["", "，需要几张卡？", "，要多久？", "，够不够？"]


@pytest.mark.parametrize(("said", "tail"), [*itertools.product(EN, EN_TAILS), *itertools.product(ZH, ZH_TAILS)])
def test_the_refused_method_is_not_the_plan(said: str, tail: str) -> None:
    u = understand(said + tail, None)
    assert u.updates.get("method") == "full", u.updates
    assert "method_compare" not in u.intents and not u.ask.get("methods_weighed")


@pytest.mark.parametrize("text", ["lora vs full fine-tune: how much memory for llama 8b?",
                                  "LoRA和全参差多少显存，llama 8b", "why not lora? is full fine-tuning really needed for qwen 7b"])
def test_methods_compared_or_questioned_stay_so(text: str) -> None:
    u = understand(text, None)
    assert "method_compare" in u.intents or u.ask.get("method_questioned") or u.updates.get("method") == "lora", u
