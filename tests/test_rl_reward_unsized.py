"""PPO with its four models named and no reward-model size (review CF #10): the reward model taken as the policy's
size (said), sized with the others, and all the owned servers used when one holds the run only just."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.reading.rl_models import POLICY_SIZED
from tests.conversation import payload, run_states

ASKED = {
    "zh": ["手上两台H800 8卡的机器，想用PPO训qwen2.5-32b，rollout长度8k，actor critic reward ref 四个模型都要放，够不够，用openrlhf",
           "我们有两台8卡H800，openrlhf跑PPO，qwen2.5-32b，回答长度8k，奖励模型也要放进去，够吗"],
    "en": ["we have two 8x H800 servers, want PPO on qwen2.5-32b with openrlhf, rollouts up to 8k, actor critic reward "
           "and ref models all need to fit, is it enough?",
           "we own two servers of 8 h800, ppo on qwen2.5-32b with openrlhf, 8k rollouts, plus a reward model. enough?"],
}
ASSUMED = {"en": "the reward model taken as the policy's size (Qwen2.5 32B", "zh": "奖励模型按和策略模型一样大算（Qwen2.5 32B"}
NOT_MODELLED = {"en": "not modelled: a reward model", "zh": "没有建模：奖励模型"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_reward_model_is_the_policys_size_on_both_servers(lang: str) -> None:
    for text in ASKED[lang]:
        state = run_states([text])[-1]
        reply = state["messages"][-1]
        rec = payload(reply)["results"]["recommend"]
        assert state["profile"]["rl_reward_model"] == "qwen2.5-32b" and rec["workload"]["rl_reward_model"] == "qwen2.5-32b"
        assert "rl_reward_model" in state["defaulted"], text  # an assumption, not something said
        best = rec["best"]
        assert best["owned"] and best["gpus"] == 16, (text, best["gpus"])  # both servers, not one of them
        rl = best["rl"]
        assert rl["fits"] and rl["reward_per_gpu_bytes"] > 3e9 and rl["reward_hours"] > 0, rl
        content = str(reply.content)
        assert ASSUMED[lang] in content and NOT_MODELLED[lang] not in content, content
        assert "--critic_pretrain" not in content  # no lighter critic to offer from a reward model of the same size


@pytest.mark.parametrize(("text", "want"), [
    ("ppo on qwen2.5 7b with a reward model, 8x a100", POLICY_SIZED),
    ("ppo qwen2.5 7b with actor, critic, reward and reference models on 8 h100", POLICY_SIZED),
    ("ppo训qwen2.5-7b，actor critic reward ref都要放，8卡a100", POLICY_SIZED),
    ("ppo on qwen2.5 7b, rule-based reward, 8x a100", None),
    ("grpo on qwen2.5 7b, no reward model, verifier rewards, 8x a100", None),
    ("ppo qwen2.5-32b, rm用7b的, 两台h800", "7B"),
])
def test_the_reward_model_read(text: str, want: str | None) -> None:
    assert understand(text).updates.get("rl_reward_model") == want


def test_a_size_said_later_replaces_the_assumption() -> None:
    states = run_states([ASKED["en"][0], "the rm is 7b"])
    assert states[0]["profile"]["rl_reward_model"] == "qwen2.5-32b"
    assert states[-1]["profile"]["rl_reward_model"] == "7B" and "rl_reward_model" not in states[-1]["defaulted"]


def test_one_server_that_holds_it_with_room_stays_one_server() -> None:
    state = run_states(["we have two 8x H800 servers, GRPO on qwen2.5-7b with verl, 4k rollouts. enough?"])[-1]
    best = payload(state["messages"][-1])["results"]["recommend"]["best"]
    assert best["owned"] and best["gpus"] == 8 and best["headroom_fraction"] >= 0.10, best
