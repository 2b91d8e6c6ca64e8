"""Review L (rate path): serving plans sized for a request rate that an expert would sign.

- the copies a rate needs are sized for prompts around the stated mean (not an exponential tail 4.6x longer):
  2k-token prompts at 15 req/s on H20 take 16-40 cards at 60-80% load, never 64 at 33%;
- every row beside a rate plan, and every card asked about, is sized for the rate (copies) or said to fall short;
- cards you own (or a count you limited the choice to) are checked against the rate: "No" when they do not keep up;
- one verdict on the first-token target per reply;
- "output under 300" / "输出 300 以内" is the output length; "平时10 QPS，峰值50" sizes the peak and says the base.
Generated over fillers, spellings and both languages, asserting values."""
from __future__ import annotations

import re
from typing import Any

import pytest
from conversation import run_conversation

from gpu_advisor.assistant.reading import understand
from gpu_advisor.tools.queueing import RateInput, size_by_rate
from gpu_advisor.tools.recommend import Workload, recommend

EN_FILLERS = ["", "hi, ", "quick question: "]
ZH_FILLERS = ["", "你好，", "请问"]


def _results(msg: Any) -> dict[str, Any]:
    return msg.additional_kwargs["gpu_advisor"]["results"]


def _rows(results: dict[str, Any]) -> list[dict[str, Any]]:
    rec = results["recommend"]
    return [*rec["options"], *(results.get("options") or [])]


# --- 1. the layout search: cheapest layout that meets the target with headroom ---------------------------------

@pytest.mark.parametrize("rate", [10.0, 15.0, 20.0])
def test_h20_knowledge_base_is_not_64_cards_at_a_third_load(rate: float) -> None:
    r = size_by_rate(RateInput(model="deepseek-r1-distill-qwen-32b", gpu="h20", precision="fp8", requests_per_s=rate,
                               prompt_tokens=2000, output_tokens=500, ttft_p99_ms=1000))
    assert r.ttft_p99_s <= 1.0
    assert 0.5 <= r.utilisation <= 0.8  # loaded with headroom, not a third
    assert r.gpus <= 48 * rate / 15  # 15 req/s: 32 H20 (4 x TP8), not 64
    assert r.gpus >= 15 * rate / 15  # prefill alone is ~30k tokens/s at 15 req/s: ~16 H20 at full load


def test_h20_knowledge_base_exactly() -> None:
    r = size_by_rate(RateInput(model="deepseek-r1-distill-qwen-32b", gpu="h20", precision="fp8", requests_per_s=15,
                               prompt_tokens=2000, output_tokens=500, ttft_p99_ms=1000))
    assert (r.gpus, r.replicas, r.tp) == (32, 4, 8)
    assert r.replicas * r.concurrency_p99_per_replica >= r.concurrency  # the copies hold the p99 in flight
    said = next(a for a in r.assumptions if a.startswith("prompt lengths"))
    assert "CV of 0.5" in said and "p99 5,3" in said  # the default spread is said, p99 ~2.7x the 2,000 mean


@pytest.mark.parametrize("filler", ZH_FILLERS)
def test_h20_conversation_zh(filler: str) -> None:
    replies = run_conversation([f"{filler}公司内部知识库问答，用 DeepSeek-R1-Distill-Qwen-32B，要求p99首token延迟1秒以内，"
                                "峰值QPS 15左右，输入平均2k tokens，输出500，需要几张H20", "全天候"])
    text = str(replies[-1].content)
    t = _results(replies[-1])["recommend"]["traffic"]
    assert 16 <= t["gpus"] <= 40 and 0.5 <= t["utilisation"] <= 0.8
    assert f"共 {t['gpus']} 张卡" in text
    per_copy = int(re.search(r"每份服务 (\d+) 个用户", text).group(1))
    assert per_copy * t["replicas"] >= t["in_flight"]  # the users each copy holds add up to those in flight


@pytest.mark.parametrize("filler", EN_FILLERS)
def test_h20_conversation_en(filler: str) -> None:
    replies = run_conversation([f"{filler}internal knowledge base QA with DeepSeek-R1-Distill-Qwen-32B, p99 ttft under "
                                "1s, peak 15 QPS, average 2k tokens in and 500 out, how many H20", "around the clock"])
    t = _results(replies[-1])["recommend"]["traffic"]
    assert 16 <= t["gpus"] <= 40 and 0.5 <= t["utilisation"] <= 0.8


# --- 2. rows checked against the rate; owned cards checked ---------------------------------------------------------

def _rate_rows_sustain(results: dict[str, Any]) -> None:
    rate = results["recommend"]["traffic"]["requests_per_s"]
    for o in _rows(results):
        if o["owned"]:
            continue
        # a row that claims the rate holds more than one card's worth of copies at 50 req/s of 800-token prompts
        assert not (o["ok"] and o["gpus"] < rate / 4), (o["gpu"], o["gpus"])


@pytest.mark.parametrize("text", [
    "双十一前要上线一个推荐文案生成服务，用 Qwen3-32B，预计峰值 50 QPS，输入 800 输出 150，租 H20 还是 L20 划算，全天候",
    "你好，推荐文案生成服务，Qwen3-32B，峰值每秒50个请求，输入800输出150，全天运行，租H20还是L20",
    "serve qwen3 32b at 50 requests per second, 800 tokens in 150 out, around the clock, rent, H20 or L20?",
    "hi, qwen3-32b api, 50 req/s peak, 800 in 150 out, 24/7, renting: h20 vs l20",
])
def test_every_row_on_a_rate_plan_is_sized_for_the_rate(text: str) -> None:
    msg = run_conversation([text])[-1]
    results = _results(msg)
    _rate_rows_sustain(results)
    asked = {o["gpu"]: o for o in results.get("options") or []}
    for gpu in ("h20", "l20"):  # the cards asked about: each sized as copies for 50 req/s, never one card
        assert gpu in asked and asked[gpu]["gpus"] >= 8 and asked[gpu]["replicas"] >= 2


def test_alternatives_of_a_rate_plan_are_rate_sized() -> None:
    w = Workload(phase="serve", model="qwen3-32b", requests_per_s=50, prompt_tokens=800, output_tokens=150,
                 utilisation=1.0)
    rec = recommend(w)
    assert rec.traffic is not None and rec.best is not None
    # (a card sold as whole servers is bought whole; a B200 prefills about 2.5x an H100's, so it takes 3)
    assert rec.best.gpus >= (rec.traffic.gpus or 0) >= (3 if rec.best.gpu == "b200" else 4)
    for o in rec.options:
        # 40k prompt tokens/s: no single card, no 2-card row (a B200 row shown beside a single-offer plan, issue 23,
        # takes 3: each B200 prefills about 2.5x an H100's)
        assert o.gpus >= {"b200": 3, "mi300x": 4}.get(o.gpu, 8), (o.gpu, o.gpus)  # (MI300X: about 1.3x an H100's FP8)
    assert len({o.gpu for o in rec.options}) == len(rec.options)  # one sized row per card


@pytest.mark.parametrize("text, short, needs", [
    ("we run a 24/7 internal api on llama 3.3 70b, sla is p99 ttft < 1s, ~15 req/s avg, prompts ~2k tokens output "
     "~300. we own 2 nodes of 8x A100 80GB. is that enough or do we need more", "**Not enough for this rate:**",
     "needs about"),
    ("hi, we own 2 servers of 8x A100 80GB, llama 3.3 70b api 24/7, 15 requests per second, 2k in 300 out, p99 ttft "
     "under 1 s, enough?", "**Not enough for this rate:**", "needs about"),
    ("我们线上 API 用 llama 3.3 70b，全天候，p99 首token 1秒以内，每秒 15 个请求，输入 2k 输出 300，我们有两台 8 卡 A100 80G，"
     "够不够", "**撑不住这个速率**", "大约需要"),
])
def test_owned_cards_checked_against_the_rate(text: str, short: str, needs: str) -> None:
    msg = run_conversation([text])[-1]
    reply = str(msg.content)
    t = _results(msg)["recommend"]["traffic"]
    assert t["owned_short"] and t["owned_gpus"] == 16
    assert t["owned_rps"] < 15 and t["needed_gpus"] >= 24  # prefill alone is ~4.2 PFLOP/s: more than 16 A100
    assert short in reply and needs in reply
    assert f"{t['needed_gpus']:,}" in reply.split(short)[1]
    assert "**Yes**" not in reply and "comfortable" not in reply


def test_owned_cards_that_keep_up_are_not_flagged() -> None:
    msg = run_conversation(["we own 2 nodes of 8x H100 80GB, serve llama 3.1 8b at 5 requests per second, 1k in 200 "
                            "out, 24/7. enough?"])[-1]
    t = _results(msg)["recommend"]["traffic"]
    assert not t["owned_short"] and "**Not enough" not in str(msg.content)


# --- 3. one verdict on the first-token target ----------------------------------------------------------------------

@pytest.mark.parametrize("second", ["输入一般 1500 token 左右，输出 300 以内。卡不够可以加，关键是要几台机器（每台 8 卡）",
                                    "输入 1500 左右，输出 300 以内，要几台机器"])
def test_one_verdict_on_the_target_zh(second: str) -> None:
    replies = run_conversation(["我们要在内网部署 Qwen2.5-72B-Instruct 给客服用，p95 首token延迟要 500ms 以内，峰值大概 30 QPS，"
                                "只能用国产卡，昇腾910B 要几台？", second])
    text = str(replies[-1].content)
    rec = _results(replies[-1])["recommend"]
    t = rec["traffic"]
    assert t["output_tokens"] == 300  # "输出 300 以内", not the 256 default
    if t["ttft_unreachable"] or t["ttft_p99_met"] is False:
        assert rec["best"]["ok"] is False and "达到目标 |" not in text.split("否")[0][-5:]
        assert "它达到所有目标" not in text
    else:
        assert t["ttft_q_s"] <= 0.5


# --- 4. stated lengths and the peak ---------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["输出 300 以内", "输出300以内", "输出 300 左右", "output under 300", "outputs under 300 tokens",
                                  "output < 300", "output at most 300", "输入 1500 左右，输出 300 以内"])
def test_output_length_with_a_bound_is_read(text: str) -> None:
    u = understand(text)
    assert (u.updates.get("output_tokens") or u.updates.get("batch_output_tokens")) == 300


@pytest.mark.parametrize("filler", EN_FILLERS)
@pytest.mark.parametrize("second", ["output under 300, input around 1500", "outputs under 300 tokens"])
def test_output_under_is_the_rate_plans_output_en(filler: str, second: str) -> None:
    replies = run_conversation([f"{filler}serve qwen2.5 72b at 30 requests per second, p95 ttft under 2s, rent H100, "
                                "around the clock",
                                second])
    t = _results(replies[-1])["recommend"]["traffic"]
    assert t["output_tokens"] == 300 and t["prompt_tokens"] == (1500 if "1500" in second else 4096)


@pytest.mark.parametrize("text, base, peak", [
    ("全天候，平时 10 QPS 左右，双十一那两周峰值 50", 10, 50),
    ("全天候，平时10 QPS，双十一两周峰值50", 10, 50),
    ("平时每秒 10 个请求，高峰大概 30", 10, 30),
    ("平时10 QPS，高峰50 QPS", 10, 50),
    ("around the clock, 10 qps normally, peaks at 50 for two weeks", 10, 50),
    ("usually 10 req/s, peak 50", 10, 50),
    ("usually 8 requests per second, at peak 40", 8, 40),
])
def test_the_peak_is_sized_and_the_base_said(text: str, base: int, peak: int) -> None:
    u = understand(text)
    assert u.updates["requests_per_s"] == peak
    assert "users" not in u.updates  # "峰值 50" after a rate is its peak, not 50 people at once
    note = dict(u.notes).get("note.rate_peak_base")
    assert note == {"base": f"{base}", "peak": f"{peak}", "share": f"{base / peak:.0%}"}


def test_a_peak_of_people_stays_people() -> None:
    u = understand("usually 10 req/s, peak 50 users")
    assert u.updates["requests_per_s"] == 10 and "note.rate_peak_base" not in dict(u.notes)


@pytest.mark.parametrize("lang, first, second, said", [
    ("zh", "双十一前要上线一个推荐文案生成服务，用 Qwen3-32B，预计峰值 50 QPS，输入 800 输出 150，租 H20 还是 L20 划算",
     "全天候，平时 10 QPS 左右，双十一那两周峰值 50", "我按高峰每秒 50 个来配置"),
    ("en", "copywriting service on qwen3-32b, 800 in 150 out, rent H20 or L20?",
     "24/7, usually 10 req/s, peak 50 for two weeks", "I size for the peak, 50 a second"),
])
def test_peak_conversation(lang: str, first: str, second: str, said: str) -> None:
    replies = run_conversation([first, second])
    answers = [r for r in replies if "results" in r.additional_kwargs["gpu_advisor"]]
    t = _results(answers[-1])["recommend"]["traffic"]  # a launch with a rate is sized at once (review M)
    assert t["requests_per_s"] == 50
    assert any(said in str(r.content) for r in replies)


# --- 5. a live API stays live ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("second", ["no its not batch, its a live api hit by our backend, 200 req/s around the clock",
                                    "it's a live api, not a batch job: 200 req/s 24/7"])
def test_a_live_api_is_served_not_batched(second: str) -> None:
    replies = run_conversation(["gemma 3 27b for a doc classification api, p95 end to end latency under 300ms, ~500 "
                                "tokens in and like 5 tokens out, 200 req/s sustained. what gpus and how many", second])
    answers = [r for r in replies if "results" in r.additional_kwargs["gpu_advisor"]]
    results = _results(answers[-1])  # an api with a rate is sized at once (review M); the second turn restates it
    rec = results["recommend"]
    assert rec["workload"]["phase"] == "serve" and not rec["workload"].get("batch_items")
    t = rec["traffic"]
    assert t["requests_per_s"] == 200 and t["replicas"] >= 2 and 0.5 <= t["utilisation"] <= 0.8
    assert "100,000" not in str(replies[-1].content)


# The first line says how many more of the owned card the rate needs (h-onevoice 65d86ed: cards owned short of a
# rate are answered 'N more', not by naming the failing 16 as the fix).
@pytest.mark.parametrize("text, no", [
    ("we run a 24/7 internal api on llama 3.3 70b, sla is p99 ttft < 1s, ~15 req/s avg, prompts ~2k tokens output "
     "~300. we own 2 nodes of 8x A100 80GB. is that enough or do we need more",
     "**No**: about 28 × NVIDIA A100 SXM4 80GB in int8 are needed, 12 more beside the 16 you have"),
    ("我们线上 API 用 llama 3.3 70b，全天候，p99 首token 1秒以内，每秒 15 个请求，输入 2k 输出 300，我们有两台 8 卡 A100 80G，"
     "够不够", "**不够**：按 int8 大约需要 28 张 NVIDIA A100 SXM4 80GB，即在你现有的 16 张之外再加 12 张"),
])
def test_enough_is_answered_no_on_the_rate(text: str, no: str) -> None:
    assert str(run_conversation([text])[-1].content).startswith(no)
