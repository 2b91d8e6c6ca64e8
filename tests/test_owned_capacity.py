"""'How many concurrent users can our two servers carry?' asked with the cards and the model, before any plan (review
BL #11: '两台Atlas 800I A2 … 能跑吗？大概能撑多少并发' sized one user and asked back the concurrency asked about).
The answer counts the people the cards hold at the context said (8,192 assumed), on the layout over the servers that
seats the most (copies within a server unless one over servers seats a quarter more), says the per-user speed at
that load and the count with an 8-bit KV cache, and starts the engine scheduling that many (--max-num-seqs)."""

from __future__ import annotations

import pytest

from gpu_advisor.knowledge import find_gpu
from gpu_advisor.tools.capacity import capacity
from gpu_advisor.tools.recommend import Workload, evaluate
from gpu_advisor.tools.scale import Layout
from tests.conversation import payload, run_conversation


def _w(model: str, context: int = 8192) -> Workload:
    return Workload(model=model, phase="serve", users=1, context=context, server_gpus=8)


@pytest.mark.parametrize(("model", "gpu", "fmt", "users", "tp", "pp", "replicas", "dp"), [
    ("deepseek-v3", "ascend-910b", "w8a8-int8", 69, 16, 1, 1, 16),  # no copy fits one server: DP16+EP16 seats most
    ("llama-3.1-405b", "a100-80gb-sxm", "fp8", 185, 8, 2, 1, 0),  # weights once over both: 185 against 2×TP8's 88
    ("qwen2.5-72b", "h800-sxm", "fp8", 380, 8, 1, 2, 0),  # TP8×PP2 seats 409, under a quarter more: a copy a server
])
def test_owned_servers_counted_on_the_layout_that_seats_most(model, gpu, fmt, users, tp, pp, replicas, dp):
    c = capacity(_w(model), gpu, 16, owned=True, precision=fmt)
    assert c.limit == "memory"
    assert c.users == users
    at = c.at_limit
    assert (at.gpus, at.tp, at.pp, at.replicas, at.dp_attention) == (16, tp, pp, replicas, dp)
    assert at.serves and (at.decode_tokens_per_s or 0) >= 6
    assert not c.next_option.serves  # one more does not fit


def test_a_plans_layout_is_kept_with_its_attention():
    """Counted on a plan's own layout (TP8×PP2, or DP16+EP16 whose attention ranks each hold their own users' KV)."""
    w = _w("deepseek-v3").model_copy(update={"serve_precision": "w8a8-int8"})
    gpu = find_gpu("ascend-910b")
    pipeline = evaluate(w, gpu, 16, owned=True, layout=Layout(tp=8, pp=2, users_per_replica=1, engine="vllm",
                                                              precision="w8a8-int8"))
    dp = evaluate(w, gpu, 16, owned=True, layout=Layout(tp=16, users_per_replica=1, engine="vllm",
                                                        precision="w8a8-int8", dp_attention=True))
    assert (pipeline.pp, pipeline.dp_attention, dp.dp_attention) == (2, 0, 16)
    on_pipeline = capacity(w, "ascend-910b", 16, owned=True, precision="w8a8-int8", plan=pipeline)
    on_dp = capacity(w, "ascend-910b", 16, owned=True, precision="w8a8-int8", plan=dp)
    assert (on_pipeline.users, on_pipeline.at_limit.pp) == (62, 2)
    assert (on_dp.users, on_dp.at_limit.dp_attention) == (69, 16)


ASKED_BACK = ("Tell me how many will use it at once", "告诉我同时会有多少人用", "告诉我同时有多少人用")

CASES = [
    ("我们有两台Atlas 800I A2，想部署DeepSeek V3满血版，能跑吗？大概能撑多少并发", "zh", "69", "DP16+EP16", "5", "138"),
    ("两台Atlas 800I A2跑满血DeepSeek-V3最多能支持多少并发", "zh", "69", "DP16+EP16", "5", "138"),
    ("we have two 8xA100 nodes, can they serve llama 3.1 405b fp8 and how many concurrent users", "en", "185",
     "TP8×PP2", "185", "371"),
    ("两台8卡A100能撑多少并发 跑llama 3.1 405b fp8", "zh", "185", "TP8×PP2", "185", "371"),
    ("we own 2 servers with 8 H800 each. how many users can they handle with qwen2.5 72b?", "en", "380", "2×TP8",
     "190", None),
    ("我们有2台8卡H800服务器，部署qwen2.5-72b，最多能支持多少用户同时用", "zh", "380", "2×TP8", "190", None),
]


@pytest.mark.parametrize(("turn", "lang", "users", "label", "seqs", "kv8"), CASES)
def test_capacity_on_own_servers_answered_with_count_speed_and_command(turn, lang, users, label, seqs, kv8):
    reply = run_conversation([turn])[-1]
    text = reply.content
    head = f"**大约 {users} 人同时生成**" if lang == "zh" else f"**About {users} people generating at once**"
    assert head in text
    assert label in text
    assert ("每人约" if lang == "zh" else "each at about") in text  # the per-user speed at that load
    assert f"--max-num-seqs {seqs}\n" in text + "\n"
    assert not any(a in text for a in ASKED_BACK)  # never asks back the concurrency it was asked for
    results = payload(reply)["results"]["capacity"]
    assert results["users"] == int(users)
    if kv8:
        assert results["kv8_users"] == int(kv8)
        assert (f"**大约 {kv8} 人**" if lang == "zh" else f"**about {kv8}**") in text
