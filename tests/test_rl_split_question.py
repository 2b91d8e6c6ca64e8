"""How to split the cards between rollouts and training in an RL run is the RL plan's colocated-or-split answer:
never the tensor-against-pipeline verdict (review BX #3 answered 'GRPO … 16 H100s … how should i split training vs
rollout gpus' with 'Verdict: neither'), never a serving job beside the training ('训练和推理的卡怎么分': BX #11 put the
owned H800s on a service nobody asked for and rented A800s for the GRPO), and the rollout engine said ('rollouts via
vllm') is no engine question."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_conversation

ALGOS = ["GRPO", "PPO", "DAPO"]
SPLITS_EN = ["how should i split training vs rollout gpus", "how do we split the gpus between rollout and training?",
             "what's the best way to split the cards for rollouts and the trainer"]
SPLITS_ZH = ["训练和推理的卡怎么分", "rollout和训练的卡怎么分配", "训练卡和生成卡如何分配"]
EN = [f"planning {a} full param on qwen3 32b, rollouts via vllm, group size 8. we have 16 H100s across two servers. "
      f"feasible? {s}" for a, s in itertools.product(ALGOS, SPLITS_EN)]
ZH = [f"实验室有两台8卡H800，想用verl跑{a}，模型qwen3-30b-a3b全参，能跑吗，{s}" for a, s in itertools.product(ALGOS, SPLITS_ZH)]


@pytest.mark.parametrize("text", EN + ZH)
def test_the_split_of_an_rl_run_is_read_as_the_rl_job(text: str) -> None:
    u = understand(text, None)
    assert "par_choice" not in u.ask and "no_sizing" not in u.intents, (u.ask, u.intents)
    assert u.updates.get("objective") == "rl" and u.updates.get("phase") == "fine-tune", u.updates
    assert u.also != "engine_choice" and "engine_choice" not in u.intents


@pytest.mark.parametrize("lang,text", [("en", EN[0]), ("zh", ZH[0])])
def test_the_owned_cluster_runs_the_rl_job(lang: str, text: str) -> None:
    reply = str(run_conversation([text])[-1].content)
    heading = next(line for line in reply.splitlines() if line.startswith("## "))
    assert heading.startswith(("## Use your 16 ×", "## 使用你自己的 16 ×")), heading
    assert "Verdict: neither" not in reply and "推理服务" not in heading and "Serving engines" not in reply
    assert ("Colocated or split" in reply) if lang == "en" else ("同卡还是分开" in reply)


def test_rl_then_a_service_for_people_is_still_both_jobs() -> None:
    u = understand("GRPO on qwen2.5 7b then serve it to 50 users, we have 8 A100s", None)
    assert u.updates.get("phase") == "train-and-serve", u.updates
