"""An RL fine-tune with no method named takes full fine-tuning where it fits the cards (verl, OpenRLHF and TRL's
GRPOTrainer train every weight unless a LoRA rank is set: knowledge frameworks.yaml default_method), said as an
assumption; LoRA, then QLoRA, only when full does not fit (review BV #10: a lab's 8 x A100 40G and Qwen2.5-7B
assumed QLoRA; review BS #3: verl on the same cards)."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.rl_turn import rl_method
from gpu_advisor.tools.training import find_framework
from tests.conversation import run_states

FITS = {"en": ["we have 8x a100 40gb in our lab and want to GRPO train qwen2.5 7b{fw} on math. can we?",
               "need to GRPO train qwen2.5 7b{fw} on math, rollouts 8 per prompt, max len 2k. have 1 node 8x a100 40gb."
               " enough?"],
        "zh": ["我们实验室有8张A100 40G，想{fw}GRPO训练qwen2.5 7b做数学推理，能跑吗",
               "实验室自己有8张A100 40G，打算{fw}GRPO训qwen2.5 7b，每个prompt采样8条，能跑吗"]}
FRAMEWORKS = {"en": [("", None), (" with verl", "verl"), (" with openrlhf", "openrlhf"), (" with trl", "trl-grpo")],
              "zh": [("用", None), ("用verl跑", "verl"), ("用OpenRLHF跑", "openrlhf"), ("用TRL跑", "trl-grpo")]}
WORDS = {"en": ("full fine-tuning, every weight trained", "it fits on 8 × NVIDIA A100 SXM4 40GB"),
         "zh": ("全参微调，所有权重都训练", "8 × NVIDIA A100 SXM4 40GB 放得下")}


@pytest.mark.parametrize(("lang", "text", "fw", "framework"),
                         [(lang, t, f, fid) for lang in FITS for t in FITS[lang] for f, fid in FRAMEWORKS[lang]])
def test_full_where_it_fits_said_as_the_assumption(lang: str, text: str, fw: str, framework: str | None):
    state = run_states([text.format(fw=fw)])[-1]
    p, reply = state["profile"], state["messages"][-1].content
    assert (p["objective"], p["method"], p["framework"]) == ("rl", "full", framework), p
    full, fits = WORDS[lang]
    assert full in reply and fits in reply, reply
    assert "QLoRA" not in reply.split("\n")[0]
    if framework:  # the framework named says whose default it is
        assert find_framework(framework).name in reply


@pytest.mark.parametrize(("model", "cards", "completion", "method"), [
    ("qwen2.5-7b", ["8x a100-40gb"], None, "full"), ("qwen2.5-72b", ["8x a100-40gb"], None, "qlora"),
    ("qwen3-235b-a22b", ["16x h100-sxm"], None, "lora"), ("qwen3-235b-a22b", ["16x h100-sxm"], 16_000, "qlora"),
    ("qwen2.5-7b", None, None, "full")])
def test_the_first_method_that_fits_the_cards(model: str, cards: list[str] | None, completion: int | None, method: str):
    p = {"model": model, "owned": cards, "objective": "rl", "phase": "fine-tune", "rl_completion_tokens": completion}
    assert rl_method(p)[0] == method


@pytest.mark.parametrize(("text", "framework"), [("用verl跑GRPO训qwen2.5 7b", "verl"), ("GRPO with trl on qwen2.5 7b", "trl-grpo"),
                                                 ("openrlhf ppo on llama 3 8b", "openrlhf"), ("GRPOTrainer, qwen3 8b", "trl-grpo"),
                                                 ("sft with trl on qwen3 8b", "hf-trainer")])
def test_rl_frameworks_are_on_record(text: str, framework: str):
    assert understand(text).updates.get("framework") == framework
    expected = "full" if framework != "hf-trainer" else None
    assert find_framework(framework).default_method == expected


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_with_such_a_framework_the_method_is_not_asked(lang: str):
    text = {"en": "GRPO with verl on Qwen3-30B-A3B, we own 16 H100s (two nodes of 8, IB between them)",
            "zh": "用verl跑GRPO训Qwen3-30B-A3B，我们自己有16张H100（两台8卡机器，IB互联）"}[lang]
    state = run_states([text])[-1]
    assert state["profile"]["method"] == "full"
    assert "QLoRA (4-bit)" not in str(state["messages"][-1].additional_kwargs.get("choices"))
