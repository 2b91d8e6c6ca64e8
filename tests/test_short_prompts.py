"""'short prompts' / '输入很短' set the prompt of a short chat (rules.short_chat_prompt_tokens) and leave the answer's
length alone; a stated prompt length wins (review round O, C7: '~20 rps, short prompts' was sized at 4,096)."""
from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import rules

EN = ["short prompts", "prompts are short", "the prompts are pretty short", "small inputs", "short requests"]
ZH = ["输入很短", "提示词比较短", "问题都很短", "短提示词", "请求都很短"]
EN_JOBS = ["serve mistral small 24b on one L40S, ~20 rps, {said}", "{said}, 10 requests per second, qwen2.5 14b"]
ZH_JOBS = ["部署 qwen2.5 14b，每秒10个请求，{said}", "{said}，每秒20个请求，部署 mistral small 24b"]


@pytest.mark.parametrize("said, job", list(itertools.product(EN, EN_JOBS)) + list(itertools.product(ZH, ZH_JOBS)))
def test_short_prompts_set_the_prompt_only(said, job):
    u = understand(job.format(said=said))
    assert u.updates.get("prompt_tokens") == rules().short_chat_prompt_tokens
    assert "output_tokens" not in u.updates
    assert ("note.short_prompt", {"prompt": f"{rules().short_chat_prompt_tokens:,}"}) in u.notes


@pytest.mark.parametrize("text, want", [
    ("serve qwen2.5 14b at 10 rps, short prompts of about 200 tokens", 200),
    ("部署 qwen2.5 14b，每秒10个请求，输入300 token，很短", 300),
])
def test_a_stated_length_wins(text, want):
    assert understand(text).updates.get("prompt_tokens") == want
