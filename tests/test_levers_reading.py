"""The serving levers read from what people type (issue 22 item 3), in English and Chinese and several spellings:
a prompt prefix every request shares (its count is the prefix, not the prompt or the context), a cache hit rate
(one above 100% is refused politely), and speculative decoding with its method (or none when said off)."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import payload, run_conversation

JOBS = ["serve llama 3.1 8b to 50 users", "deploy qwen2.5 32b for our support team of 40"]
PREFIXES = [("all requests share a 3k token system prompt", 3000),
            ("every request uses the same 2000-token instructions", 2000),
            ("with a 1500 token system prompt", 1500),
            ("the shared prefix is 4000 tokens of instructions", None)]  # a prefix said without its count before


@pytest.mark.parametrize("job,prefix", itertools.product(JOBS, PREFIXES[:3]))
@pytest.mark.parametrize("order", ["job first", "prefix first"])
def test_a_shared_prefix_is_read_and_not_taken_as_the_prompt_or_context(job, prefix, order):
    words, tokens = prefix
    text = f"{job}, {words}" if order == "job first" else f"{words}; {job}"
    u = understand(text)
    assert u.updates.get("shared_prefix_tokens") == tokens
    assert u.updates.get("prompt_tokens") != tokens and u.updates.get("context") != tokens


@pytest.mark.parametrize("text,tokens", [
    ("系统提示词有4000 token，每次都一样，部署qwen2.5-72b给200人用", 4000),
    ("部署qwen2.5-72b给200人用，所有请求共享一个3000 token的系统提示词", 3000),
    ("部署llama 3.1 8b给50人用，系统提示词2000 token，都一样", 2000),
])
def test_chinese_shared_prefix(text, tokens):
    assert understand(text).updates.get("shared_prefix_tokens") == tokens


def test_prompts_without_a_shared_prefix_stay_prompts():
    u = understand("serve llama 3.1 8b to 50 users, prompts around 3000 tokens")
    assert u.updates.get("prompt_tokens") == 3000 and "shared_prefix_tokens" not in u.updates


@pytest.mark.parametrize("text,rate", [("prefix cache hit rate 70%", 0.7), ("命中率80%", 0.8),
                                       ("cache hit rate of 95%", 0.95)])
def test_hit_rate(text, rate):
    u = understand(f"serve llama 3.1 8b to 50 users, 3k token system prompt, {text}")
    assert u.updates.get("prefix_hit_rate") == pytest.approx(rate)
    assert "utilisation" not in u.updates


@pytest.mark.parametrize("text,method", [
    ("with speculative decoding", "auto"), ("use spec decoding", "auto"), ("开投机解码", "auto"),
    ("用推测解码", "auto"), ("用MTP", "mtp"), ("with eagle3", "eagle3"), ("with EAGLE-3 speculative decoding", "eagle3"),
    ("speculative decoding with a draft model", "draft"), ("用草稿模型做投机解码", "draft"),
    ("without speculative decoding", None), ("不开投机解码", None)])
def test_speculative_decoding_and_its_method(text, method):
    u = understand(f"serve llama 3.1 70b for 8 users, {text}")
    assert u.updates.get("speculative") == method


@pytest.mark.parametrize("turn,lang", [("serve llama 3.1 8b for 20 users, prefix cache hit rate 150%, 3k token "
                                        "system prompt", "en"),
                                       ("部署llama 3.1 8b给20人用，系统提示词3000 token，每次都一样，命中率150%", "zh")])
def test_a_hit_rate_above_100_is_said_back_politely(turn, lang):
    reply = run_conversation([turn])[-1]
    text = reply.content
    assert ("150%" in text) and (("0% to 100%" in text) if lang == "en" else ("0% 到 100%" in text))
    assert "prefix_hit_rate" not in {k for k, v in payload(reply).get("profile", {}).items() if v is not None}


def test_the_answer_says_both_levers_with_their_figures():
    reply = run_conversation(["serve llama 3.3 70b for 8 users around the clock, all requests share a 3k token "
                              "system prompt, with speculative decoding"])[-1]
    text = reply.content
    assert "Prefix caching:" in text and "Speculative decoding with yuhuili/EAGLE3-LLaMA3.3-Instruct-70B" in text
    assert "--enable-prefix-caching" in text and "--speculative-config" in text
