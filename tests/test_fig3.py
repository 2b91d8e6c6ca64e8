"""Session 15, helper fig3: rate sizing of large MoE (MLA) models and batch windows.

1. Review AK C20: DeepSeek-V3 at 5 QPS, 6,000-token prompts, 400 out, p95 first token 2 s on H20 was 88 cards (11 copies
   of 8, each holding 11 sequences: FP8 weights fill 84 of an H20's 92 GB). Copies of two servers (TP8 x PP2) hold 210
   sequences, but were sized as if their two pipeline stages prefilled one prompt at a time: 8,895 prompt tokens/s a
   copy, so 6 copies. A pipeline of pp stages prefills pp prompts at once (one in each stage): 5 x 6,000 = 30,000
   prompt tokens/s is 27 H20 fully busy (112 us a token over 8 cards: 2 x 37B / (296 TFLOPS x 45%) + 15 GFLOP of MLA
   attention / (148 TFLOPS x 35%)), decode on top and each copy at most 80% busy: 48 H20 (3 x 16).
"""

from __future__ import annotations

import pytest

from gpu_advisor.tools.queueing import (
    DEFAULT_PROMPT_CV2,
    RateInput,
    capacity,
    load_point,
    size_by_rate,
    unit_physics,
)


def _c20(gpu: str, **kw) -> RateInput:
    return RateInput(model="deepseek-v3", gpu=gpu, precision="fp8", requests_per_s=5, prompt_tokens=6000,
                     output_tokens=400, ttft_target_ms=2000, ttft_percentile=0.95, max_gpus=512, **kw)


def _unit(gpu: str, pp: int):
    u = unit_physics("deepseek-v3", gpu, "vllm", "fp8", None, 8, pp, 6000, 16300, 400)
    assert u is not None
    return u


def test_h20_prefill_rate_per_copy_is_the_physics() -> None:
    u1, u2 = _unit("h20", 1), _unit("h20", 2)
    assert 1 / u1.prefill_s_per_token == pytest.approx(8895, rel=0.02)  # 112 us a token over 8 H20
    assert u1.max_sequences == 11  # 8 x 96 GB: 84 GB of FP8 weights a card, 74,400 tokens of 70 KB latent KV
    assert u2.max_sequences >= 128  # two servers: half the weights a card, ample KV


@pytest.mark.parametrize("pp", [2, 3, 4])
def test_pipeline_stages_prefill_prompts_side_by_side(pp: int) -> None:
    """Each stage spends rate x prompt x t_pre / pp of its time on prompts; one prompt's own prefill is no sooner."""
    u = _unit("h20", pp)
    p = load_point(u, 1.0, 6000, 16300, 400, 400, DEFAULT_PROMPT_CV2, tails=False)
    assert p.prefill_share == pytest.approx(6000 * u.prefill_s_per_token / pp)
    # the copy sustains more than one stage's prefill alone would allow (8,895 / 6,000 = 1.48 requests/s)
    cap = capacity(u, 6000, 16300, 400, 400, DEFAULT_PROMPT_CV2, 1.0)
    assert cap > 1.48 * (pp - 1)


def test_c20_h20_is_sized_by_prefill_not_by_one_stage() -> None:
    r = size_by_rate(_c20("h20"))
    # copies of three servers as data-parallel attention with expert parallel (h-moe), were TP8 x PP2: the same 48
    assert (r.tp, r.pp, r.unit_gpus, r.dp_attention) == (24, 1, 24, 24)
    assert 40 <= r.gpus <= 56, (r.gpus, r.replicas)  # 27 H20 of prefill alone fully busy: 48, not 88
    assert 90 <= r.concurrency <= 140  # ~110 in flight: 5/s x (0.7 s + 400 tokens at ~19 tokens/s)
    assert r.utilisation <= 0.8 and r.ttft_q_s <= 2.0
    assert r.concurrency_p99_per_replica <= r.max_sequences_per_replica


@pytest.mark.parametrize("gpu", ["h800", "h100"])
def test_c20_faster_cards(gpu: str) -> None:
    r = size_by_rate(_c20(gpu))
    assert 16 <= r.gpus <= 32, (r.gpus, r.replicas, r.pp)  # ~4x the H20's prefill a card: 3 servers, not 6
    assert r.ttft_q_s <= 2.0 and r.utilisation <= 0.8


def test_a_router_is_not_asked_for_to_save_less_than_a_server() -> None:
    """Copies of 4 H20 behind a least-loaded router would need 28; 4 copies of 8 with their own queues need 32."""
    r = size_by_rate(RateInput(model="deepseek-r1-distill-qwen-32b", gpu="h20", precision="fp8", requests_per_s=15,
                               prompt_tokens=2000, output_tokens=500, ttft_p99_ms=1000))
    assert (r.gpus, r.replicas, r.tp, r.routing) == (32, 4, 8, "per-replica")


C20 = [
    ("zh", "deepseek-v3，峰值 QPS 5，平均输入 6000 token，输出 400，TTFT p95 两秒以内，要多少张 H20"),
    ("zh", "请问要多少张H20？模型 DeepSeek V3，高峰每秒5个请求，输入平均6000 tokens，输出400，首token p95 两秒内"),
    ("en", "deepseek-v3, peak 5 QPS, average input 6000 tokens, output 400, TTFT p95 under 2 seconds, how many H20?"),
    ("en", "how many H20 would we need for DeepSeek V3: about 5 requests/s at peak, 6k-token prompts, 400 tokens out, "
           "p95 time to first token within 2 s"),
]


@pytest.mark.parametrize(("lang", "text"), C20)
def test_c20_conversation(lang: str, text: str) -> None:
    from tests.conversation import run_states

    state = run_states([text])[-1]
    best = state["results"]["recommend"]["best"]
    assert best["gpu"] == "h20"
    assert 40 <= best["gpus"] <= 56, best["gpus"]
    reply = state["messages"][-1].content
    assert ("张" in reply) == (lang == "zh")


# --- 2. review AL 18: a batch window said as a start and an end clock time; the RTX 3090 against the 4090 -------------

WINDOWS = [
    ("zh", "每天凌晨要离线跑一个任务：50万条商品标题改写，每条输入约200 token输出约60 token，模型是 qwen2.5-7b，"
           "必须早上8点前跑完（一般凌晨1点开始）。我们有两张 L20，够不够？", 7.0),
    ("zh", "我们有两张 L20，qwen2.5-7b，离线批处理50万条，每条输入200输出60，凌晨1点开跑，早上8点之前要跑完，够吗", 7.0),
    ("zh", "离线批处理，从晚上11点到早上6点，50万条，每条输入200输出60，qwen2.5-7b，两张 L20 够吗", 7.0),
    ("zh", "晚上10点开始跑，第二天早上6点前必须跑完，50万条，每条输入200输出60，qwen2.5-7b，两张 L20 够不够", 8.0),
    ("en", "Every night we run an offline job: rewrite 500k product titles, about 200 tokens in and 60 out each, model "
           "qwen2.5-7b. It starts at 1am and must finish by 8am. We have two L20s, is that enough?", 7.0),
    ("en", "we have 2 L20. offline batch of 500k items, 200 tokens in 60 out, qwen2.5-7b, has to be done before 8am, "
           "we kick it off at 1am. enough?", 7.0),
    ("en", "nightly batch from 11pm to 6am: 500k items, 200 in and 60 out, qwen2.5-7b on our two L20s, enough?", 7.0),
    ("en", "so, um, the batch job starts at 22:00 and must be finished by 06:00 - 500k rows, 200 in, 60 out, qwen2.5-7b, "
           "2x L20, is that enough?", 8.0),
]


@pytest.mark.parametrize(("lang", "text", "hours"), WINDOWS)
def test_a_start_and_an_end_clock_are_the_deadline(lang: str, text: str, hours: float) -> None:
    from gpu_advisor.assistant.reading import understand

    u = understand(text)
    assert u.lang == lang
    assert u.updates.get("deadline_hours") == hours, u.updates


@pytest.mark.parametrize("text", [
    "serving llama 3.1 8b for 50 users, busy from 9am to 6pm",
    "部署 qwen2.5-7b 给 50 人用，工作时间从早上9点到晚上6点",
])
def test_a_services_busy_hours_are_no_deadline(text: str) -> None:
    from gpu_advisor.assistant.reading import understand

    assert "deadline_hours" not in understand(text).updates


@pytest.mark.parametrize(("lang", "text", "hours"), [WINDOWS[0], WINDOWS[4], WINDOWS[6]])
def test_enough_is_answered_on_the_window(lang: str, text: str, hours: float) -> None:
    from tests.conversation import run_states

    state = run_states([text])[-1]
    rec = state["results"]["recommend"]
    owned = next(o for o in [rec["best"], *rec["options"]] if o.get("owned"))
    assert owned["gpu"] == "l20" and owned["gpus"] == 2 and owned["ok"]
    assert owned["job_hours"] < hours
    first = state["messages"][-1].content.splitlines()[0]
    assert first.startswith("**能**" if lang == "zh" else "**Yes**"), first
    assert f"{hours:g}" in first and f"{owned['job_hours']:.1f}" in first


@pytest.mark.parametrize("text", [
    "每天凌晨要离线跑一个任务：150万条商品标题改写，每条输入约200 token输出约60 token，模型是 qwen2.5-7b，"
    "必须早上8点前跑完（一般凌晨1点开始）。我们有两张 L20，够不够？",
    "We have two L20s. Nightly offline job, 1.5M product titles, 200 tokens in and 60 out each, qwen2.5-7b, kicks off "
    "at 1am and has to be done by 8am. Enough?",
])
def test_three_times_the_volume_misses_the_window(text: str) -> None:
    from tests.conversation import run_states

    state = run_states([text])[-1]
    best = state["results"]["recommend"]["best"]
    assert best["gpu"] == "l20" and best["gpus"] == 3 and best["job_hours"] < 7  # one L20 more beside the two
    first = state["messages"][-1].content.splitlines()[0]
    assert first.startswith(("**不够**", "**No**")), first


def test_rtx_3090_batch_runs_on_its_int8_units() -> None:
    """A batch job is prefill-bound (100M prompt tokens here against 30M written): the 3090 has no FP8, but 284 dense
    INT8 TOPS against 71 TFLOPS of FP16 with FP32 accumulate; W8A8 INT8 puts it near the 4090's FP8 (330), not 4.5x
    behind it as weight-only int8 did (17.5 h against 3.9 h)."""
    from tests.conversation import run_states

    text = ("每天凌晨要离线跑一个任务：50万条商品标题改写，每条输入约200 token输出约60 token，模型是 qwen2.5-7b。"
            "一张 RTX 3090 要跑多久？")
    rec = run_states([text])[-1]["results"]["recommend"]
    rows = {o["gpu"]: o for o in [rec["best"], *rec["options"]] if o["gpus"] == 1}
    r3090, r4090 = rows["rtx-3090"], rows["rtx-4090"]
    assert r3090["precision"] == "w8a8-int8" and r4090["precision"] == "fp8"
    assert 1.0 < r3090["job_hours"] / r4090["job_hours"] < 1.6, (r3090["job_hours"], r4090["job_hours"])
