"""Formats weighed on a datacenter card (session 15 fix B, 'fmt'): the datacenter engine's formats (vLLM's FP8 and
AWQ on H100, never Q8_0 or Q4_K_M), each at a load with tokens/s in all, throughput said to count leads, 'int4 awq'
is one format, and 'single user speed' is no count of one user. English and Chinese, several word orders."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.reading.weigh import formats_weighed
from tests.conversation import payload, run_conversation, unexplained_numbers

AWQ_SAID = ["int4 awq", "awq int4", "int4-awq", "4bit awq", "awq", "AWQ 4-bit", "int4 (awq)"]


@pytest.mark.parametrize("awq,order", itertools.product(AWQ_SAID, ["en1", "en2", "zh"]))
def test_int4_awq_is_one_format(awq: str, order: str):
    text = {"en1": f"fp8 vs {awq} for llama 3.3 70b on H100s?",
            "en2": f"{awq} or fp8, which for serving llama 3.3 70b on h100",
            "zh": f"H100上跑llama 3.3 70b，用fp8好还是{awq}好？"}[order]
    assert sorted(formats_weighed(text.lower())) == ["awq", "fp8"]


THROUGHPUT = [
    "fp8 vs int4 awq for serving llama 3.3 70b on H100s - which is faster? we care about throughput more than single user speed",
    "we care about throughput, not single-user latency: fp8 or awq int4 for llama 3.3 70b on h100",
    "uh so fp8 or awq for llama 3.3 70b on H100, throughput matters more than 1 user speed",
    "H100上跑llama 3.3 70b，fp8好还是int4 awq好？我们更看重吞吐，不是单用户速度",
    "吞吐优先：llama 3.3 70b 用 awq int4 还是 fp8，卡是H100",
]


@pytest.mark.parametrize("text", THROUGHPUT)
def test_throughput_first_is_read_and_no_single_user_is_counted(text: str):
    u = understand(text)
    spec = u.ask["weigh"]
    assert sorted(spec["precisions"]) == ["awq", "fp8"] and spec.get("throughput")
    assert u.updates.get("users") is None


@pytest.mark.parametrize("text", ["just me, single user, fp8 or awq for llama 3.1 8b on an h100",
                                  "only 1 user: fp8 vs awq for llama 3.1 8b on a h100"])
def test_a_single_user_said_is_still_one_user(text: str):
    assert understand(text).updates.get("users") == 1


def _weighed(text: str) -> tuple[str, dict]:
    reply = run_conversation([text])[-1]
    data = payload(reply)
    assert data.get("topic") == "weigh", reply.content
    assert unexplained_numbers(reply.content, data["results"]) == [], reply.content
    return reply.content, data["results"]


FOUR_H100 = [
    ("en", "fp8 or awq int4 for serving qwen2.5-72b-instruct on H100s? care about quality but also throughput, we have 4 H100s"),
    ("en", "we have 4 H100s. qwen2.5 72b instruct: int4 awq or fp8? quality matters, throughput too"),
    ("zh", "我们有4张H100，跑qwen2.5-72b-instruct用fp8还是awq int4？既要质量也要吞吐"),
    ("zh", "qwen2.5-72b-instruct 部署在我们的4张H100上，int4 awq 和 fp8 选哪个，吞吐也很重要"),
]


@pytest.mark.parametrize("lang,text", FOUR_H100)
def test_fp8_and_awq_on_four_h100s_are_vllm_formats_at_a_load(lang: str, text: str):
    content, results = _weighed(text)
    rows = {r["precision"]: r for r in results["weigh"]}
    assert set(rows) == {"fp8", "awq"}, content  # never Q8_0 / Q4_K_M on an H100
    assert all(r["engine"] == "vllm" and r["gpus"] == 4 and r["ok"] for r in rows.values())
    assert 50 <= rows["fp8"]["decode_tokens_per_s"] <= 120  # TP4 on H100, one user: not llama.cpp's ~19
    load = results["format_load"]
    assert load["users"] >= 32 and load["gpus"] == 4
    assert all(r["aggregate_tps"] > 10 * r["tps"] for r in load["rows"])  # tokens/s in all, not per user
    assert load["pick"] == "fp8" and results["format_verdict"]["pick"] == "fp8"
    assert ("Q8_0" not in content and "Q4_K_M" not in content)
    assert ("in all" in content) if lang == "en" else ("合计" in content and "in all" not in content)


@pytest.mark.parametrize("text", THROUGHPUT[:1] + THROUGHPUT[3:4])
def test_throughput_first_leads_with_the_load(text: str):
    content, results = _weighed(text)
    assert results.get("format_load") and results["users"] == 1
    load_at = content.find("**At ") if "**At " in content else content.find("个用户时**")
    verdict_at = content.find("**Verdict") if "**Verdict" in content else content.find("**结论")
    assert 0 <= load_at < verdict_at, content


def test_a_desktop_card_keeps_its_own_files():
    _content, results = _weighed("q4 vs q8 for qwen2.5 14b on my rtx 4090?")
    assert "format_load" not in results
    assert all(r["engine"] == "llama.cpp" for r in results["weigh"])


KV_ASKED = [
    ("zh", "KV cache 到底占多少显存？比如 Llama-3.1-8B，32k 上下文，同时 20 个人在用，要多少 G？用 fp8 kv cache 能省一半吗"),
    ("zh", "用fp8 kv cache能省一半吗？llama 3.1 8b，32k上下文，20个人同时用，kv cache要多少显存"),
    ("en", "how big is the kv cache for llama 3.1 8b at 32k with 20 users? does fp8 kv halve it?"),
    ("en", "does an fp8 kv cache halve it? llama 3.1 8b, 32k context, 20 concurrent users, how much memory is the kv cache"),
]


@pytest.mark.parametrize("lang,text", KV_ASKED)
def test_fp8_kv_asked_gives_the_16_bit_size_first_and_the_halving(lang: str, text: str):
    reply = run_conversation([text])[-1]
    data = payload(reply)["results"]
    kv = data["kv_cache"]
    assert kv["kv_precision"] == "bf16" and kv["users"] == 20 and kv["context"] == 32768, reply.content
    assert abs(kv["per_user_bytes"] / 2**30 - 4.0) < 0.01  # 128 KiB a token x 32k
    assert kv["fp8_per_user_bytes"] * 2 == kv["per_user_bytes"] and kv["fp8_share"] == 0.5
    assert kv["fp8_users_bytes"] == 20 * kv["fp8_per_user_bytes"]
    content = reply.content
    assert content.index("4.3 GB") < content.index("2.1 GB"), content  # the default first, then the halving
    assert "85.9" in content and "42.9" in content  # both totals for the 20 users
    assert ("halves it" in content) if lang == "en" else ("省一半" in content and "halves" not in content)


@pytest.mark.parametrize("text", ["we own 2 A100 80GB: int8 or awq for qwen2.5 32b?",
                                  "我们自己有一张H200，llama 3.1 70b 用 fp8 还是 int4 awq",
                                  "fp8 or awq for llama 3.1 8b on our own h100, just for me"])
def test_owned_datacenter_cards_weigh_the_datacenter_engines_formats(text: str):
    _content, results = _weighed(text)
    assert {r["engine"] for r in results["weigh"]} == {"vllm"}
    assert not any(str(r["precision"]).startswith("q") for r in results["weigh"])
