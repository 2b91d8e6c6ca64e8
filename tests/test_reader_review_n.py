"""Round N of the review: follow-ups that were 'not understood' ('how slow are we talking', 'more users than expected,
like 10x'), and daily users that make a service without any other serving word ('launching…, 200 DAU')."""
from __future__ import annotations

import pytest
from conversation import run_conversation

from gpu_advisor.assistant.reading import understand


@pytest.mark.parametrize("text", ["how slow are we talking", "how fast are we talking?", "ok how slow", "and how fast?",
                                  "how fast would it be", "那速度有多慢", "有多慢啊", "会有多慢"])
def test_speed_follow_ups_are_questions_about_the_plan(text):
    assert "how_long" in understand(text).intents


@pytest.mark.parametrize("text, factor", [("what if we get way more users than expected, like 10x", 10.0),
                                          ("more users than we planned, say 3x", 3.0), ("more users, maybe 2x", 2.0),
                                          ("用户多了，大概10倍呢", 10.0), ("用户超预期，可能3倍", 3.0)])
def test_a_hedged_factor_after_a_comma_scales_the_users(text, factor):
    assert understand(text).scale == {"users": factor}


def test_an_unhedged_comma_still_ends_the_phrase():
    assert understand("double the users, halve the context").scale == {"users": 2.0, "context": 0.5}
    assert understand("用户翻倍，上下文减半").scale == {"users": 2.0, "context": 0.5}


@pytest.mark.parametrize("daily", ["200 DAU", "2k daily users", "日活几百人", "每天300人用"])
@pytest.mark.parametrize("frame", ["launching in 3 weeks, mistral small 24b, {d}, $1500/mo", "mistral small 24b，{d}"])
def test_daily_users_make_a_service(daily, frame):
    u = understand(frame.format(d=daily))
    assert u.updates.get("phase") == "serve" and u.updates.get("population_daily") is True


def test_monthly_users_size_nothing_still():
    assert "phase" not in understand("mistral small 24b, 50k MAUs").updates


def test_the_conversations_answer():
    replies = run_conversation(["3090 + 64gb ram, llama 3.3 70b? dont care if slow", "how slow are we talking"])
    assert "tokens/s" in replies[1].content and "didn't understand" not in replies[1].content
    replies = run_conversation(["launching in 3 weeks, mistral small 24b, 200 DAU, $1500/mo",
                                "what if we get way more users than expected, like 10x"])
    # '$1500/mo' is a budget said, not a question about the month's cost: the plan first, the budget checked in it
    assert replies[0].content.startswith("## Rent") and "within your $1,500 a month" in replies[0].content
    assert "_Updated for: users._" in replies[1].content


@pytest.mark.parametrize("text, daily, at_once", [
    ("mistral small 24b, ~500 daily users maybe 30 concurrent at peak, 3k/month", 500, 30),
    ("日活2000，高峰大概50个并发，qwen2.5 14b", 2000, 50),
    ("2k daily users, about 40 concurrent at peak, llama 3.1 8b", 2000, 40),
])
def test_people_at_once_after_daily_users_are_at_once(text, daily, at_once):
    u = understand(text)
    assert u.updates.get("population") == daily and u.updates.get("population_daily") is True
    assert u.updates.get("users") == at_once


@pytest.mark.parametrize("said", ["qwq 32b", "QwQ-32B", "qwq"])
def test_qwq_is_a_catalog_model(said):
    u = understand(f"serve {said} to 10 users")
    assert u.updates.get("model") == "qwq-32b" and u.unknown_model is None


@pytest.mark.parametrize("text, out", [("~5 rps, 4k outputs, serve qwen2.5 32b", 4000),
                                       ("serve qwen2.5 32b at 5 rps with 2k outputs", 2000),
                                       ("qwen2.5 32b 10 rps, outputs 500 tokens", 500)])
def test_outputs_said_after_their_length(text, out):
    u = understand(text)
    assert u.updates.get("output_tokens") == out and "context" not in u.updates


def test_outputs_per_prompt_are_samples():
    assert understand("grpo qwen 7b, 8 outputs per prompt").updates.get("rl_samples") == 8
