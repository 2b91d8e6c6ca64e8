"""The figures of an RL fine-tune said in a later turn are that run's prompts, group and completion length, never an
offline batch job over as many items (review BR C10: '好的：离线批处理任务' and the counts asked again; '10k prompts, 8
samples each' was sized as 80,000 prompts)."""

from __future__ import annotations

import pytest

from tests.conversation import run_states

FIRST = {"en": "grpo qwen2.5 7b on math with verl, how many h100s to finish in 3 days",
         "zh": "想用GRPO训qwen2.5 7b做数学推理 用verl框架 大概要几张H100 三天内训完"}
LATER = [("en", "10k prompts, 8 samples each, answers around 2k tokens"),
         ("en", "about 10,000 prompts, 8 rollouts per prompt, responses up to 2k"),
         ("zh", "prompt大概一万条 每条采样8个 回答长度两千token左右"),
         ("zh", "一万条prompt，每个prompt采样8条，最长生成2k")]


@pytest.mark.parametrize(("lang", "text"), LATER)
def test_later_rl_figures_fill_the_rl_run(lang: str, text: str) -> None:
    state = run_states([FIRST[lang], text])[-1]
    p = state["profile"]
    assert (p["phase"], p["objective"]) == ("fine-tune", "rl")
    assert (p["rl_prompts"], p["rl_samples"], p["rl_completion_tokens"]) == (10_000, 8, 2_048 if "2k" in text else 2_000), p  # a token length's 'k' is 1,024 (h-rl3: '8k' responses are 8,192 tokens)
    assert not p.get("batch_items")
    reply = state["messages"][-1].content
    assert "80,000" not in reply and "离线批处理" not in reply
