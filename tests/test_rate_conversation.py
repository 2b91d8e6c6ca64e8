"""Traffic said as a request rate in a conversation, in English and Chinese: read into slots, sized from the
rate (tools.queueing), and the concurrency it derived said in the answer. Concurrent users stay as they were."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import rules
from tests.conversation import run_conversation

RATES_EN = ["{n} requests per second", "{n} rps", "{n} qps", "{n} req/s", "peak qps {n}", "QPS of {n}",
            "about {n} requests a second", "{m} requests a minute", "{m} requests per minute", "{m} rpm"]
RATES_ZH = ["每秒{n}个请求", "峰值QPS {n}", "每秒大概{n}个请求", "每分钟{m}个请求", "每分钟{m}次调用", "QPS {n}"]


@pytest.mark.parametrize("n", [2, 20, 50, 120])
@pytest.mark.parametrize("template", RATES_EN + RATES_ZH)
def test_a_rate_is_read_in_requests_per_second(template, n):
    text = template.format(n=n, m=n * 60)
    assert understand(text).updates.get("requests_per_s") == pytest.approx(n), text


@pytest.mark.parametrize("lead,rate", itertools.product(
    ["serve llama 3.1 8b at", "deploy qwen2.5 7b for", "部署llama 3.1 8b，"], ["20 requests per second", "每秒20个请求"]))
def test_a_rate_beside_a_serving_request_is_no_count_of_items_or_users(lead, rate):
    u = understand(f"{lead} {rate}")
    assert u.updates.get("requests_per_s") == 20
    assert "batch_items" not in u.updates and "users" not in u.updates


@pytest.mark.parametrize("text,ms", [("p99 TTFT under 2 s", 2000), ("首字延迟p99 2秒以内", 2000),
                                     ("p99首token 2秒内", 2000), ("p99 time to first token under 800 ms", 800)])
def test_a_p99_first_token_target_is_read(text, ms):
    assert understand(text).updates["ttft_ms"] == ms


def test_a_daily_count_is_sized_at_its_busiest_hour_and_said():
    u = understand("serve qwen2.5 7b for 86400 requests a day")  # 1/s on average; the busy hours at the rule's factor
    assert u.updates["requests_per_s"] == pytest.approx(rules().daily_requests_peak_factor)
    assert [k for k, _ in u.notes] == ["load.note_volume_peak_day"]


def test_output_tokens_are_read_when_serving():
    u = understand("serve llama 3.1 8b at 20 rps, 1000-token prompts, 200 output tokens")
    assert (u.updates["prompt_tokens"], u.updates["output_tokens"]) == (1000, 200)


def _payload(reply):
    return reply.additional_kwargs["gpu_advisor"]


def test_english_rate_conversation_sizes_from_the_rate_and_says_the_concurrency():
    # a request rate is a live service: sized at once, up around the clock (said), no question (review M)
    (answer,) = run_conversation(["serve llama 3.1 8b at 20 requests per second, 1000-token prompts, "
                                  "200 output tokens, p99 ttft under 2 s"])
    assert "20 requests per second" in answer.content
    assert _payload(answer)["kind"] == "answer" and "How busy" not in answer.content
    assert _payload(answer)["profile"]["utilisation"] == 1.0
    text = answer.content
    assert "requests in flight" in text and "Little's law" in text and "at the 99th percentile" in text
    assert "first token" in text and "at p99" in text
    rec = _payload(answer)["results"]["recommend"]
    traffic = rec["traffic"]
    assert traffic["requests_per_s"] == 20 and traffic["ttft_p99_met"] is True
    assert traffic["in_flight"] == pytest.approx(20 * traffic["time_in_system_s"])
    assert rec["workload"]["users"] == traffic["users_sized"]
    assert rec["workload"]["context"] == 1200  # each request holds its prompt and output


def test_chinese_rate_conversation_answers_in_chinese_with_the_concurrency():
    (answer,) = run_conversation(["部署llama 3.1 8b，峰值QPS 50，输入1000 token，输出200，首字延迟p99 2秒以内"])
    text = answer.content
    assert "利特尔定律" in text and "同时处理" in text and "p99" in text
    assert "requests" not in text and "Little" not in text  # one language only
    traffic = _payload(answer)["results"]["recommend"]["traffic"]
    assert traffic["requests_per_s"] == 50 and traffic["ttft_p99_s"] <= 2.0


def test_more_requests_per_second_never_fewer_gpus_in_the_answer():
    gpus = []
    for rate in (5, 50):
        (answer,) = run_conversation([f"serve llama 3.1 8b at {rate} rps, 1000-token prompts, 200 output tokens, "
                                      "on h100 only"])
        gpus.append(_payload(answer)["results"]["recommend"]["best"]["gpus"])
    assert gpus[1] >= gpus[0]


def test_concurrent_users_are_still_sized_as_users():
    _, answer = run_conversation(["serve llama 3.1 8b to 50 users", "around the clock"])
    assert "Little's law" not in answer.content
    rec = _payload(answer)["results"]["recommend"]
    assert rec["traffic"] is None and rec["workload"]["users"] == 50
