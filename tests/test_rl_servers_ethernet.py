"""GRPO on your own servers joined by Ethernet (no InfiniBand) uses all of them, data parallel across the servers (HSDP:
the training state sharded inside each server, each server's own rollouts, one gradient all-reduce between them a
step), when that exchange is small against the step; else one server's cards, and the reply says why in one line.
'We have 16 gpus tho' after the cards were said restates them: their type is kept (review CJ #4: 2 x 8 A100 80GB
over 100 GbE, GRPO on Qwen2.5 14B, planned on 8 cards for 172 h with the other server idle; the follow-up asked
'Which card are your 16?')."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.tools.recommend import Recommendation
from gpu_advisor.tools.rl import RlInput, across_servers, rl_layouts, rl_run
from gpu_advisor.tools.rl_sync import server_sync
from tests.conversation import run_states
from tests.test_no_english_in_chinese import english_runs

JOB_EN = ("want to grpo qwen2.5 14b full param, 256 prompts per step w 8 samples each, max response 4096 toks, "
          "~300 steps. does it fit and how long will it take")
CLUSTERS_EN = ["we have 2 nodes of 8x a100 80gb, only 100gbe between them no infiniband. ",
               "our lab has 2 servers of 8 A100 80GB, connected by 100 Gb ethernet (no IB). ",
               "we own two servers, each with 8x a100 80gb, plain 100GbE between the nodes. "]
JOB_ZH = "想用GRPO全参训qwen2.5-14b，每步256个prompt，每个采样8条，最长回复4096 token，大概300步。放得下吗，要多久"
CLUSTERS_ZH = ["我们有两台8卡A100 80G，节点之间只有100G以太网，没有IB。", "我们有两台服务器，每台8张A100 80G，中间是100G以太网，没有IB，"]
FIRST = [(c + JOB_EN, "en") for c in CLUSTERS_EN] + [(c + JOB_ZH, "zh") for c in CLUSTERS_ZH]
FOLLOW = {"en": ["we have 16 gpus tho, why only 8? can't it use both nodes", "we have 16 GPUs, can't it use both nodes?"],
          "zh": ["我们有16张卡啊，为什么只用8张？不能两台一起用吗", "我们有16张卡，不能两台一起用吗"]}
ONE_NODE = {"en": "we have one server of 8x a100 80gb. " + JOB_EN, "zh": "我们有一台8卡A100 80G。" + JOB_ZH}


def _run(n: int, **across: float) -> RlInput:
    return RlInput(model="qwen2.5-14b", gpu="a100-80gb-sxm", gpus=n, method="full", prompts=256, samples=8,
                   completion_tokens=4096, prompts_per_step=256, steps=300, **across)  # type: ignore[arg-type]


@pytest.mark.parametrize(("servers", "gbit", "seconds"), [(2, 100.0, 2.94), (2, 10.0, 29.4), (4, 100.0, 4.41),
                                                          (2, 1.0, 294.0)])
def test_the_exchange_is_a_ring_all_reduce_of_the_bf16_gradients(servers: int, gbit: float, seconds: float) -> None:
    s = server_sync(14.7e9, servers, gbit)  # 2 x (S - 1) / S x 29.4 GB over the link at 80% of its line rate
    assert s.gradient_bytes == pytest.approx(29.4e9)
    assert s.seconds_per_step == pytest.approx(seconds, rel=1e-3)
    assert s.term("sync_seconds_per_step").inputs == {"servers": servers, "gbit_per_s": gbit, "efficiency": 0.8}


def test_across_two_servers_the_run_halves_and_each_card_holds_one_servers_shard() -> None:
    eight = rl_run(_run(8))
    both = rl_run(_run(16, server_gpus=8, network_gbit_per_s=100.0))
    assert both.servers == 2 and eight.servers == 1
    assert both.train_per_gpu_bytes == pytest.approx(eight.train_per_gpu_bytes)  # sharded over a server's 8, not 16
    assert both.network_seconds_per_step == pytest.approx(2.94, rel=1e-3)
    assert both.network_hours == pytest.approx(2.94 * 300 / 3600, rel=1e-3)
    assert both.hours == pytest.approx(both.rollout_hours + both.update_hours + both.network_hours)
    assert 0.49 < both.hours / eight.hours < 0.52  # 172 h on 8, 86 h on 16
    assert rl_layouts(_run(16, server_gpus=8, network_gbit_per_s=100.0)).split is None  # no split over Ethernet
    sync = across_servers(_run(16, server_gpus=8, network_gbit_per_s=100.0))
    assert sync is not None and sync.seconds_per_step == pytest.approx(both.network_seconds_per_step)
    assert across_servers(_run(8, server_gpus=8, network_gbit_per_s=100.0)) is None  # one server: nothing between


def _plan(state: dict) -> Recommendation:
    return Recommendation.model_validate(state["results"]["recommend"])


@pytest.mark.parametrize(("first", "lang"), FIRST)
def test_both_servers_are_used_and_the_follow_up_keeps_the_card(first: str, lang: str) -> None:
    states = run_states([first, FOLLOW[lang][len(first) % 2]])
    one = _plan(run_states([ONE_NODE[lang]])[-1])
    rec = _plan(states[0])
    run = rec.trains_on
    assert run is not None and run.owned and run.gpus == 16 and run.gpu == "a100-80gb-sxm"
    assert one.trains_on is not None and one.trains_on.gpus == 8 and one.trains_on.training_hours
    assert 0.49 < (run.training_hours or 0) / one.trains_on.training_hours < 0.52  # hours about halved
    finding = next(f for f in run.findings if f.code == "rl_across_servers")
    assert finding.values["sync_s"] == "2.9" and finding.values["servers"] == "2" and finding.values["per"] == "8"
    reply = str(states[0]["messages"][-1].content)
    assert ("About 86.1 hours" in reply and "data parallel across them" in reply) if lang == "en" else \
        ("大约 86.1 小时" in reply and "数据并行" in reply and not english_runs(reply))
    follow = str(states[1]["messages"][-1].content)
    assert states[1]["profile"]["owned"] == ["16x a100-80gb-sxm"] and not states[1].get("owned_untyped")
    assert "Which card" not in follow and "型号还没说" not in follow and "their type not said" not in follow
    assert ("2.9 s against a step of 1,033 s" in follow) if lang == "en" else ("约 2.9 秒，而一步约 1,033 秒" in follow)
    assert _plan(states[1]).trains_on.gpus == 16  # type: ignore[union-attr]
    assert states[1]["profile"].get("users") in (None, 1)  # '两台一起用' is the servers, never 2 users


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_math_shows_the_exchange_with_its_inputs(lang: str) -> None:
    states = run_states([FIRST[0][0] if lang == "en" else FIRST[-1][0], "show the math" if lang == "en" else "展示计算过程"])
    math = str(states[-1]["messages"][-1].content)
    if lang == "en":
        assert "**Gradient all-reduce between the servers, per step** = 2.9 s: 2 x (servers - 1) / servers x gradient " \
               "bytes / (link Gb/s / 8 x efficiency)" in math
        assert "servers = 2, gbit_per_s = 100, efficiency = 0.8" in math
        assert "/ 8 GPUs (ZeRO-3)" in math and "Time on the network between servers" not in math
    else:
        assert "**每一步服务器之间的梯度 all-reduce** = 2.9 s" in math and not english_runs(math)


@pytest.mark.parametrize(("text", "lang"), [
    ("we have 2 nodes of 8x a100 80gb, only 1gbe ethernet between them. grpo qwen2.5 0.5b full param, 16 prompts per "
     "step, 4 samples, max response 256 toks, 300 steps. how long", "en"),
    ("我们有两台8卡A100 80G，之间只有千兆以太网。用GRPO全参训qwen2.5-0.5b，每步16个prompt，每个采样4条，最长回复256 token，"
     "300步，要多久", "zh")])
def test_one_server_when_the_exchange_outweighs_the_step_and_the_reply_says_why(text: str, lang: str) -> None:
    state = run_states([text])[-1]
    run = _plan(state).trains_on
    assert run is not None and run.gpus == 8
    finding = next(f for f in run.findings if f.code == "rl_one_server")
    assert finding.values["gbit"] == "1" and finding.values["sync_s"] == "9.8"
    reply = str(state["messages"][-1].content)
    why = [line for line in reply.splitlines() if ("one server's 8 cards" if lang == "en" else "按一台服务器的 8 张卡规划") in line]
    assert len(why) == 1 and "9.8" in why[0]


@pytest.mark.parametrize(("text", "network", "gbit"), [
    ("2 servers of 8x a100, plain 100GbE between the nodes", "slow", 100.0),
    ("2 servers of 8x a100 over 200 gbe", "slow", 200.0),
    ("2 servers of 8x a100, 100GbE roce between the nodes", "fast", 100.0),
    ("2 servers of 8x h100, 400GbE RoCE", "fast", 400.0)])
def test_gbe_is_ethernet_unless_rdma_is_said(text: str, network: str, gbit: float) -> None:
    u = understand(text)
    assert (u.updates.get("network"), u.updates.get("network_gbit")) == (network, gbit)


def test_a_shard_one_server_cannot_hold_is_sharded_over_all_the_cards_and_waits_on_the_ethernet() -> None:
    """Qwen2.5 32B full: one server's 8 A100s cannot hold its HSDP shard, so ZeRO-3 over all 16, its weight gathers
    over the 100 GbE counted in the update (slower than the same cards with no network counted)."""
    big = _run(16, server_gpus=8, network_gbit_per_s=100.0).model_copy(update={"model": "qwen2.5-32b"})
    assert not rl_run(big).fits  # each server's shard: too much for 80 GB
    lay = rl_layouts(big)
    pool = rl_run(big.model_copy(update={"server_gpus": None, "network_gbit_per_s": None}))
    assert lay.colocate.fits and lay.colocate.train_per_gpu_bytes == pytest.approx(pool.train_per_gpu_bytes)
    assert lay.colocate.update_hours > pool.update_hours * 1.03 and lay.colocate.network_hours == 0.0
    assert any("sharded over all 16 cards (ZeRO-3)" in x for x in lay.colocate.warnings)
    assert across_servers(big.model_copy(update={"full_shard": True})) is None
