"""Merge interactions mended in session 13 (mend3): a group of outputs per prompt is no output length; a greeting
or filler before a size is no Chinese model name."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand


@pytest.mark.parametrize("text", ["grpo qwen 7b, 8 outputs per prompt", "GRPO on qwen 7b with 8 outputs each",
                                  "ppo qwen 7b, 8 outputs per question"])
def test_outputs_per_prompt_are_the_group_not_tokens(text):
    u = understand(text)
    assert u.updates.get("rl_samples") == 8 and u.updates.get("rl_completion_tokens") != 8


@pytest.mark.parametrize("filler", ["请问", "你好，", "麻烦问一下", "老师好", "想问下", "谢谢"])
@pytest.mark.parametrize("model", ["8B模型", "70b"])
def test_a_filler_before_a_size_is_no_model_name(filler, model):
    u = understand(f"{filler}{model}写法律文书效果怎么样")
    assert u.unknown_model is None and "quality" in u.intents and "model" not in u.updates


@pytest.mark.parametrize("filler", ["请问", "麻烦问一下", "老师好", "想问下"])
def test_a_chinese_name_after_a_filler_is_still_the_name(filler):
    u = understand(f"{filler}盘古星河-38B写法律文书效果怎么样")
    assert u.unknown_model == "盘古星河-38B"


@pytest.mark.parametrize("text", [
    "what is a kv cache? also for llama 3.1 8b with 32k context, how big is the kv cache for a single user",
    "what's the kv cache? and also how big is the kv cache for one user of llama 3.1 8b at 32k context",
    "kv cache是什么？另外llama 3.1 8b 32k上下文，单个用户的kv cache要多少显存"])
def test_the_kv_concept_then_its_figure_is_one_question(text):
    from tests.conversation import payload, run_conversation

    reply = run_conversation([text])[-1]
    kv = payload(reply)["results"]["kv_cache"]
    assert kv["per_user_bytes"] == 128 * 1024 * 32768 and kv["users"] == 1


@pytest.mark.parametrize("text", ["家里想跑qwen3 14b，顺便试试llama 3.1 8b，自己玩，二手也行",
                                  "自己在家玩，想跑qwen3 14b，顺便跑跑llama 3.1 8b，二手卡也可以",
                                  "at home, just me: run qwen3 14b, and also try llama 3.1 8b, used is fine"])
def test_a_second_model_tried_on_the_side_is_one_home_plan(text):
    from tests.conversation import payload, run_states

    d = payload(run_states([text])[0]["messages"][-1])["decision"]
    assert d["model"] == "qwen3-14b" and d["action"] == "buy", d


@pytest.mark.parametrize("text", ["A100能跑FP8吗", "A100上能跑FP8吗", "can the a100 even run fp8?", "H20支持fp8吗"])
def test_a_card_asked_to_run_a_format_is_a_support_question(text):
    assert "card_support" in understand(text).intents


@pytest.mark.parametrize("text", ["fp8能跑吗 h20支持吗", "FP8能跑吗，H20支持吗", "fp8能不能跑 h20支持吗",
                                  "int8能跑吗 H20支持吗"])
def test_a_format_asked_to_run_before_the_card_is_the_plans_fit(text):
    u = understand(text)
    assert "fit_check" in u.intents and "card_support" not in u.intents
