"""An RL fine-tune's group and completion length, said in any order (review BS #3, BO #16): 'rollouts 8 per prompt',
'每个prompt 16条', '16 samples per prompt' are completions per prompt, never a count of prompts; 'max len 4k', '最长生成8k',
'8k max response' are each completion's length."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand

GROUP = ["rollouts {n} per prompt", "{n} rollouts per prompt", "{n} samples per prompt", "{n} per prompt",
         "group size {n}", "{n} completions each"]
LENGTH = ["max len {k}k", "{k}k max response", "max response length {k}k", "completions up to {k}k"]
ZH_GROUP = ["每个prompt {n}条", "每个prompt采样{n}条", "每条prompt生成{n}个"]
ZH_LENGTH = ["最长生成{k}k", "最长回复{k}k", "生成长度{k}k"]


def _english() -> list[tuple[str, int, int]]:
    out = []
    for (g, ln), (n, k) in itertools.product(itertools.product(GROUP, LENGTH), [(8, 4), (16, 8)]):
        out.append((f"GRPO on qwen2.5 7b with verl, {g.format(n=n)}, {ln.format(k=k)}", n, k))
        out.append((f"need to grpo qwen3 8b. {ln.format(k=k)}; {g.format(n=n)}. 8x h100 enough?", n, k))
    return out


def _chinese() -> list[tuple[str, int, int]]:
    return [(f"想用GRPO训qwen2.5 32b，{g.format(n=n)}，{ln.format(k=k)}，能跑吗", n, k)
            for g, ln, (n, k) in itertools.product(ZH_GROUP, ZH_LENGTH, [(8, 4), (16, 8)])]


@pytest.mark.parametrize(("text", "n", "k"), _english() + _chinese())
def test_the_group_and_the_length_take_their_roles(text: str, n: int, k: int) -> None:
    u = understand(text, None)
    assert u.updates.get("rl_samples") == n, u.updates
    assert u.updates.get("rl_completion_tokens") == k * 1024, u.updates  # a token length's 'k' is 1,024 (h-rl3: '8k' responses are 8,192 tokens)
    assert u.updates.get("rl_prompts") in (None,), u.updates  # no count of prompts was said
