"""PPO with an actor and a reward model (and a critic) is one RL job (review CA #7: '用openrlhf跑ppo，actor是qwen2.5-32b，
rm用7b的，实验室有俩台8卡a800，能跑吗？大概多久一轮' was sized as serving the 7B reward model, the 32B actor deferred).
The actor is the model trained; the reward model's BF16 weights sit on the training cards and score every sequence;
PPO's critic is the actor's size unless named (OpenRLHF's own default, the reward model, is said)."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.tools.rl import RlInput, rl_layouts
from tests.conversation import run_states

ACTOR = {"en": ["actor qwen2.5-32b", "policy is qwen2.5-32b", "qwen2.5-32b as the policy"],
         "zh": ["actor是qwen2.5-32b", "策略模型用qwen2.5-32b", "actor用qwen2.5-32b"]}
REWARD = {"en": ["reward model 7b", "rm is a 7b", "a 7b reward model", "qwen2.5-7b as the reward model", "rm: qwen2.5-7b"],
          "zh": ["rm用7b的", "奖励模型用7b", "奖励模型是qwen2.5-7b", "7b的奖励模型", "rm用qwen2.5-7b"]}
HEAD = {"en": "ppo with openrlhf, {a}, {r}", "zh": "用openrlhf跑ppo，{a}，{r}"}
HEAD_SWAPPED = {"en": "ppo with openrlhf, {r}, {a}", "zh": "用openrlhf跑ppo，{r}，{a}"}


def _cases() -> list[tuple[str, str, str]]:
    return [(lang, head[lang].format(a=a, r=r), "7B" if "qwen2.5-7b" not in r else "qwen2.5-7b")
            for lang in ("en", "zh") for head in (HEAD, HEAD_SWAPPED)
            for a, r in itertools.product(ACTOR[lang], REWARD[lang])]


@pytest.mark.parametrize(("lang", "text", "reward"), _cases())
def test_the_actor_is_trained_and_the_reward_model_has_its_role(lang: str, text: str, reward: str) -> None:
    u = understand(text, None)
    assert (u.updates.get("model"), u.updates.get("rl_reward_model")) == ("qwen2.5-32b", reward), u.updates
    assert (u.updates.get("phase"), u.updates.get("objective"), u.updates.get("rl_algorithm")) == \
        ("fine-tune", "rl", "ppo"), u.updates
    assert u.second is None  # one RL job, no second model served


@pytest.mark.parametrize(("text", "critic"), [("critic 用 7b", "7B"), ("价值模型也用7b", "7B"),
                                              ("critic is qwen2.5-7b", "qwen2.5-7b"), ("value model 14b", "14B")])
def test_a_critic_said_is_read(text: str, critic: str) -> None:
    u = understand("ppo on qwen2.5-32b, rm 7b, " + text, None)
    assert (u.updates.get("model"), u.updates.get("rl_reward_model"), u.updates.get("rl_critic_model")) == \
        ("qwen2.5-32b", "7B", critic), u.updates


def test_the_tool_counts_the_reward_model_and_the_critic() -> None:
    base = RlInput(model="qwen2.5-32b", gpu="a800-80gb-sxm", gpus=16, method="full", algorithm="ppo", prompts=10_000)
    plain = rl_layouts(base).colocate
    with_rm = rl_layouts(base.model_copy(update={"reward_model": "7B"})).colocate
    assert with_rm.reward_per_gpu_bytes == pytest.approx(with_rm.train_per_gpu_bytes - plain.train_per_gpu_bytes)
    assert 0.5e9 < with_rm.reward_per_gpu_bytes < 1.5e9  # 7B in BF16 over 16 cards: about 0.9 GB each
    assert not plain.fits and not with_rm.fits  # actor and a critic of 32B, full: more than 16 A800 hold
    light = rl_layouts(base.model_copy(update={"reward_model": "7B", "critic_model": "7B"})).colocate
    assert light.fits and light.train_per_gpu_bytes < with_rm.train_per_gpu_bytes
    assert 0 < light.reward_hours < light.update_hours < light.hours
    grpo = rl_layouts(base.model_copy(update={"algorithm": "grpo", "reward_model": "7B"})).colocate
    assert grpo.train_per_gpu_bytes < light.train_per_gpu_bytes  # no critic in GRPO


CA7 = {"zh": "用openrlhf跑ppo，actor是qwen2.5-32b，rm用7b的，实验室有俩台8卡a800，能跑吗？大概多久一轮",
       "en": "ppo with openrlhf, actor is qwen2.5-32b, rm is a 7b, our lab has two 8x a800 servers. can it run? "
             "roughly how long per epoch"}
WORDS = {"zh": ("强化学习微调", "PPO", "奖励模型（7B）", "--critic_pretrain", "用于推理服务"),
         "en": ("RL fine-tuning", "PPO", "the reward model (7B)", "--critic_pretrain", "for serving")}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_ca7_is_one_ppo_job_on_the_owned_a800s(lang: str) -> None:
    state = run_states([CA7[lang]])[-1]
    p, reply = state["profile"], state["messages"][-1].content
    assert (p["phase"], p["model"], p["objective"], p["rl_algorithm"]) == ("fine-tune", "qwen2.5-32b", "rl", "ppo")
    assert p["rl_reward_model"] == "7B" and p["owned"] == ["16x a800-80gb-sxm"]
    rl, ppo, reward, critic_note, serving = WORDS[lang]
    assert rl in reply and ppo in reply and reward in reply and critic_note in reply
    assert serving not in reply
    rec = state["results"]["recommend"]
    run = (rec.get("training_run") or rec["best"])
    assert run["owned"] and run["gpu"] == "a800-80gb-sxm" and run["rl"]["fits"]
    assert run["rl"]["reward_per_gpu_bytes"] > 0 and run["training_hours"] > 0
    # full fine-tuning with a 32B critic does not fit the 16 cards: the reply says what does
    assert p["method"] in ("lora", "qlora")


@pytest.mark.parametrize(("lang", "later"), [("zh", "价值模型用 7B"), ("en", "critic is a 7b")])
def test_a_7b_critic_said_later_lets_full_fine_tuning_fit(lang: str, later: str) -> None:
    state = run_states([CA7[lang], later])[-1]
    p, reply = state["profile"], state["messages"][-1].content
    assert (p["rl_critic_model"], p["method"]) == ("7B", "full"), p
    rec = state["results"]["recommend"]
    run = rec.get("training_run") or rec["best"]
    assert run["owned"] and run["gpus"] == 16 and run["rl"]["fits"]
    assert ("--critic_pretrain" not in reply) and ("价值模型（7B）" in reply if lang == "zh" else "a critic (7B)" in reply)
