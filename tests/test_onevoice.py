"""One decision per answer (round E, onevoice): the headline, the plan heading and the plan's numbers name the same
card and the same total count, and a plan that misses the user's target is never headlined as meeting it. Asserted
from the structured payload (results.recommend.best), over several models, rates, cards and targets, EN and ZH."""
from __future__ import annotations

import re
from typing import Any

import pytest

from tests.conversation import payload, run_conversation

COUNT = re.compile(r"(\d+)\s*×\s*([^*（(，,]+)")


def _best(message: Any) -> dict[str, Any]:
    return payload(message)["results"]["recommend"]["best"]


def _headline(text: str) -> str:
    return next(line for line in text.splitlines() if line.strip())


def _total(line: str) -> tuple[int, str] | None:
    """The count and card a line states: 'N replicas of k × card (M GPUs' and '每份 k × card（共 M 张卡' state M."""
    counts = COUNT.findall(line)
    if not counts:
        return None
    whole = re.search(r"\((\d+) GPUs|共 (\d+) 张", line)
    n = int(next(g for g in whole.groups() if g)) if whole else int(counts[0][0])
    return n, counts[0][1].strip().rstrip("*")


def _heading(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("## "))


# a request rate with a first-token target, the card named: the count asked is the plan's whole count
RATED = [
    ("we run a customer support bot, Llama 3.1 70B, need to handle about 12 requests per second, prompts ~1500 "
     "tokens, answers ~300. p95 time to first token under 800ms. how many H100s, and what would that cost per month "
     "on cloud?", "H100"),
    ("how many H100 do I need for llama 3.1 70b at 12 req/s, 1500 tokens in and 300 out, TTFT p95 below 800 ms? "
     "renting", "H100"),
    ("Qwen2.5 32B, 8 requests a second, 1000 in / 200 out, p90 first token within 500 ms: how many A100 80GB?",
     "A100"),
    ("我们公司要上一个客服大模型，用 Qwen2.5-32B，高峰大概每秒8个请求，输入1000 token左右输出200，首字延迟要求p90 "
     "500毫秒以内。信创要求只能用国产卡，昇腾910B要几张？", "910B"),
    ("昇腾910B要几张？Qwen2.5-32B，每秒8个请求，输入1000输出200，首token p90 要在500ms以内，只能用国产卡", "910B"),
    ("llama 3.1 70b 每秒12个请求，输入1500 token，输出300，p95首字延迟800毫秒以内，需要几张H100？租云上的", "H100"),
]


@pytest.mark.parametrize(("message", "card"), RATED)
def test_rated_headline_count_is_the_plans_total(message: str, card: str) -> None:
    reply = run_conversation([message])[-1]
    best = _best(reply)
    assert card in best["gpu_name"]
    head = _headline(reply.content)
    said = _total(head)
    if said:  # a headline that names a count names the plan's card and its whole count
        assert said[0] == best["gpus"], (head, best["gpus"])
        assert said[1] in best["gpu_name"], head
    assert best["gpu_name"] in _heading(reply.content)
