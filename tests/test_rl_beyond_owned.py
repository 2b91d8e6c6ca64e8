"""GRPO with every weight trained on a model the cluster you own cannot hold (review BU #5: Qwen3-235B on the lab's
H100s, 'full fine-tune, not lora', and 'how long per 1000 steps' never answered): the fewest of the same card that
hold it, beside yours (bought) or rented, and LoRA/QLoRA on yours, each with a step's time and the time of the steps
asked about (that many steps times one step's)."""

from __future__ import annotations

import re

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.tools.rl import RlInput, fewest_rl_gpus, rl_run
from tests.conversation import run_states

ASK = {"en": ["our lab owns 16 H100s (2 nodes, IB between them). want to do GRPO on Qwen3-235B-A22B for math reasoning, "
              "rollouts up to 16k tokens. does it fit and roughly how long per {n} steps",
              "we own 16x H100 (two 8-GPU nodes with InfiniBand), GRPO Qwen3-235B-A22B with verl, 16k max response. "
              "how long do {n} steps take?"],
       "zh": ["实验室有16张H100（两台8卡机器，IB互联），想用GRPO训练Qwen3-235B-A22B做数学推理，回答最长16k，能跑吗，每{n}步要多久",
              "我们自己有16张H100，两台8卡服务器，IB互联，用verl跑GRPO训Qwen3-235B-A22B，最长回答16k，跑{n}步大概多久"]}
FULL = {"en": "full fine-tune, not lora", "zh": "要全参，不用lora"}
WORDS = {"en": ("Full fine-tuning on NVIDIA H100 SXM 80GB", "on your own 16 × NVIDIA H100 SXM 80GB", "steps about"),
         "zh": ("在 NVIDIA H100 SXM 80GB 上全参微调", "用你自己的 16 × NVIDIA H100 SXM 80GB 做", "步约")}


@pytest.mark.parametrize("text", ["roughly how long per 1000 steps", "每1000步要多久", "跑1000步大概多久", "how long do 1k steps take",
                                  "1000 training steps?"])
def test_the_steps_asked_are_read(text: str):
    assert understand(text).updates.get("rl_steps") == 1000


@pytest.mark.parametrize(("lang", "first"), [(lang, t) for lang, ts in ASK.items() for t in ts])
@pytest.mark.parametrize("steps", [1000, 500])
def test_full_beyond_your_cluster_and_adapters_on_it(lang: str, first: str, steps: int):
    states = run_states([first.format(n=steps), FULL[lang]])
    p, reply = states[-1]["profile"], states[-1]["messages"][-1].content
    assert (p["method"], p["rl_steps"], p["rl_completion_tokens"]) == ("full", steps, 16_384), p  # a token length's 'k' is 1,024 (h-rl3: '8k' responses are 8,192 tokens)
    full, adapters, _per = WORDS[lang]
    assert full in reply and adapters in reply, reply
    line = next(x for x in reply.splitlines() if full in x)
    m = int(re.search(r"(\d[\d,]*) × NVIDIA H100", line)[1].replace(",", ""))
    assert m > 16 and m % 8 == 0  # whole servers beyond yours
    r = fewest_rl_gpus(RlInput(model="qwen3-235b-a22b", gpu="h100-sxm", gpus=16, method="full", prompts=10_000,
                               completion_tokens=16_384, framework=p["framework"]), 8, 256)
    assert r is not None
    fit = r.split if r.pays == "split" and r.split is not None else r.colocate
    assert m == fit.rollout_gpus + fit.train_gpus if fit.layout == "split" else m == fit.train_gpus
    assert f"{steps:,} {'steps about' if lang == 'en' else '步约'} {fit.step_seconds * steps / 3600:,.0f}" in line


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_steps_asked_are_timed_on_the_plan(lang: str):
    state = run_states([ASK[lang][0].format(n=1000)])[-1]
    reply = state["messages"][-1].content
    assert WORDS[lang][2] in reply
    # the plan on your cards leaves full fine-tuning (it does not fit): where it would fit is said beside it
    assert WORDS[lang][0] in reply


def test_a_cluster_that_holds_the_full_run_gets_no_such_lines():
    states = run_states(["we own 16 H100s (two nodes of 8, IB between them), GRPO on Qwen3-30B-A3B, full fine-tune, "
                         "how long per 1000 steps"])
    reply = states[-1]["messages"][-1].content
    assert "Full fine-tuning on" not in reply and "1,000 steps about" in reply


def test_fewest_cards_is_none_past_the_most():
    inp = RlInput(model="qwen3-235b-a22b", gpu="rtx-4090", gpus=8, method="full", prompts=10_000)
    assert fewest_rl_gpus(inp, 8, 64) is None
    assert not rl_run(inp).fits
