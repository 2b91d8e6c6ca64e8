"""MLA mixtures of experts (Kimi K2, DeepSeek V3/R1) are sized as their makers deploy them: data-parallel attention with
expert parallelism, across servers where that needs fewer cards (review BL #6, #19, BK #3, BJ #19); a verdict to buy
ranks by purchase price; a buy asked about never heads a reply whose own figures say renting costs less (BL #17)."""

from __future__ import annotations

import pytest

from gpu_advisor.knowledge import find_gpu
from gpu_advisor.tools.launch import launch_for
from gpu_advisor.tools.models import resolve_model
from gpu_advisor.tools.recommend import Option, Workload, _bought_best, recommend
from gpu_advisor.tools.scale import expert_units, plan
from gpu_advisor.tools.throughput import SpeedInput, speed
from tests.conversation import run_states

KIMI = [("whats the minimum hardware to run Kimi K2 in production? we want fp8, ~200 concurrent users, mostly agentic "
         "coding so long contexts like 32k", "en"),
        ("in production, kimi k2 in fp8 for 200 concurrent users at 32k context: what hardware at minimum?", "en"),
        ("Kimi K2 上线生产环境，fp8，大约200个并发，32k上下文，最少要什么硬件？", "zh")]


@pytest.mark.parametrize(("text", "lang"), KIMI)
def test_kimi_k2_at_200_users_takes_16_cards_not_96(text: str, lang: str) -> None:
    state = run_states([text])[-1]
    best = state["results"]["recommend"]["best"]
    assert state["results"]["inputs"]["model"] == "kimi-k2" and best["ok"]
    # was 96 x A100 (3 x TP8 x PP4), the KV on every rank; in China 24 x H20 96GB (200 x 32k of MLA cache is 460 GB)
    assert best["gpus"] == (24 if lang == "zh" else 16) and best["dp_attention"] >= 8
    reply = str(state["messages"][-1].content)
    assert "--data-parallel-size" in reply and "--pipeline-parallel-size" not in reply
    assert ("DP24+EP24" if lang == "zh" else "DP16+EP16") in reply and (("数据并行" in reply) if lang == "zh" else ("data-parallel attention" in reply))


def test_the_layout_search_offers_dp_attention_across_two_h200_servers() -> None:
    layouts = plan("kimi-k2", find_gpu("h200"), [("vllm", "fp8", None)], users=200, context=32768, floor=10.0)
    first = layouts[0]
    assert (first.tp, first.pp, first.replicas, first.dp_attention, first.gpus) == (16, 1, 1, True, 16)


def test_no_cross_server_dp_units_on_cards_without_fp8_or_for_gqa_models() -> None:
    assert expert_units(resolve_model("kimi-k2"), gpu=find_gpu("h200")) == [16, 24, 32]
    assert expert_units(resolve_model("deepseek-v3"), gpu=find_gpu("a100-sxm4-80gb")) == []
    assert expert_units(resolve_model("qwen3-235b-a22b"), gpu=find_gpu("h200")) == []


def test_each_dp_rank_reads_only_its_own_users_kv() -> None:
    tp = speed(SpeedInput(model="kimi-k2", precision="fp8", gpu="h200", gpus=8, batch=96, context=32768))
    dp = speed(SpeedInput(model="kimi-k2", precision="fp8", gpu="h200", gpus=8, batch=96, context=32768, dp_attention=8))
    assert dp.decode_tokens_per_s > 1.5 * tp.decode_tokens_per_s
    two = speed(SpeedInput(model="kimi-k2", precision="fp8", gpu="h200", gpus=16, batch=96, context=32768,
                           expert_servers=2))
    one = speed(SpeedInput(model="kimi-k2", precision="fp8", gpu="h200", gpus=16, batch=96, context=32768,
                           dp_attention=16))
    assert two.time_per_output_token_s > one.time_per_output_token_s  # the all-to-all over the network costs


def test_the_launch_command_matches_the_dp_layout() -> None:
    w = Workload(model="kimi-k2", phase="serve", users=200, context=32768, serve_precision="fp8", candidates=["h200"])
    cmd = launch_for(recommend(w))
    argv = cmd.argv
    assert argv[argv.index("--tensor-parallel-size") + 1] == "1"
    assert argv[argv.index("--data-parallel-size") + 1] == "16"
    assert argv[argv.index("--data-parallel-size-local") + 1] == "8" and "--enable-expert-parallel" in argv
    assert argv[argv.index("--max-num-seqs") + 1] == "13"  # 200 users over 16 ranks
    sg = launch_for(recommend(w), "sglang").argv
    assert "--enable-dp-attention" in sg and sg[sg.index("--dp-size") + 1] == "16" and sg[sg.index("--nnodes") + 1] == "2"


def _opt(gpu: str, n: int, hour: float, buy: float) -> Option:
    g = find_gpu(gpu)
    return Option(gpu=g.id, gpu_name=g.name, gpus=n, owned=False, capacity_bytes=1, headroom_fraction=0.3, ok=True,
                  usd_per_hour=hour, usd_per_month=hour * 730, purchase_usd=buy, sold_in=8, price_offers=20)


def test_a_buy_verdict_takes_the_cheapest_to_buy() -> None:
    w = Workload(model="kimi-k2", phase="serve", users=200, context=32768)
    cheap_rent = _opt("a100-sxm4-80gb", 96, 96 * 1.2, 2_400_000)
    cheap_buy = _opt("h200", 48, 48 * 3.0, 2_016_000)
    best, rb = _bought_best(w, [cheap_rent, cheap_buy], cheap_rent, None)
    assert best is cheap_buy and rb is not None and rb.buy_total_usd < rb.rent_total_usd


H20 = [("明年H20还能买到吗，现在买一批H20部署deepseek r1值不值", "zh", "不划算")]


@pytest.mark.parametrize(("text", "lang", "words"), H20)
def test_a_buy_asked_about_is_headed_by_its_own_figures(text: str, lang: str, words: str) -> None:
    state = run_states([text])[-1]
    head = str(state["messages"][-1].content).splitlines()[0]
    rb = state["results"]["recommend"]["rent_or_buy"]
    assert rb["rent_total_usd"] < rb["buy_total_usd"]
    assert head.startswith("## ") and words in head and "8 × NVIDIA H20 96GB" in head
