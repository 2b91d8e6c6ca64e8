"""The prompts of one RL step said in new ways are the step size, never the data set (review CI #2, #8): 'how long per
step at 512 prompts', '一个step 256个prompt', 'batch of 512 prompts per step', '20k prompts, 512 per step', '一步256条
prompt要多久'. A step's time asked ('how long per step', '一个step大概多久') leads the answer with that step's time at
the step size said, not a pass over prompts never said; a pass smaller than a step is one step of its own prompts."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.tools.rl import RlInput, rl_run
from tests.conversation import payload, run_states

HEAD = {"en": "GRPO on qwen2.5-7b, 8 samples per prompt, ", "zh": "用GRPO训qwen2.5-7b，每个prompt采样8条，"}
STEP = {
    "en": ["how long per step at {b} prompts", "batch of {b} prompts per step", "a step of {b} prompts",
           "each step is {b} prompts", "each step uses {b} prompts", "step batch {b}", "how long does a step of {b} prompts take",
           "{b} prompts per step", "per step with {b} prompts"],
    "zh": ["一个step {b}个prompt", "每个step用{b}条prompt", "每步{b}条", "一步{b}条prompt要多久", "每个step {b}个prompt"],
}
CASES = [(lang, form.format(b=b), b) for lang, forms in STEP.items() for form, b in itertools.product(forms, (256, 512))]


@pytest.mark.parametrize(("lang", "said", "b"), CASES)
def test_the_prompts_of_a_step_are_the_step_size_not_the_data(lang: str, said: str, b: int) -> None:
    u = understand(HEAD[lang] + said)
    assert u.updates.get("rl_prompts_per_step") == b, u.updates
    assert u.updates.get("rl_prompts") is None, u.updates


@pytest.mark.parametrize(("lang", "said", "b"), CASES)
def test_with_the_data_said_too_both_are_read(lang: str, said: str, b: int) -> None:
    data = "，一共两万条prompt" if lang == "zh" else ", 20k prompts in all"
    u = understand(HEAD[lang] + said + data)
    assert (u.updates.get("rl_prompts_per_step"), u.updates.get("rl_prompts")) == (b, 20_000), u.updates


@pytest.mark.parametrize("text", ["GRPO qwen 7b, 20k prompts, 512 per step", "GRPO qwen 7b, 20k prompts, 512 a step",
                                  "GRPO训qwen 7b，两万条prompt，每步512"])
def test_a_bare_count_a_step_beside_the_data_is_the_step(text: str) -> None:
    u = understand(text)
    assert (u.updates.get("rl_prompts_per_step"), u.updates.get("rl_prompts")) == (512, 20_000), u.updates


ASKED = {"en": ["how long per step", "how long does a step take", "whats the step time", "time per step?",
                "roughly how long per step at 512 prompts", "how long is each step"],
         "zh": ["一个step大概多久", "每步要多久", "一步大概要多长时间", "每个step多久"]}


@pytest.mark.parametrize(("lang", "asked"), [(lang, a) for lang, forms in ASKED.items() for a in forms])
def test_a_steps_time_asked_is_the_time_of_one_step(lang: str, asked: str) -> None:
    u = understand(HEAD[lang] + asked)
    assert u.updates.get("rl_steps") == 1 and "rl_run_steps" not in u.updates, u.updates


@pytest.mark.parametrize("text", ["GRPO qwen 7b, how long per 100 steps", "GRPO qwen 7b, 每100步要多久"])
def test_a_count_of_steps_asked_keeps_its_count(text: str) -> None:
    assert understand(text).updates.get("rl_steps") == 100


def test_a_run_said_in_steps_is_no_step_asked() -> None:
    u = understand("GRPO qwen 7b, train for 2000 steps")
    assert u.updates.get("rl_run_steps") == 2000 and "rl_steps" not in u.updates


# --- the answer: the step's time first, at the step size said ---------------------------------------------------

CI2 = {"en": "we have 3 nodes of 8x H100 80gb w/ IB. want to run GRPO w verl on qwen3-30b-a3b full param, 16 samples per "
             "prompt, responses up to eight thousand tokens, plus a 7b reward model. does it fit and roughly how long per "
             "step at {b} prompts",
       "zh": "我们有3台8卡H100 80G，IB互联，想用verl做GRPO，qwen3-30b-a3b全参，每个prompt采样16条，最长生成八千token，加一个7b的"
             "奖励模型，一个step {b}个prompt，放得下吗 一个step大概多久"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_answer_leads_with_the_time_of_a_step_of_the_prompts_said(lang: str) -> None:
    times = {}
    for b in (256, 512):
        state = run_states([CI2[lang].format(b=b)])[-1]
        profile, msg = state["profile"], state["messages"][-1]
        assert profile["rl_prompts_per_step"] == b and profile["rl_steps"] == 1 and profile["owned"] == ["24x h100-sxm"]
        rl = payload(msg)["results"]["recommend"]["best"]["rl"]
        first = msg.content.splitlines()
        lead = next(line for line in first if line.startswith("**") and ("hours a step" in line or "每步大约" in line))
        step_h = rl["step_seconds"] / 3600
        assert f"{step_h:.1f}" in lead and f"{b}" in lead and "24 × NVIDIA H100 SXM 80GB" in lead
        assert ("a step of 1,024" not in msg.content) and ("1,024 个提示词" not in msg.content)
        times[b] = rl["step_seconds"]
    assert times[256] < times[512] * 0.7  # half the prompts: well under the time (the step is sized at its size)


def test_a_pass_smaller_than_a_step_is_one_step_of_its_own_prompts() -> None:
    from gpu_advisor.assistant.rl_layout import step_prompts

    r = rl_run(RlInput(model="qwen2.5-7b", gpu="h100-sxm", gpus=8, method="lora", prompts=256))
    assert r.steps == 1 and r.step_seconds == pytest.approx(r.hours * 3600)
    assert step_prompts(r, 256, 1024) == 256  # 'a step of 256 prompts', never of 1,024 as long as the pass
    assert step_prompts(r, 20_000, 1024) == 1024
