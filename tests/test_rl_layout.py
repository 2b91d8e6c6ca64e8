"""Online RL split from the trainer (OpenRLHF, verl with separate pools, TRL vllm_mode="server") against colocated
(TRL colocate, verl's hybrid engine): the rollout cards and the training cards are sized apart, a step is their sum
when synchronous and the slower of them when pipelined (plus the weight sync), and the answer says which layout pays
on the cards at hand, with the figure that says why."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.tools.common import ToolError
from gpu_advisor.tools.recommend import Workload, recommend
from gpu_advisor.tools.rl import RlInput, rl_layouts, rl_run
from tests.conversation import payload, run_conversation

H100 = RlInput(model="qwen2.5-7b", gpu="h100-sxm", gpus=8, method="lora", prompts=10_000, rollout_gpus=4)
R4090 = RlInput(model="qwen2.5-7b", gpu="rtx-4090", gpus=4, method="lora", prompts=10_000, pipelined=True)


def test_a_synchronous_split_step_is_rollouts_plus_update_plus_sync():
    r = rl_run(H100.model_copy(update={"layout": "split"}))
    assert r.fits and (r.rollout_gpus, r.train_gpus, r.engine_tp) == (4, 4, 1)
    assert r.hours == pytest.approx(r.rollout_hours + r.update_hours + r.sync_hours)
    assert r.hours == pytest.approx(1.79, abs=0.01) and r.steps == 10  # ceil(10,000 / 1,024) steps
    assert r.step_seconds == pytest.approx(644, abs=2)
    # the sync: one BF16 copy (15.2 GB) over NVLink (450 GB/s one way) after each step
    assert r.sync_hours * 3600 / r.steps == pytest.approx(15.2e9 / 450e9, rel=0.02)
    # the rollout cards hold only the engine: a whole 256 rollouts in flight per copy
    assert r.rollouts_in_flight == 256 and r.train_per_gpu_bytes < r.capacity_bytes


def test_a_pipelined_split_step_is_the_slower_side_plus_sync():
    r = rl_run(H100.model_copy(update={"layout": "split", "pipelined": True}))
    assert r.hours == pytest.approx(max(r.rollout_hours, r.update_hours) + r.sync_hours)
    assert r.hours == pytest.approx(1.38, abs=0.01)  # the update on 4 cards sets the pace


def test_colocated_pays_for_a_small_model_on_eight_h100s():
    lay = rl_layouts(H100)
    assert lay.pays == "colocate" and lay.colocate.hours == pytest.approx(0.89, abs=0.01)
    assert lay.ratio == pytest.approx(2.0, abs=0.05)  # the synchronous split: each side idles half the time


def test_split_pays_where_the_colocated_engine_is_starved_of_memory():
    lay = rl_layouts(R4090)
    # four 4090s: beside LoRA's training state the colocated engine keeps 12 rollouts in flight; one card of its
    # own keeps 116, and three cards train while it generates
    assert lay.pays == "split" and lay.ratio == pytest.approx(2.10, abs=0.02)
    assert lay.colocate.rollouts_in_flight == 12 and lay.split.rollouts_in_flight == 116
    assert (lay.split.rollout_gpus, lay.split.train_gpus) == (1, 3)
    assert lay.split.hours == pytest.approx(7.95, abs=0.02) and lay.colocate.hours == pytest.approx(16.72, abs=0.02)
    assert any("weight sync to the rollout cards goes over PCIe" in w for w in lay.split.warnings)


@pytest.mark.parametrize(("update", "message"), [({"gpus": 1}, "at least 2 cards"),
                                                 ({"rollout_gpus": 8}, "leave none for the trainer")])
def test_a_split_that_cannot_be_made_is_refused_in_one_line(update, message):
    with pytest.raises(ToolError, match=message):
        rl_run(H100.model_copy(update={"layout": "split", **update}))


def test_one_card_has_only_the_colocated_layout():
    lay = rl_layouts(H100.model_copy(update={"gpus": 1, "rollout_gpus": None}))
    assert lay.split is None and lay.pays == "colocate"


EN = ["GRPO on qwen2.5 7b with 8 H100s, {n} for rollouts", "GRPO on qwen2.5 7b, 8 h100s, {n} cards for generation",
      "PPO on qwen2.5 7b with 8 H100s: {n} GPUs for the rollouts, the rest train"]
ZH = ["用verl对qwen2.5 7b做GRPO，8张H100，{n}张卡做rollout", "qwen2.5 7b做GRPO，8张H100里{n}张做生成"]


@pytest.mark.parametrize(("form", "n"), list(itertools.product(EN + ZH, (2, 4, 6))))
def test_the_rollout_cards_are_read_as_a_split(form, n):
    u = understand(form.format(n=n), None).updates
    assert u.get("objective") == "rl" and u.get("rl_layout") == "split" and u.get("rl_rollout_gpus") == n, u


@pytest.mark.parametrize(("text", "layout", "pipelined"), [
    ("用verl做GRPO，rollout和训练分开放", "split", None),
    ("用GRPO训练qwen3 8b，生成和训练分开部署，异步", "split", True),
    ("GRPO with TRL, vllm_mode=\"server\"", "split", None),
    ("PPO with OpenRLHF, rollouts on separate GPUs, async", "split", True),
    ("GRPO on qwen3 8b, rollouts and training on separate cards, pipelined", "split", True),
    ("GRPO on qwen3 8b with TRL, colocated", "colocate", None),
    ("verl GRPO with the hybrid engine on qwen3 8b", "colocate", None),
    ("GRPO on qwen3 8b, 10k prompts", None, None),
])
def test_the_layout_is_read_in_either_language(text, layout, pipelined):
    u = understand(text, None).updates
    assert u.get("rl_layout") == layout and u.get("rl_pipelined") == pipelined, u


def test_recommend_runs_the_layout_named_and_keeps_the_other_for_the_verdict():
    w = Workload(phase="fine-tune", model="qwen2.5-7b", objective="rl", method="lora", rl_prompts=10_000,
                 owned=["8x h100-sxm"], rl_rollout_gpus=4)
    best = recommend(w).best
    assert best is not None and best.rl is not None and best.rl_layouts is not None
    assert best.rl.layout == "split" and best.rl.rollout_gpus == 4 and best.rl_layouts.pays == "colocate"
    assert best.job_hours == pytest.approx(1.79, abs=0.01)
    free = recommend(w.model_copy(update={"rl_rollout_gpus": None, "owned": ["4x rtx-4090"], "rl_pipelined": True}))
    assert free.best is not None and free.best.rl is not None and free.best.rl.layout == "split"


@pytest.mark.parametrize(("turns", "said"), [
    (["GRPO on qwen2.5 7b with 10k prompts, lora, on our 8 H100s, 4 for rollouts"],
     ["split: 4 GPUs run the rollout engine", "4 GPUs train", "synchronous: the rollouts, then the update",
      "**Colocated or split:** on these 8 GPUs, colocated pays: 0.9 h a pass against 1.8 h split (4 for rollouts, "
      "4 for training), 2.0× slower", "vLLM on cards of its own generates", "4 GPUs for the rollouts"]),
    (["用verl对qwen2.5 7b做GRPO，1万条prompt，LoRA，我们有4张4090，rollout和训练分开放，异步"],
     ["生成和训练分开放：1 张 GPU 跑生成引擎", "流水执行", "**同卡还是分开：** 这 4 张 GPU 上分开更划算：1 张生成、3 张训练，"
      "每轮 8.0 小时，同卡部署要 16.7 小时，快 2.1 倍", "同时跑 116 个回答", "只有 12 个", "没有 NVLink：把权重同步到生成用的卡要走 PCIe"]),
])
def test_the_answer_says_which_layout_pays_and_why(turns, said):
    reply = run_conversation(turns)[-1]
    assert payload(reply)["kind"] == "answer"
    for s in said:
        assert s in reply.content, s
