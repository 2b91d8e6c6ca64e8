"""An unknown release of a family the catalog holds ('minimax-m3', 'deepseek-v5', 'kimi k3', 'qwen4-8b'; review CO
C4, where 'not sure' then sized Llama 3.1 8B): sized as that family's record of the size named, else its newest
record, and said so; never a model of another family, never dropped. A line the catalog holds ('llama 4', 'gemma 3')
is asked as before. A labelling job's input length is no RL prompt length."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import find_model
from gpu_advisor.knowledge.name_shapes import family_record
from tests.conversation import run_conversation

NEW = {"minimax-m3": "minimax-m2", "MiniMax-M3": "minimax-m2", "deepseek-v5": "deepseek-v3.2",
       "deepseek v5": "deepseek-v3.2", "DeepSeek-V4": "deepseek-v3.2", "kimi k3": "kimi-k2", "Kimi-K3": "kimi-k2",
       "glm-5": "glm-4.6", "llama 5": "llama-4-maverick", "Llama-5": "llama-4-maverick", "phi 5": "phi-4"}
SIZED = {"qwen4-8b": "qwen3-8b", "qwen4-32b": "qwen3-32b", "llama-5-70b": "llama-3.3-70b", "gemma-4-27b": "gemma-3-27b"}
TEMPLATES = ["serve {m} to 100 users", "{m} on 8 h200, how many users", "can {m} run on 2 h100?",
             "我们想部署{m}给100人用", "用 {m} 给一百万条评论打标签，租什么卡最省钱", "{m}推理要几张卡"]


@pytest.mark.parametrize(("name", "template"), itertools.product([*NEW, *SIZED], TEMPLATES))
def test_an_unknown_release_is_its_family_said(name, template):
    u = understand(template.format(m=name))
    expected = {**NEW, **SIZED}[name]
    assert u.updates.get("model") == expected and u.unknown_model is None
    code = "note.model_closest" if name in SIZED else "note.model_family_stand_in"
    assert (code, {"typed": name, "base": find_model(expected).name}) in u.notes


@pytest.mark.parametrize("text", ["serve llama 3 8b to 5 users", "deepseek v3 on 8 h200", "llama 4 on h100",
                                  "gemma 3 on my 4090", "deepseek api price vs h100", "qwen 3 on 2 gpus",
                                  "llama 3.3 70b for 20 users"])
def test_a_name_or_line_on_record_is_no_stand_in(text):
    assert not any(code == "note.model_family_stand_in" for code, _v in understand(text).notes)


@pytest.mark.parametrize("name", ["falcon-h9", "zephyrion-40b", "acme-7"])
def test_no_family_on_record_gives_no_record(name):
    assert family_record(name) is None


def test_the_unknown_release_in_a_labelling_job_is_sized_as_its_family():
    reply, = run_conversation(["下周三前要用 MiniMax-M3 把一百万条客服对话打标签，每条输入约1500 token，租什么卡最省钱"])
    assert "先按记录里这个系列最新的模型 MiniMax-M2 (230B-A10B) 测算" in reply.content
    assert "1,000,000 条 × 输入 1,500 token" in reply.content and "每个 prompt" not in reply.content


@pytest.mark.parametrize(("text", "tokens"), [("每条输入约1500 token，一百万条，离线批量打标签", None),
                                              ("batch job: 1M docs, prompts of about 2k tokens each", None),
                                              ("GRPO on qwen3 8b, prompts of about 2k tokens", 2048)])
def test_an_input_length_is_an_rl_prompt_length_only_in_rl(text, tokens):
    assert understand(text).updates.get("rl_prompt_tokens") == tokens
