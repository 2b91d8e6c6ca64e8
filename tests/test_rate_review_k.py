"""Review K (rate path): a rate-sized plan lists the prompt and output lengths it assumed when the user gave none,
and keeps quiet about the ones the user gave. Generated over fillers and both languages."""
from __future__ import annotations

import pytest
from conversation import run_conversation

EN_FILLERS = ["", "hi, ", "quick question: "]
ZH_FILLERS = ["", "你好，", "请问"]


def _reply(text: str) -> str:
    return str(run_conversation([text])[-1].content)


@pytest.mark.parametrize("filler", EN_FILLERS)
def test_rate_defaults_listed_en(filler: str) -> None:
    reply = _reply(f"{filler}serve llama 3.1 8b at 20 requests per second around the clock, how many L40S, rent")
    assumed = reply.split("**Assumptions**")[1]
    assert "each request reads a 4,096-token prompt" in assumed
    assert "each request writes 256 tokens" in assumed


@pytest.mark.parametrize("filler", ZH_FILLERS)
def test_rate_defaults_listed_zh(filler: str) -> None:
    reply = _reply(f"{filler}部署 llama 3.1 8b，每秒20个请求，全天运行，要几张L40S，租")
    assumed = reply.split("**假设**")[1]
    assert "每个请求按 4,096 token 的输入计算" in assumed
    assert "每个请求按输出 256 token 计算" in assumed


@pytest.mark.parametrize("text, absent", [
    ("serve llama 3.1 8b at 20 requests per second, 500 output tokens, around the clock, how many L40S, rent",
     "each request writes"),
    ("部署 llama 3.1 8b，每秒20个请求，输出500 token，全天运行，要几张L40S，租", "每个请求按输出"),
])
def test_stated_output_not_assumed(text: str, absent: str) -> None:
    reply = _reply(text)
    assert absent not in reply


PEAK_EN = ["average 5 rps, peak is 3x the average", "5 requests per second on average, peaks at 3 times that",
           "qps 5 on average, busiest hour is 3x"]
PEAK_ZH = ["平均QPS 5，高峰是平均的3倍", "平均每秒5个请求，峰值是平均值的3倍", "平均QPS 5，高峰大约是平均的3倍"]


@pytest.mark.parametrize("said", PEAK_EN + PEAK_ZH)
@pytest.mark.parametrize("filler", ["", "部署 qwen 7b，"])
def test_peak_factor_sizes_for_peak(said: str, filler: str) -> None:
    from gpu_advisor.assistant.reading import understand
    u = understand(f"serve qwen 7b, {said}" if not filler else filler + said)
    assert u.updates["requests_per_s"] == 15.0
    assert ("note.rate_peak_factor", {"rps": "5", "factor": "3", "peak": "15"}) in u.notes


@pytest.mark.parametrize("said", ["峰值QPS 15左右", "peak qps 15", "15 requests per second at peak"])
def test_plain_peak_not_multiplied(said: str) -> None:
    from gpu_advisor.assistant.reading import understand
    u = understand(f"serve qwen 7b, {said}")
    assert u.updates["requests_per_s"] == 15.0
    assert not [n for n in u.notes if n[0] == "note.rate_peak_factor"]
