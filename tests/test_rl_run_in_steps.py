"""An RL job said in steps is costed per job, not per pass (review CA #2: '~2000 steps, budget 30k usd to rent' showed
'≈ $109 rented' for one pass and 'within your $30,000' while its own text said 2,000 steps take about 200 h). The run's
hours and price are steps × a step's time × the hourly price: what the table, the budget and the ranking weigh. A step's
size is read ('batch size 256 prompts', 'rollout batch 512', '每步256条') and said as an assumption when not said."""

from __future__ import annotations

import itertools
import re

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.tools.rl import PROMPTS_PER_STEP, RlInput, rl_run
from tests.conversation import run_states

RUN_EN = ["~{n} steps", "about {n} steps", "train for {n} steps", "{n} training steps total", "a run of {n} steps"]
RUN_ZH = ["大概{n}步", "一共跑{n}步", "总共训练{n}步", "跑{n}个step"]
RATE = ["how long per {n} steps", "roughly how long do {n} steps take", "每{n}步要多久", "跑{n}步大概多久"]
STEP_EN = ["batch size {b} prompts", "rollout batch {b}", "train_batch_size={b}", "{b} prompts per step",
           "rollout_batch_size {b}"]
STEP_ZH = ["每步{b}条", "每步{b}个prompt", "每个step {b}个prompt"]
HEAD = {"en": "GRPO on qwen3 8b with verl, group size 8, {x}", "zh": "用verl跑GRPO训qwen3 8b，每个prompt采样8条，{x}"}


@pytest.mark.parametrize(("lang", "words", "n"), [(lang, w, n) for lang, ws in (("en", RUN_EN), ("zh", RUN_ZH))
                                                  for w in ws for n in (500, 2000)])
def test_the_run_said_in_steps_is_read_as_the_run(lang: str, words: str, n: int) -> None:
    u = understand(HEAD[lang].format(x=words.format(n=n)), None)
    assert (u.updates.get("rl_run_steps"), u.updates.get("rl_steps")) == (n, None), u.updates


@pytest.mark.parametrize(("words", "n"), itertools.product(RATE, (1000, 500)))
def test_a_time_asked_per_steps_is_no_run_length(words: str, n: int) -> None:
    u = understand(words.format(n=n), None)
    assert (u.updates.get("rl_steps"), u.updates.get("rl_run_steps")) == (n, None), u.updates


@pytest.mark.parametrize(("lang", "words", "b"), [(lang, w, b) for lang, ws in (("en", STEP_EN), ("zh", STEP_ZH))
                                                  for w in ws for b in (256, 512)])
def test_a_step_size_is_read_and_is_no_count_of_prompts(lang: str, words: str, b: int) -> None:
    u = understand(HEAD[lang].format(x=words.format(b=b)) + ("，一万条prompt" if lang == "zh" else ", 10k prompts"), None)
    assert u.updates.get("rl_prompts_per_step") == b, u.updates
    assert u.updates.get("rl_prompts") == 10_000, u.updates


def test_the_tool_costs_the_steps_said_not_a_pass() -> None:
    base = RlInput(model="qwen2.5-32b", gpu="h100-sxm", gpus=16, method="full", prompts=10_000, completion_tokens=4096)
    one = rl_run(base.model_copy(update={"prompts": PROMPTS_PER_STEP}))  # one step's work, as a pass
    run = rl_run(base.model_copy(update={"steps": 2000}))
    assert run.run_steps == 2000 and run.steps == 2000
    assert run.hours == pytest.approx(one.hours * 2000) and run.usd == pytest.approx(one.usd * 2000)
    assert run.step_seconds == pytest.approx(one.hours * 3600)
    small = rl_run(base.model_copy(update={"steps": 2000, "prompts_per_step": 256}))
    assert small.step_seconds < run.step_seconds / 3  # a quarter of the prompts: about a quarter of the time
    assert small.usd == pytest.approx(small.hours / run.hours * run.usd)


CA2 = {"en": "planning GRPO w/ verl on qwen2.5 32b, group size 8, max resp len 4096, {x}~2000 steps. budget is "
             "{budget} usd to rent. what setup should we get",
       "zh": "打算用verl跑GRPO，模型qwen2.5 32b，每个prompt采样8条，最大回复长度4096，{x}大概2000步，预算{budget}美元租卡，该怎么配"}
STEP_SAID = {"en": "batch size 256 prompts, ", "zh": "每步256条，"}


def _money(text: str) -> float:
    return float(re.sub(r"[^\d.]", "", text))


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("step", [False, True])
def test_the_budget_weighs_the_whole_run(lang: str, step: bool) -> None:
    state = run_states([CA2[lang].format(x=STEP_SAID[lang] if step else "", budget="1000000")])[-1]
    p, reply = state["profile"], state["messages"][-1].content
    assert (p["rl_run_steps"], p["rl_prompts_per_step"]) == (2000, 256 if step else PROMPTS_PER_STEP), p
    rec = state["results"]["recommend"]
    best = rec.get("training_run") or rec["best"]
    r = best["rl"]
    assert r["run_steps"] == 2000
    assert best["training_hours"] == pytest.approx(r["step_seconds"] * 2000 / 3600, rel=1e-6)
    # the table's hours per run are the 2,000 steps', never a pass's
    row = next(x for x in reply.splitlines() if x.startswith(f"| {best['gpus']} × "))
    assert f"| {best['training_hours']:,.0f} |" in row, row
    said = "for the run of 2,000 steps" if lang == "en" else "整个训练（2,000 步）"
    assert said in reply and ("h per pass" not in reply and "每轮约" not in reply)
    step_words = "a step of {n} prompts" if lang == "en" else "每一步 {n} 个提示词"
    assert step_words.format(n="256" if step else "1,024") in reply


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_budget_the_run_outgrows_is_said_over(lang: str) -> None:
    """CA #2 itself: 2,000 steps of 1,024 prompts × 8 × 4,096 tokens on a 32B cost far more than $30,000 on any card:
    the answer says the budget is short, never 'within your $30,000' for one pass."""
    state = run_states([CA2[lang].format(x="", budget="30000" if lang == "en" else "3万")])[-1]
    reply = state["messages"][-1].content
    assert ("within your" not in reply) if lang == "en" else ("没有超出" not in reply)
    costs = [_money(x) for x in re.findall(r"\| \$([\d,]+)", reply) + re.findall(r"\(\$([\d,]+)\)", reply)]
    assert costs and min(c for c in costs if c != 30_000) > 30_000, costs  # every run priced (the budget aside) is over it


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_step_size_assumed_is_said(lang: str) -> None:
    reply = run_states([HEAD[lang].format(x="~500 steps") + (", on 8x h100" if lang == "en" else "，8张h100")])[-1][
        "messages"][-1].content
    assert ("a step of 1,024 prompts (the train batch" if lang == "en" else "每步 1,024 个提示词（verl") in reply
