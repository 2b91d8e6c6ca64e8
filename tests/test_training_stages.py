"""Two training stages said in order (review CP, E4): 'full finetune of qwen2.5-72b on ~2B tokens then DPO after' is
the fine-tune sized on the tokens given, with the DPO (or RL) run after it said in a note; never one DPO run on the
fine-tuning corpus. Crossed: the first stage's words, the order words, the later objective, the model, the language."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_conversation

FIRST_EN = ["full finetune", "full fine-tuning", "SFT", "lora fine-tune", "instruction tuning", "a full-param finetune"]
THEN_EN = ["{a} of {m} on 2B tokens, then {b}", "{a} of {m} on 2B tokens and then {b}", "{a} of {m} on 2B tokens "
           "followed by {b}", "{a} of {m} on 2B tokens then {b} after", "{a} of {m} on 2B tokens, {b} afterwards",
           "{b} after the {a} of {m} on 2B tokens"]
LATER = {"dpo": ["DPO", "dpo", "KTO", "preference tuning"], "rl": ["GRPO", "PPO", "grpo"]}
MODELS = {"qwen2.5-72b": "qwen2.5-72b", "llama 3.1 8b": "llama-3.1-8b", "Qwen3-8B": "qwen3-8b"}
ZH = ["先{a} {m}，20亿token，然后再做{b}", "{a} {m}，20亿token，之后再跑{b}", "先{a} {m}（20亿token）再{b}",
      "{a} {m}，20亿token，做完{a}接着做{b}", "{m}先{a}，20亿token，完了再{b}"]
FIRST_ZH = ["全参微调", "SFT", "LoRA微调", "微调"]


def _cases_en():
    for (a, tpl, (obj, words), (m, mid)) in itertools.product(FIRST_EN, THEN_EN, LATER.items(), MODELS.items()):
        for b in words:
            yield tpl.format(a=a, m=m, b=b), obj, mid


def _cases_zh():
    for (a, tpl, (obj, words), (m, mid)) in itertools.product(FIRST_ZH, ZH, LATER.items(), MODELS.items()):
        for b in words[:2]:
            yield tpl.format(a=a, m=m, b=b), obj, mid


@pytest.mark.parametrize(("text", "later", "model"), [*_cases_en(), *_cases_zh()])
def test_the_first_stage_is_sized_and_the_later_noted(text, later, model):
    u = understand(text)
    assert u.updates.get("objective") == "sft", text
    assert u.ask.get("then_objective") == later, text
    assert (f"note.then_{later}", {}) in u.notes
    assert u.updates.get("model") == model and u.updates.get("train_tokens") == 2e9
    assert not any(k.startswith("rl_") for k in u.updates)


@pytest.mark.parametrize(("text", "objective"), [
    ("fine-tune llama 3 8b with DPO on 20k pairs", "dpo"), ("DPO on qwen3 8b, 1B tokens", "dpo"),
    ("GRPO on qwen3 8b then serve it to 50 users", "rl"), ("rl fine-tuning of qwen3 8b on 500M tokens", "rl"),
    ("用GRPO微调qwen3-8b", "rl"), ("qwen3-8b做DPO，两万组偏好数据", "dpo"), ("SFT qwen3 8b on 1B tokens", "sft"),
    ("full finetune of qwen2.5-72b on 2B tokens, no DPO", None)])
def test_one_stage_stays_one(text, objective):
    u = understand(text)
    assert u.updates.get("objective") == objective and "then_objective" not in u.ask, text


def test_the_lab_plan_sizes_the_fine_tune_and_names_the_dpo_after():
    reply, = run_conversation(["our lab owns 4 nodes of 8x a100 80gb. plan is full finetune of qwen2.5-72b on ~2B "
                               "tokens then DPO after. will it fit with zero3 and how long roughly?"])
    assert "**About 59.8 hours** on 32 × NVIDIA A100 SXM4 80GB." in reply.content
    assert "You plan DPO after the fine-tune" in reply.content and "with DPO" not in reply.content


def test_the_plan_in_chinese_names_the_rl_after():
    reply, = run_conversation(["实验室有两台8卡H100，先全参微调qwen3-8b，10亿token，然后再做GRPO，要多久"])
    assert "你打算微调之后再做强化学习" in reply.content and "小时" in reply.content
    assert "You plan" not in reply.content
