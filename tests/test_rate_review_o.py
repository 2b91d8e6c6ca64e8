"""Review O (rate class): traffic as people state it is sized as that traffic.

- a request rate with prompt/output lengths and a TTFT/TPOT/e2e target at p95/p99 is sized as that rate: the
  requests in flight are rate x time in system (Little's law) from the tool's own figures, copies grow with the
  rate, never one user (O1 #1, #2, #11; P1 E2);
- the train-then-serve plan's serving half uses the rate (O1 #17: "finetune qwen3 8b with lora and serve it ...
  5 rps at peak");
- cards you own, at a rate: a yes with the headroom, or a no with how many more of that card (O1 #16, O3 #18);
- one per-user speed: the tokens/s shown is the queueing model's time per output token at that load (P1 E2:
  45 tokens/s per user beside a token every 40 ms);
- a product (customer-facing chat, 客服, a public API) is held at the rules' per-user speed floor at load;
- the queueing approximation (which one, when it breaks) is said once, in both languages.
Generated over rates, lengths, targets, percentiles, phrasings and both languages, asserting values."""
from __future__ import annotations

import itertools
import math
from typing import Any

import pytest
from conversation import run_conversation

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import rules
from gpu_advisor.tools.queueing import RateInput, size_by_rate
from gpu_advisor.tools.recommend import Workload, recommend

FLOOR = rules().product_min_tokens_per_s


def _results(msg: Any) -> dict[str, Any]:
    return msg.additional_kwargs["gpu_advisor"]["results"]


# --- 1. the reader: rate, lengths, target and percentile, in any phrasing and both languages -------------------

EN_RATE = ["{r} rps", "{r} requests per second", "{r} req/s", "peak {r} QPS", "{r} requests a second at peak"]
ZH_RATE = ["每秒{r}个请求", "峰值{r} QPS", "QPS {r}", "每秒 {r} 个请求"]
EN_TARGET = {"ttft": "{p} ttft under {ms}ms", "e2e": "{p} end to end under {s}s", "tpot": "{p} tpot under {ms}ms"}
ZH_TARGET = {"ttft": "{p}首token {ms}ms以内", "e2e": "{p}端到端{s}秒以内", "tpot": "{p}每个token间隔{ms}ms以内"}
CASES = list(itertools.product([5, 30, 200], [(500, 20), (1500, 300)], ["ttft", "e2e", "tpot"], ["p95", "p99"]))


@pytest.mark.parametrize(("rate", "lengths", "kind", "pct"), CASES)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_rate_and_target_are_read(rate: int, lengths: tuple[int, int], kind: str, pct: str, lang: str) -> None:
    prompt, output = lengths
    i = (rate + prompt + len(kind)) % 4
    if lang == "en":
        said = EN_RATE[i % len(EN_RATE)].format(r=rate)
        target = EN_TARGET[kind].format(p=pct, ms=800, s=10)
        text = f"serve qwen2.5 32b at {said}, prompts {prompt} tokens, outputs {output} tokens, {target}"
    else:
        said = ZH_RATE[i % len(ZH_RATE)].format(r=rate)
        target = ZH_TARGET[kind].format(p=pct, ms=800, s=10)
        text = f"部署qwen2.5 32b，{said}，输入{prompt} token，输出{output}，{target}"
    u = understand(text).updates
    assert u["requests_per_s"] == rate
    assert (u["prompt_tokens"], u["output_tokens"]) == (prompt, output)
    if kind == "ttft":
        assert u["ttft_ms"] == 800 and u["ttft_percentile"] == (0.95 if pct == "p95" else 0.99)
    elif kind == "e2e":
        assert u["e2e_ms"] == 10_000 and u["ttft_percentile"] == (0.95 if pct == "p95" else 0.99)
    else:  # a tail time per token: a decode speed at least 1000/800 tokens/s, sized below the tail
        assert u["min_tokens_per_s"] >= 1000 / 800
    assert "users" not in u  # never one user: the users in flight follow from the rate


# --- 2. the tool: Little's law, one per-user speed, copies monotone in the rate --------------------------------

def _serve(rate: float, prompt: int, output: int, **more: Any) -> Any:
    return recommend(Workload(phase="serve", model="qwen2.5-32b", requests_per_s=rate, prompt_tokens=prompt,
                              output_tokens=output, utilisation=1.0, **more))


@pytest.mark.parametrize(("rate", "lengths", "target"), list(itertools.product(
    [5.0, 30.0], [(500, 20), (1500, 300)], [{"ttft_ms": 2000.0, "ttft_percentile": 0.95},
                                            {"ttft_ms": 1000.0, "ttft_percentile": 0.99},
                                            {"e2e_ms": 30_000.0, "ttft_percentile": 0.99},
                                            {"min_tokens_per_s": 25.0}])))
def test_littles_law_and_one_speed(rate: float, lengths: tuple[int, int], target: dict[str, float]) -> None:
    prompt, output = lengths
    rec = _serve(rate, prompt, output, **target)
    t, best = rec.traffic, rec.best
    assert t is not None and best is not None
    assert t.requests_per_s == rate and (t.prompt_tokens, t.output_tokens) == (prompt, output)
    assert math.isclose(t.in_flight, rate * t.time_in_system_s, rel_tol=1e-6)  # Little's law, the tool's figures
    assert t.users_sized >= t.in_flight and t.users_sized > 1  # the p99 in flight held, never one user
    assert rec.workload.users == t.users_sized
    if t.utilisation is not None:  # queue-modelled: the plan's per-user speed is the time per token at that load
        assert best.at_load and math.isclose(best.tpot_s, t.tpot_p50_s)
        assert math.isclose(best.decode_tokens_per_s * best.tpot_s, 1.0)
        assert math.isclose(best.aggregate_tokens_per_s, rate * output)
        assert t.queue_model == "mg1" and 0 < t.utilisation <= 0.8
        assert math.isclose(t.time_in_system_s, t.ttft_p50_s + (output - 1) * t.tpot_p50_s, rel_tol=0.25)
    if "min_tokens_per_s" in target:
        assert best.decode_tokens_per_s >= target["min_tokens_per_s"]


@pytest.mark.parametrize(("gpu", "precision"), [("h100-sxm", "fp8"), ("l40s", "fp8"), ("a100-80gb-sxm", "int8")])
@pytest.mark.parametrize("lengths", [(500, 100), (2000, 300)])
def test_copies_grow_with_the_rate(gpu: str, precision: str, lengths: tuple[int, int]) -> None:
    prompt, output = lengths
    gpus = []
    for rate in (2, 5, 10, 20, 40):
        r = size_by_rate(RateInput(model="qwen2.5-32b", gpu=gpu, precision=precision, requests_per_s=rate,
                                   prompt_tokens=prompt, output_tokens=output, ttft_p99_ms=3000, max_gpus=1024))
        assert math.isclose(r.concurrency, rate * (r.concurrency / rate))
        gpus.append(r.gpus)
    assert gpus == sorted(gpus) and gpus[-1] > gpus[0]  # monotone in the rate, and it does grow


def test_plan_copies_monotone_in_the_rate() -> None:
    counts = []
    for rate in (5.0, 20.0, 60.0):
        rec = _serve(rate, 1000, 200, ttft_ms=2000.0, ttft_percentile=0.99, candidates=["h100-sxm"])
        counts.append(rec.traffic.gpus)
    assert counts == sorted(counts) and counts[-1] > counts[0]


# --- 3. a product's per-user speed floor (rules data) -----------------------------------------------------------

@pytest.mark.parametrize("rate", [10.0, 40.0])
def test_product_speed_floor_at_load(rate: float) -> None:
    plain = _serve(rate, 2000, 300, ttft_ms=2000.0, ttft_percentile=0.95, candidates=["h100-sxm"])
    product = _serve(rate, 2000, 300, ttft_ms=2000.0, ttft_percentile=0.95, candidates=["h100-sxm"], product=True)
    assert product.best.decode_tokens_per_s >= FLOOR  # at that load, from the queueing model
    assert product.traffic.gpus >= plain.traffic.gpus  # holding the floor never takes fewer cards
    stated = _serve(rate, 2000, 300, candidates=["h100-sxm"], product=True, min_tokens_per_s=FLOOR / 2)
    assert stated.workload.product_floor is None  # a speed the user states wins over the floor


@pytest.mark.parametrize(("text", "product"), [
    ("our customer support chatbot on qwen2.5 32b, 20 rps", True),
    ("serve llama 3.1 8b as a public api at 20 req/s", True),
    ("我们要上线一个客服bot，Qwen2.5-32B，峰值20 QPS", True),
    ("把Llama 3.3 70B部署成API对外服务，每秒20个请求", True),
    ("internal api for our team with llama 3.1 8b, 20 rps", False),
    ("公司内部知识库问答，qwen2.5 32b，每秒10个请求", False),
])
def test_product_is_read(text: str, product: bool) -> None:
    assert understand(text).updates.get("product", False) is product


@pytest.mark.parametrize(("turns", "lang"), [
    (["我们要上线一个客服bot，用Qwen2.5-72B-Instruct，峰值大概30 QPS，要求p95首token 1秒以内，prompt平均2k token，输出300"], "zh"),
    (["we launch a customer support chatbot on qwen2.5 72b, peak 30 rps, p95 ttft under 1s, 2k tokens in, 300 out"], "en"),
])
def test_product_conversation_says_the_floor_once(turns: list[str], lang: str) -> None:
    reply = run_conversation(turns)[-1]
    text = str(reply.content)
    best = _results(reply)["recommend"]["best"]
    assert best["decode_tokens_per_s"] >= FLOOR
    said = "面向客户的产品在最忙时每个用户至少要" if lang == "zh" else "a product people use needs at least"
    assert text.count(said) == 1 and f"{FLOOR:,.0f}" in text
    queue = "排队模型" if lang == "zh" else "How the queue is modelled"
    assert text.count(queue) == 1  # the approximation, once
    assert ("泊松" in text and "失准" in text) if lang == "zh" else ("Poisson" in text and "breaks down" in text)


# --- 4. train, then serve at a rate --------------------------------------------------------------------------------

@pytest.mark.parametrize(("turns", "rate"), [
    (["startup here, want to finetune qwen3 8b with lora and serve it, budget like 5k usd/month total. what should i rent",
      "about 20k examples. serving maybe 5 rps at peak"], 5.0),
    (["fine-tune qwen3 8b with lora on 20k examples, then serve it at 12 requests per second, what should we rent"], 12.0),
    (["想用LoRA微调Qwen3-8B然后上线服务，数据2万条，上线后峰值每秒8个请求，租什么卡"], 8.0),
])
def test_train_then_serve_sizes_the_rate(turns: list[str], rate: float) -> None:
    reply = run_conversation(turns)[-1]
    rec = _results(reply)["recommend"]
    t = rec["traffic"]
    assert t is not None and t["requests_per_s"] == rate
    assert t["users_sized"] >= t["in_flight"] > 1  # the serving half holds the rate's requests in flight
    assert math.isclose(t["in_flight"], rate * t["time_in_system_s"], rel_tol=1e-6)
    assert rec["training_run"] is not None and rec["training_run"]["training_hours"] > 0
    assert rec["workload"]["users"] == t["users_sized"]


def test_train_then_serve_grows_with_the_rate() -> None:
    def plan(rate: float) -> Any:
        return recommend(Workload(phase="train-and-serve", model="qwen3-8b", method="lora", train_tokens=20_000_000,
                                  requests_per_s=rate, utilisation=1.0, candidates=["h100-sxm"]))
    low, high = plan(2.0), plan(40.0)
    assert low.training_run is not None and high.training_run is not None
    assert high.traffic.gpus >= low.traffic.gpus and high.traffic.in_flight > low.traffic.in_flight


# --- 5. cards you own at a rate: yes with the headroom, no with how many more -----------------------------------

@pytest.mark.parametrize(("text", "lang"), [
    ("we have 8x H100 in prod, serving llama 3.1 8b at 5 rps, 1000 tokens in and 200 out, p99 ttft under 2s. are 8 enough?", "en"),
    ("我们有8张H100，部署Llama 3.1 8B，每秒5个请求，输入1000 token，输出200，p99首token 2秒以内，8张够不够", "zh"),
])
def test_owned_fleet_yes_with_headroom(text: str, lang: str) -> None:
    reply = run_conversation([text])[-1]
    body = str(reply.content)
    t = _results(reply)["recommend"]["traffic"]
    assert body.startswith("**Yes**" if lang == "en" else "**够**")
    assert t["owned_rps"] > t["requests_per_s"]  # what they sustain, above the rate
    assert f"{t['owned_rps']:,.3g}" in body


@pytest.mark.parametrize(("text", "lang"), [
    ("we run llama 3.3 70b in prod on 8x H100, need p99 latency under 2s for 500 rps, avg prompt 1k output 200. "
     "is 8 gpus enough or do we need more", "en"),
    ("我们线上用8张H100跑Llama 3.3 70B，每秒500个请求，输入1000 token，输出200，p99首token 2秒以内，8张够不够", "zh"),
])
def test_owned_fleet_no_with_how_many_more(text: str, lang: str) -> None:
    reply = run_conversation([text])[-1]
    body = str(reply.content)
    rec = _results(reply)["recommend"]
    best, t = rec["best"], rec["traffic"]
    assert body.startswith("**No**" if lang == "en" else "**不够**")
    assert best["gpu"] == "h100-sxm" and best["owned_gpus"] == 8
    more = best["gpus"] - 8
    assert f"{more:,}" in body
    # the added cards are what the queueing model needs for the rate on that card, not what holds it in memory
    need = size_by_rate(RateInput(model="llama-3.3-70b", gpu="h100-sxm", precision=best["precision"],
                                  kv_precision=best["kv_precision"], requests_per_s=500, prompt_tokens=1000,
                                  output_tokens=200, ttft_target_ms=2000, max_gpus=1024))
    assert best["gpus"] == need.gpus and t["gpus"] == need.gpus
    assert t["utilisation"] <= 0.8


def test_owned_fleet_answer_monotone_in_the_rate() -> None:
    def owned(rate: float) -> Any:
        return recommend(Workload(phase="serve", model="llama-3.3-70b", requests_per_s=rate, prompt_tokens=1000,
                                  output_tokens=200, ttft_ms=2000.0, utilisation=1.0, owned=["8x h100-sxm"],
                                  serve_precision="fp8"))
    totals = []
    for rate in (100.0, 300.0, 500.0):
        rec = owned(rate)
        totals.append(rec.best.gpus if rec.best is not None else 0)
    assert totals == sorted(totals) and totals[-1] > 8
