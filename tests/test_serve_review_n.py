"""Review N (serving physics): a rate plan that an expert would sign.

- a layout is never reported as serving a rate its prefill cannot keep up with: rate x prompt stays within the
  copies' prefill capacity x the utilisation cap (a Hypothesis invariant over rates, prompts and cards), and a
  plan never headlines fewer cards than the queueing model sized (an int4 follow-up over a budget showed
  1 x B200 with the traffic of 8);
- "short chats" / "quick questions" / "短对话" / "简短问答" set short prompts and answers (rules.yaml, said), and
  8 x H200 then serve DeepSeek-V3 at 20 req/s with the queue modelled (no false "no layout");
- cards named that do not keep up are headlined as such, never "Buy";
- at a rate the format is chosen on cards (cost): fp8 copies beat a 4-bit plan whose prefill runs at 16 bits;
- "800 input 300 output tokens" is the prompt and the output;
- a percentile per-token target (p95 ITL) is held as a mean below it, by tail_factor, and said;
- W8A8 INT8 prefill runs on INT8 tensor cores (A100: about 1.6x BF16);
- latency targets are sized with TARGET_MARGIN to spare, or the plan says it is at the edge.
Generated over fillers, spellings and both languages, asserting values."""
from __future__ import annotations

import pytest
from conversation import run_conversation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import rules
from gpu_advisor.tools.common import ToolError
from gpu_advisor.tools.queueing import (
    ITL_P99_OVER_MEAN,
    MAX_UTILISATION,
    TARGET_MARGIN,
    TPOT_P99_OVER_MEAN,
    RateInput,
    per_token_tail,
    size_by_rate,
    tail_factor,
)
from gpu_advisor.tools.recommend import Recommendation, Workload, recommend
from gpu_advisor.tools.throughput import SpeedInput, speed


def _prefill_capacity(model: str, gpu: str, precision: str, engine: str, kv: str | None, tp: int, pp: int,
                      replicas: int, prompt: int) -> float:
    """Prompt tokens a second the copies prefill at full load: replicas x one copy's prefill rate."""
    one = speed(SpeedInput(model=model, precision=precision, gpu=gpu, gpus=tp, pp=pp, batch=1, context=prompt,
                           engine=engine, kv_precision=kv)).prefill_tokens_per_s
    return replicas * one


def _plan_keeps_up(rec: Recommendation, rate: float, prompt: int) -> None:
    """The invariant on a reply's plan: reported as serving the rate, its copies prefill every prompt within the
    utilisation cap, and it has no fewer cards than the queueing model sized."""
    best, t = rec.best, rec.traffic
    assert best is not None and t is not None
    if not best.ok or t.owned_short or t.queue_unsized or t.utilisation is None:
        return  # said to fall short (its row and the traffic say so): not reported as serving the rate
    assert best.gpus >= (t.gpus or 0), (best.gpus, t.gpus)
    unit = best.gpus // best.replicas
    tp = best.tp or unit // best.pp
    cap = _prefill_capacity(rec.workload.model, best.gpu, best.precision or "bf16",
                            "sglang" if best.engine == "sglang" else "vllm", best.kv_precision, tp, best.pp,
                            best.replicas, prompt)
    assert rate * prompt <= cap * MAX_UTILISATION * 1.001, (best.gpu, best.gpus, best.precision, rate * prompt, cap)


# --- 1. prefill capacity: never a layout reported as serving a rate it cannot prefill -------------------------

@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rate=st.floats(0.5, 60), prompt=st.integers(100, 8000), output=st.integers(20, 800),
       case=st.sampled_from([("qwen2.5-32b", "b200", "int4"), ("qwen2.5-32b", "h100-sxm", "fp8"),
                             ("llama-3.1-8b", "l40s", "fp8"), ("llama-3.1-70b", "a100-80gb-sxm", "w8a8-int8"),
                             ("llama-3.1-70b", "h100-sxm", "awq")]),
       target=st.sampled_from([None, 500.0, 2000.0]))
def test_every_sized_layout_prefills_its_rate(rate: float, prompt: int, output: int, case: tuple[str, str, str],
                                              target: float | None) -> None:
    model, gpu, precision = case
    try:
        r = size_by_rate(RateInput(model=model, gpu=gpu, precision=precision, requests_per_s=rate,
                                   prompt_tokens=prompt, output_tokens=output, ttft_target_ms=target,
                                   ttft_percentile=0.95))
    except ToolError:
        return  # no layout: said as such, never a plan
    cap = _prefill_capacity(model, gpu, precision, "vllm", None, r.tp, r.pp, r.replicas, prompt)
    assert rate * prompt <= cap * MAX_UTILISATION * 1.001, (r.gpus, r.tp, r.replicas, rate * prompt, cap)
    assert r.utilisation <= MAX_UTILISATION + 1e-9


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rate=st.sampled_from([5.0, 15.0, 40.0]), prompt=st.sampled_from([300, 2000, 4096]),
       precision=st.sampled_from([None, "int4", "awq"]), budget=st.sampled_from([None, 5_000.0, 20_000.0]))
def test_every_reported_plan_prefills_its_rate(rate: float, prompt: int, precision: str | None,
                                               budget: float | None) -> None:
    w = Workload(phase="serve", model="qwen2.5-32b", serve_precision=precision, requests_per_s=rate,
                 prompt_tokens=prompt, output_tokens=256, ttft_ms=500, ttft_percentile=0.95,
                 budget_usd_per_month=budget, utilisation=1.0, flexible=["context", "preference", "region"])
    _plan_keeps_up(recommend(w), rate, prompt)


# --- 2. the int4 follow-up over a budget (N3 #12) -----------------------------------------------------------

def test_int4_over_budget_is_the_cards_the_rate_needs() -> None:
    w = Workload(phase="serve", model="qwen2.5-32b", serve_precision="int4", requests_per_s=15, ttft_ms=500,
                 ttft_percentile=0.95, budget_usd_per_month=20_000, utilisation=1.0,
                 flexible=["context", "preference", "region"])
    rec = recommend(w)
    assert rec.best is not None and rec.traffic is not None
    assert rec.best.gpu == "b200" and rec.best.gpus == rec.traffic.gpus == 8  # 2 copies of TP4, never 1 card
    assert rec.best.meets.get("budget") is False and not rec.best.ok  # about $39.7k a month, over the $20k said
    _plan_keeps_up(rec, 15, 4096)


@pytest.mark.parametrize("first, then", [
    ("we're launching in 3 weeks, need to serve qwen2.5-32b with p95 ttft under 500ms at 15 rps, budget 20k/month. "
     "what setup", "what would it cost if we used awq int4 instead"),
    ("hi, serving qwen2.5-32b at 15 req/s, p95 ttft < 500 ms, budget $20k a month", "and with int4?"),
])
def test_int4_follow_up_never_headlines_one_card(first: str, then: str) -> None:
    reply = run_conversation([first, then])[-1]
    head = str(reply.content).splitlines()[0]
    rec = reply.additional_kwargs["gpu_advisor"]["results"]["recommend"]
    assert rec["best"]["precision"] in ("int4", "awq") and rec["best"]["gpus"] >= rec["traffic"]["gpus"] >= 8, head
    assert "1 × " not in head and "over your $20,000 a month" in str(reply.content)
    t = rec["traffic"]  # 8-bit copies on the same card take fewer (prefill runs at 16 bits in 4-bit), said
    assert t["fewer_precision"] == "fp8" and t["fewer_gpus"] < t["gpus"], t
    assert f"In fp8 the same rate takes {t['fewer_gpus']} × " in str(reply.content)


def test_int4_follow_up_zh_says_the_eight_bit_count() -> None:
    reply = run_conversation(["三周后上线，要部署 qwen2.5-32b，p95 首 token 500ms 以内，每秒 15 个请求，预算每月 2 万美元，怎么配",
                              "改用 awq int4 的话要多少钱"])[-1]
    t = reply.additional_kwargs["gpu_advisor"]["results"]["recommend"]["traffic"]
    assert t["fewer_gpus"] is not None and t["fewer_gpus"] < t["gpus"]
    assert f"改用 fp8，同样的请求速率只要 {t['fewer_gpus']} 张" in str(reply.content)


# --- 3. short chats (N3 #6) ---------------------------------------------------------------------------------

SHORT = {"en": ["mostly short chats", "short chats mostly", "it's quick questions", "mainly short Q&A",
                "brief conversations", "short chat turns"],
         "zh": ["大多是短对话", "主要是简短问答", "基本是简单问答", "都是短聊天"]}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_short_chats_set_short_lengths_and_say_so(lang: str) -> None:
    r = rules()
    for words in SHORT[lang]:
        text = (f"serve llama 3.1 8b at 20 req/s, {words}" if lang == "en"
                else f"部署 llama 3.1 8b，每秒 20 个请求，{words}")
        u = understand(text)
        assert u.updates.get("prompt_tokens") == r.short_chat_prompt_tokens == 500, (text, u.updates)
        assert u.updates.get("output_tokens") == r.short_chat_output_tokens == 200, (text, u.updates)
        assert ("note.short_chat", {"prompt": "500", "output": "200"}) in u.notes, (text, u.notes)


def test_a_length_said_beside_short_chats_wins() -> None:
    u = understand("serve llama 3.1 8b at 20 req/s, mostly short chats, 300 token prompts")
    assert (u.updates.get("prompt_tokens"), u.updates.get("output_tokens")) == (300, 200)
    assert [k for k, _ in u.notes if k.startswith("note.short_chat")] == ["note.short_chat_output"]
    u = understand("serve llama 3.1 8b at 20 req/s, long chats, prompts about 6k tokens")
    assert u.updates.get("prompt_tokens") == 6000 and "output_tokens" not in u.updates
    for text in ("quick question: serve llama 3.1 8b at 20 req/s", "短问题：部署 llama 3.1 8b，每秒 20 个请求"):
        u = understand(text)  # the user's own question, not the service's traffic
        assert "prompt_tokens" not in u.updates and "output_tokens" not in u.updates, (text, u.updates)


@pytest.mark.parametrize("text", [
    "vllm or sglang for deepseek v3 on 8xh200? we do ~20 req/s mostly short chats",
    "deepseek v3 on 8x h200, sglang or vllm? about 20 requests a second, quick questions",
    "deepseek v3 用 8 张 h200，vllm 还是 sglang？每秒大约 20 个请求，大多是短对话",
])
def test_8_h200_serve_deepseek_short_chats(text: str) -> None:
    reply = run_conversation([text])[-1]
    results = reply.additional_kwargs["gpu_advisor"]["results"]
    t = results["recommend"]["traffic"]
    assert (t["prompt_tokens"], t["output_tokens"]) == (500, 200)
    assert not t["owned_short"] and not t["queue_unsized"]  # the queue is modelled on the 8 cards named
    # 23% (was 30-80%): the 8 cards run data-parallel attention with expert parallel, each rank dispatching only its
    # own tokens (h-moe; LMSYS/DeepSeek's published EP decode, tests/reference/moe_serving.csv): short chats load them lightly
    assert 0.15 <= t["utilisation"] <= MAX_UTILISATION and t["ttft_p99_s"] < 0.5
    assert results["recommend"]["best"]["gpus"] == 8


# 24, not 32 (h-moe): one copy of three servers as data-parallel attention with expert parallel (each GPU prefills its
# own prompts and dispatches only its own tokens), was copies of two servers as TP8 x PP2 (session 15, h-fig3)
@pytest.mark.parametrize("text, words", [
    ("vllm or sglang for deepseek v3 on 8xh200? we do ~20 req/s, prompts about 4k tokens",
     "not enough for 20 requests a second (about 24 × NVIDIA H200 SXM 141GB needed)"),
    ("deepseek v3 用 8 张 h200 部署，每秒 20 个请求，输入 4000 token，vllm 还是 sglang",
     "撑不住每秒 20 个请求（大约需要 24 张 NVIDIA H200 SXM 141GB）"),
])
def test_named_cards_short_of_the_rate_are_headlined_so(text: str, words: str) -> None:
    # the engine asked about is answered first (session 14, review AF E5); the plan's headline then says the cards fall
    # short of the rate, never "Buy"
    text_out = str(run_conversation([text])[-1].content)
    assert text_out.splitlines()[0].startswith(("**Serving engines**", "**推理引擎**")), text_out[:200]
    head = next(line for line in text_out.splitlines() if line.startswith("## "))
    assert words in head and "Buy" not in head and "购买" not in head, head


# --- 4. the format on cost at a rate (N2 #19) ---------------------------------------------------------------

def test_fp8_copies_beat_a_four_bit_plan_at_a_rate() -> None:
    w = Workload(phase="serve", model="llama-3.1-70b", requests_per_s=30, prompt_tokens=4000, output_tokens=300,
                 ttft_ms=2000, ttft_percentile=0.95, utilisation=1.0, candidates=["h100-sxm"],
                 flexible=["context", "precision", "preference", "region"])
    rec = recommend(w)
    assert rec.best is not None and rec.best.precision == "fp8" and rec.best.gpus == 44  # 11 x TP4, not 76 in int4
    four = size_by_rate(RateInput(model="llama-3.1-70b", gpu="h100-sxm", precision="int4", requests_per_s=30,
                                  prompt_tokens=4000, output_tokens=300, ttft_target_ms=2000, ttft_percentile=0.95))
    assert four.gpus > rec.best.gpus  # 4-bit weights unpack to 16 bits for prefill: more copies at this rate
    _plan_keeps_up(rec, 30, 4000)


IN_OUT = ["avg {i} input {o} output tokens", "{i} input tokens, {o} output tokens", "{i} input, {o} output",
          "{i} in {o} out", "{i} inputs / {o} outputs", "around {i} input and {o} output"]


@pytest.mark.parametrize("form", IN_OUT)
def test_input_and_output_said_together(form: str) -> None:
    for i, o in ((800, 300), (1500, 200), (2000, 150)):
        text = f"llama 3.1 70b, 30 requests per second, {form.format(i=i, o=o)}. how many h100s"
        u = understand(text)
        assert (u.updates.get("prompt_tokens"), u.updates.get("output_tokens")) == (i, o), (text, u.updates)


def test_70b_at_30_rps_on_h100_is_ten_cards_in_fp8() -> None:
    reply = run_conversation(["need p95 latency under 2s for llama 3.1 70b, 30 requests per second, avg 800 input "
                              "300 output tokens. how many h100s"])[-1]
    rec = reply.additional_kwargs["gpu_advisor"]["results"]["recommend"]
    assert rec["traffic"]["prompt_tokens"] == 800
    assert rec["best"]["precision"] == "fp8" and rec["best"]["gpus"] == 10  # 5 x TP2, not 76 in int4


# --- 5. a percentile per-token target (N1 #20) --------------------------------------------------------------

ITL = {"en": ["need {p} inter-token latency under {ms}ms", "{p} ITL below {ms} ms", "ITL {p} < {ms}ms",
              "keep the {p} time per output token under {ms} ms"],
       "zh": ["{p} 每个token不超过{ms}毫秒", "{p} token间隔要在{ms}ms以内", "{p} 出字间隔不超过{ms}毫秒",
              "{p} token间延迟低于{ms}毫秒"]}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_percentile_per_token_target_is_held_below_as_a_mean(lang: str) -> None:
    for form in ITL[lang]:
        for name, q in (("p90", 0.9), ("p95", 0.95), ("p99", 0.99)):
            for ms in (30, 50, 80):
                text = "gpt-oss-120b, 100 concurrent, " + form.format(p=name, ms=ms)
                u = understand(text)
                step = "time per output token" not in form and "每个token" not in form  # ITL, else TPOT
                want = per_token_tail(q, step) * 1000 / ms
                assert u.updates.get("min_tokens_per_s") == pytest.approx(want, rel=1e-3), (text, u.updates)
                note = dict(u.notes).get("note.per_step_target_tail" if step else "note.per_token_target_tail")
                assert note is not None and note["pct"] == name and note["ms"] == f"{ms}", (text, u.notes)


def test_per_token_tails_are_the_measured_ratios() -> None:
    """The p99 over the mean of TPOT and of ITL are the medians of vllm bench serve's runs on record."""
    import csv
    import statistics
    from pathlib import Path

    rows = list(csv.DictReader((Path(__file__).parent / "reference" / "per_token_tails.csv").open(encoding="utf-8")))
    runs: dict[tuple[str, str], dict[str, float]] = {}
    fixed = {r["source_id"] for r in rows if r["load_kind"] == "fixed_concurrency"}
    for r in rows:
        metric = r["metric"]
        if metric.split("_")[0] in ("tpot", "itl") and metric.split("_")[1] in ("mean", "p99"):
            runs.setdefault((r["source_id"], metric.split("_")[0]), {})[metric.split("_")[1]] = float(r["value"])
    for kind, constant in (("tpot", TPOT_P99_OVER_MEAN), ("itl", ITL_P99_OVER_MEAN)):
        # TPOT: the runs at a fixed concurrency only; the queueing model adds the in-flight swing itself (review CF #9)
        ratios = [v["p99"] / v["mean"] for (s, k), v in runs.items() if k == kind and {"p99", "mean"} <= set(v)
                  and (kind == "itl" or s in fixed)]
        assert len(ratios) >= 3
        assert statistics.median(ratios) == pytest.approx(constant, abs=0.005)
    assert per_token_tail(0.99) == pytest.approx(TPOT_P99_OVER_MEAN)
    # an ITL target is held like a TPOT one (the prefill chunk capped); the untuned ITL tail is said beside it
    assert per_token_tail(0.99, step=True) == pytest.approx(TPOT_P99_OVER_MEAN)
    assert per_token_tail(0.99, step=True, untuned=True) == pytest.approx(ITL_P99_OVER_MEAN)
    assert per_token_tail(0.5) == per_token_tail(0.5, step=True) == 1.0
    assert 1 < per_token_tail(0.9) < per_token_tail(0.95) < per_token_tail(0.99)


def test_tail_factor_values() -> None:
    assert tail_factor(0.5) == 1.0  # a median is held as the mean
    assert tail_factor(0.9) == pytest.approx(1.64, abs=0.01)
    assert tail_factor(0.95) == pytest.approx(1.94, abs=0.01)
    assert tail_factor(0.99) == pytest.approx(2.68, abs=0.01)


def test_p95_itl_for_gpt_oss_is_sized_at_the_mean_below() -> None:
    replies = run_conversation(["evaluating gpt-oss-120b for an internal coding assistant, 1000 devs, maybe 100 "
                                "concurrent at peak, need p95 inter-token latency under 50ms. sizing?",
                                "working hours mostly but size it for the peak"])
    assert "sized the mean at 46.6 ms" in str(replies[0].content)  # p95 at 1.07x since review CF #9 (it was 38.1 ms) and "--max-num-batched-tokens" in str(replies[0].content)
    # the plan comes in the first turn (no how-busy question with a target said); the second changes nothing
    best = replies[0].additional_kwargs["gpu_advisor"]["results"]["recommend"]["best"]
    assert best["decode_tokens_per_s"] >= 1000 / 50 * per_token_tail(0.95, step=True)  # about 21.5 tokens/s per user, not 20
    assert "nothing that changes the answer" in str(replies[-1].content)


# --- 6. W8A8 INT8 prefill on INT8 tensor cores --------------------------------------------------------------

def test_w8a8_prefills_on_int8_units() -> None:
    def pre(gpu: str, precision: str) -> float:
        return speed(SpeedInput(model="llama-3.1-8b", precision=precision, gpu=gpu, gpus=1, batch=1, context=2048,
                                engine="vllm")).prefill_tokens_per_s

    for gpu in ("a100-80gb-sxm", "a800-80gb-sxm", "ascend-910b"):
        ratio = pre(gpu, "w8a8-int8") / pre(gpu, "bf16")
        assert 1.45 <= ratio <= 1.75, (gpu, ratio)  # 2x the peak, at the quantized kernels' lower share of it
        assert pre(gpu, "int8") < pre(gpu, "bf16")  # weight-only int8 unpacks to 16 bits
    assert pre("h100-sxm", "w8a8-int8") == pytest.approx(pre("h100-sxm", "fp8"))  # Hopper: INT8 = FP8 rate
    assert pre("v100-sxm2-32gb", "w8a8-int8") == pytest.approx(pre("v100-sxm2-32gb", "int8"))  # no INT8 figure


# --- 7. a margin under latency targets (N1 #11) -------------------------------------------------------------

def test_e2e_target_sized_with_a_margin() -> None:
    r = size_by_rate(RateInput(model="llama-3.1-8b", gpu="h100-sxm", precision="fp8", requests_per_s=200,
                               prompt_tokens=800, output_tokens=150, e2e_p99_ms=2000))
    assert r.e2e_p99_s <= 2.0 * (1 - TARGET_MARGIN) and r.gpus == 10 and not r.edge_of_target
    assert r.target_margin == TARGET_MARGIN
    reply = run_conversation(["llama 3.1 8b at 200 rps, p99 <2s e2e, 800 in 150 out. how many h100s"])[-1]
    text = str(reply.content)
    assert "sized with 5% to spare" in text and "about 1.7 s for 150 output tokens" in text


def test_a_target_only_met_without_the_margin_is_said_at_the_edge() -> None:
    args = dict(model="llama-3.1-8b", gpu="h100-sxm", precision="fp8", prompt_tokens=800, output_tokens=150, tp=1)
    idle = size_by_rate(RateInput(**args, requests_per_s=0.01))
    target = idle.ttft_p99_s * 1000 * 1.04  # reachable, but not with 5% to spare
    r = size_by_rate(RateInput(**args, requests_per_s=0.01, ttft_p99_ms=target))
    assert r.edge_of_target and r.target_margin == 0.0 and r.ttft_p99_s * 1000 <= target
    assert any("at the edge" in x for x in r.warnings)
    with pytest.raises(ToolError):  # below what the card does with no queue at all: no plan
        size_by_rate(RateInput(**args, requests_per_s=0.01, ttft_p99_ms=idle.ttft_p99_s * 1000 * 0.5))


# --- 8. a bare "latency" is the first token's, and the whole answer's speed is said (N2 #19) -----------------

@pytest.mark.parametrize("text, output, tps", [
    ("need p95 latency under 2s for llama 3.1 70b, 30 requests per second, avg 800 input 300 output tokens", 300, 150),
    ("llama 3.1 70b at 30 rps, latency below 4 seconds, 800 in 600 out", 600, 150),
    ("llama 3.1 70b 每秒 30 个请求，p95 延迟 2 秒以内，输入 800 输出 300", 300, 150),
    ("llama 3.1 70b 每秒 30 个请求，延迟要求 1 秒以内，输入 800 输出 200", 200, 200),
])
def test_a_bare_latency_is_the_first_token_and_the_whole_answer_is_said(text: str, output: int, tps: int) -> None:
    u = understand(text)
    assert "ttft_ms" in u.updates and "e2e_ms" not in u.updates, (text, u.updates)
    note = dict(u.notes).get("note.latency_first_token_or_e2e")
    assert note is not None and note["output"] == f"{output}" and note["tps"] == f"{tps}", (text, u.notes)


@pytest.mark.parametrize("text", ["llama 3.1 70b at 30 rps, p95 ttft under 2s, 800 in 300 out",
                                  "llama 3.1 70b at 30 rps, first token within 2 seconds, 800 in 300 out",
                                  "llama 3.1 70b 每秒 30 个请求，p95 首token延迟 2 秒以内，输入 800 输出 300"])
def test_a_first_token_target_gets_no_latency_note(text: str) -> None:
    u = understand(text)
    assert u.updates.get("ttft_ms") == 2000, (text, u.updates)
    assert not any(k.startswith("note.latency_first_token") for k, _ in u.notes), (text, u.notes)
