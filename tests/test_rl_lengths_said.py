"""Rollout and prompt lengths said the way RL people say them are read (review CA #2: 'max resp len 4096' was dropped
and 1,024-token completions assumed; the close-22 note: '8k' read as 8,000 in RL lengths). A 'k' in a token length
is 1,024: '8k' responses are 8,192 tokens, as verl's max_response_length=8192 is said."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states

# (words before the number, the number as said, tokens)
COMPLETION_EN = ["max resp len {n}", "max response length {n}", "response_length={n}", "max_response_length: {n}",
                 "max_completion_length {n}", "--generate_max_len {n}", "rollout length {n}", "resp len {n}"]
COMPLETION_ZH = ["最大回复长度{n}", "rollout 长度 {n}", "回答长度{n}", "生成长度{n}", "最长生成{n}"]
PROMPT_EN = ["prompt len {n}", "max_prompt_length={n}", "--prompt_max_len {n}", "prompt length {n}",
             "prompts of about {n} tokens"]
PROMPT_ZH = ["prompt长度{n}", "提示词长度{n}", "prompt 长度 {n}"]
SAID = [("4096", 4096), ("8k", 8192), ("2k", 2048), ("3000", 3000)]
PROMPT_SAID = [("1k", 1024), ("1024", 1024), ("2k", 2048), ("512", 512)]
HEAD = {"en": ["GRPO on qwen3 8b with verl, {x}, group size 8", "ppo on qwen2.5 7b; {x}; 8x h100"],
        "zh": ["用verl跑GRPO训qwen3 8b，{x}，每个prompt采样8条", "qwen2.5 7b做ppo，{x}，8张h100"]}


def _cases(lang: str, words: list[str], said: list[tuple[str, int]]) -> list[tuple[str, int]]:
    return [(head.format(x=w.format(n=n)), tokens)
            for head, w, (n, tokens) in itertools.product(HEAD[lang], words, said)]


@pytest.mark.parametrize(("text", "tokens"), _cases("en", COMPLETION_EN, SAID) + _cases("zh", COMPLETION_ZH, SAID))
def test_a_completion_length_said_in_rl_words_is_read(text: str, tokens: int) -> None:
    u = understand(text, None)
    assert u.updates.get("objective") == "rl", u.updates
    assert u.updates.get("rl_completion_tokens") == tokens, (text, u.updates)
    assert u.updates.get("rl_samples") in (None, 8) and "rl_prompt_tokens" not in u.updates


@pytest.mark.parametrize(("text", "tokens"), _cases("en", PROMPT_EN, PROMPT_SAID) + _cases("zh", PROMPT_ZH, PROMPT_SAID))
def test_a_prompt_length_said_in_rl_words_is_read(text: str, tokens: int) -> None:
    u = understand(text, None)
    assert u.updates.get("rl_prompt_tokens") == tokens, (text, u.updates)
    assert u.updates.get("rl_prompts") is None, u.updates  # a length, never a count of prompts
    assert u.updates.get("rl_completion_tokens") is None, u.updates


@pytest.mark.parametrize("order", ["{p}, {c}", "{c}, {p}"])
@pytest.mark.parametrize(("p", "c"), [("prompt len 1k", "max resp len 4096"),
                                      ("--prompt_max_len 2048", "--generate_max_len 4096"),
                                      ("prompt长度1k", "最大回复长度4096")])
def test_both_lengths_in_one_message_in_either_order(order: str, p: str, c: str) -> None:
    u = understand("grpo qwen3 8b, " + order.format(p=p, c=c), None)
    want_prompt = 2048 if "2048" in p else 1024
    assert (u.updates.get("rl_prompt_tokens"), u.updates.get("rl_completion_tokens")) == (want_prompt, 4096), u.updates


CA2 = {"en": "planning GRPO w/ verl on OLMo 2 32B, group size 8, {x}, ~2000 steps. budget is 30k usd to rent. "
             "what setup shoud we get",
       "zh": "打算用verl跑GRPO，模型OLMo 2 32B，每个prompt采样8条，{x}，大概2000步，预算3万美元租卡，该怎么配"}
CA2_LENGTHS = {"en": [("max resp len 4096", 4096), ("max response length 8k", 8192), ("prompt len 1k, max resp len 4096", 4096)],
               "zh": [("最大回复长度4096", 4096), ("rollout 长度 8k", 8192), ("prompt长度1k，最大回复长度4096", 4096)]}


@pytest.mark.parametrize(("lang", "x", "tokens"), [(lang, x, t) for lang, xs in CA2_LENGTHS.items() for x, t in xs])
def test_the_plan_is_sized_at_the_length_said(lang: str, x: str, tokens: int) -> None:
    state = run_states([CA2[lang].format(x=x)])[-1]
    p, reply = state["profile"], state["messages"][-1].content
    assert (p["objective"], p["rl_completion_tokens"]) == ("rl", tokens), p
    assert p["rl_prompt_tokens"] == (1024 if "1k" in x else 512)  # said, else the stated default
    assert f"{tokens:,}" in reply
    assert ("completions of about 1,024" if lang == "en" else "每个回答约 1,024") not in reply  # no default length
    assert p["context"] is None and p["seq_len"] is None  # the length bounds each rollout, not a context
