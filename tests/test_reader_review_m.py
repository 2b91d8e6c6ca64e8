"""Round M of the review: a rate said just before the prompt length ('峰值 QPS 30，输入 1000 token 输出 200') leaves the
prompt its own (the rate's comma is no part of a number), prompt lengths take their fillers ('input avg 1000 tokens',
'输入平均'), rates glued to their unit ('30qps', '30req/s') are rates, and '延迟' is a latency target."""
from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand

RATES = [("峰值 QPS 30，", 30.0), ("30 qps, ", 30.0), ("QPS 15，", 15.0), ("峰值30qps，", 30.0), ("about 12 req/s, ", 12.0)]
PROMPTS = [("输入 {p} token 输出 {o}", "zh"), ("输入平均 {p} token 输出 {o}", "zh"), ("输入大概 {p} token，输出 {o}", "zh"),
           ("input avg {p} tokens, output {o}", "en"), ("prompts each about {p} tokens output {o}", "en"),
           ("input around {p} tokens, output {o}", "en"), ("average input {p} tokens, output {o}", "en")]
MODELS = ["qwen2.5 32b ", "部署 Llama 3.1 8B，"]


@pytest.mark.parametrize("rate, rps", RATES)
@pytest.mark.parametrize("prompt, _lang", PROMPTS)
@pytest.mark.parametrize("model", MODELS)
def test_rate_then_prompt_and_output(rate, rps, prompt, _lang, model):
    for p, o in ((1000, 200), (2000, 300), (1500, 500)):
        text = model + rate + prompt.format(p=p, o=o)
        u = understand(text)
        assert u.updates.get("requests_per_s") == rps, text
        assert u.updates.get("prompt_tokens") == p, text
        assert u.updates.get("output_tokens") == o, text
        assert "context" not in u.updates, text


@pytest.mark.parametrize("glued, rps", [("30qps", 30.0), ("30QPS", 30.0), ("12rps", 12.0), ("8req/s", 8.0),
                                        ("40 rps", 40.0), ("qps 25", 25.0)])
@pytest.mark.parametrize("frame", ["serve qwen 32b at {r}", "qwen2.5 32b 峰值 {r}", "llama 8b api, peak {r}, p95 ttft 1s"])
def test_glued_rates(glued, rps, frame):
    u = understand(frame.format(r=glued))
    assert u.updates.get("requests_per_s") == rps


@pytest.mark.parametrize("said, ms, pct", [("p99 延迟 2 秒以内", 2000.0, 0.99), ("延迟要求 p95 500ms 以内", 500.0, 0.95),
                                           ("p90 时延 800ms 以内", 800.0, 0.9), ("延迟 1 秒以内", 1000.0, None)])
@pytest.mark.parametrize("rest", ["qwen2.5 32b，峰值 QPS 30", "部署 glm-4-9b，20 个并发"])
def test_chinese_latency_words(said, ms, pct, rest):
    for text in (f"{said}，{rest}", f"{rest}，{said}"):
        u = understand(text)
        assert u.updates.get("ttft_ms") == ms, text
        assert u.updates.get("ttft_percentile") == pct, text


def test_a_number_before_prompts_still_labels_the_output():
    for text, p, o in (("500 token输入 50 输出", 500, 50), ("2000 prompt tokens output 300, serve qwen 7b", 2000, 300)):
        u = understand(text)
        assert u.updates.get("prompt_tokens") == p and o in (u.updates.get("output_tokens"),
                                                             u.updates.get("batch_output_tokens")), text


@pytest.mark.parametrize("a, b", itertools.permutations(["30 qps", "input avg 1000 tokens", "output 200"], 2))
def test_orders(a, b):
    u = understand(f"serve qwen2.5 32b, {a}, {b}")
    said = {"30 qps": ("requests_per_s", 30.0), "input avg 1000 tokens": ("prompt_tokens", 1000),
            "output 200": ("output_tokens", 200)}
    for part in (a, b):
        slot, value = said[part]
        assert u.updates.get(slot) == value, (a, b, u.updates)


@pytest.mark.parametrize("mac, card", [("m3 max 64g", "apple-m3-max-40c-64gb"), ("m3 max 64gb", "apple-m3-max-40c-64gb"),
                                       ("M3 Max 64G", "apple-m3-max-40c-64gb")])
@pytest.mark.parametrize("frame", ["我有一台 {m} 的 macbook pro，本地能跑 qwen2.5 32b 吗", "家里一台{m}的mac，想跑 qwen2.5 32b"])
def test_a_mac_with_max_in_its_name_is_no_server_of_cards(mac, card, frame):
    u = understand(frame.format(m=mac))
    assert u.owned_untyped is None
    assert u.updates.get("owned") == [f"1x {card}"] or u.updates.get("only") == [card]


def test_servers_of_eight_still_read():
    for text in ("2台H100×8 部署 deepseek v3", "2台h100x8 部署 deepseek v3", "两台 A800 80G x8，跑 DeepSeek-V3"):
        u = understand(text)
        assert u.updates.get("server_gpus") == 8, text
        assert any(c.startswith("16x ") for c in (u.updates.get("owned") or u.updates.get("only") or [])), text
