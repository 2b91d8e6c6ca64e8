"""A request-rate plan's launch command leaves room for requests longer than the mean (--max-model-len 4x the mean
request, at least 8,192; a stated context kept), and the heading of a plan on cards the user owns in a number not
said runs it on theirs, never 'Rent' (review BJ #6)."""

from __future__ import annotations

import pytest

from tests.conversation import run_states


def _reply(turn: str) -> tuple[str, dict]:
    state = run_states([turn])[-1]
    return state["messages"][-1].content, state


def _window(text: str) -> int:
    line = next(x for x in text.splitlines() if "--max-model-len" in x)
    return int(line.split()[-2] if line.rstrip().endswith("\\") else line.split()[-1])


@pytest.mark.parametrize(("prompt", "out", "window"), [(2000, 300, 9200), (1000, 200, 8192), (6000, 500, 26000)])
def test_rate_window_is_four_times_the_mean_request(prompt: int, out: int, window: int) -> None:
    text, _ = _reply(f"serve llama 3.1 8b at 10 req/s, avg prompt {prompt} tokens output ~{out}, p95 ttft under 1s")
    assert _window(text) == window


def test_a_stated_context_is_the_window() -> None:
    text, _ = _reply("serve llama 3.1 8b at 10 req/s, avg prompt 2000 tokens output ~300, 32k context")
    assert _window(text) == 32768


@pytest.mark.parametrize(("turn", "head"), [
    ("need p95 ttft under 500ms at 20 req/s, avg prompt 2k tokens output ~300, llama 3.1 8b. we own H100s, how many "
     "do we need", "## Run it on 3 replicas of 1 × NVIDIA H100 SXM 80GB"),
    ("我们自己有H100，20 QPS，输入2k输出300，llama 3.1 8b，p95首字延迟500ms以内，要几张", "## 用你自己的卡：3 份副本")])
def test_owned_cards_uncounted_are_run_not_rented(turn: str, head: str) -> None:
    text, state = _reply(turn)
    assert text.splitlines()[0].startswith(head) or any(x.startswith(head) for x in text.splitlines())
    assert not any(x.startswith(("## Rent", "## Buy", "## 租用", "## 购买")) for x in text.splitlines())
    assert _window(text) == 9200
    assert state["results"]["recommend"]["best"]["gpus"] == 3
