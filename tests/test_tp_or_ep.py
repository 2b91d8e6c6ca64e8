"""Tensor or expert parallelism asked with a mixture-of-experts job ('difference between tensor parallel and expert
parallel for serving qwen3-235b, which one should i use on 8x h100'): after the plan, the pick for few and for many
requests at once, with the engine flags and the KV heads a TP split copies (review BS #7: definitions and a $320,000
purchase, no pick)."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_conversation

ASKED = {"en": ["whats the difference between tensor parallel and expert parallel for serving qwen3-235b, which one "
                "should i use on 8x h100", "serving qwen3-235b on 8x h100: tensor parallel or expert parallel?",
                "tp or ep for qwen3 235b on 8 h100s, which is better"],
         "zh": ["qwen3-235b部署在8卡h100上，张量并行和专家并行选哪个", "8张h100部署qwen3 235b，用张量并行还是专家并行"]}
LEAD = {"en": "**Tensor or expert parallelism on 8 × NVIDIA H100 SXM 80GB:**",
        "zh": "**在 8 × NVIDIA H100 SXM 80GB 上用张量并行还是专家并行：**"}
BUSY = {"en": "working hours", "zh": "工作时间"}


@pytest.mark.parametrize(("lang", "text"), [(lang, t) for lang, ts in ASKED.items() for t in ts])
def test_the_pick_follows_the_plan(lang: str, text: str) -> None:
    u = understand(text)
    assert u.also == "parallelism" and u.ask.get("tp_ep") and u.updates.get("model") == "qwen3-235b-a22b"
    replies = run_conversation([text, BUSY[lang]])
    last = replies[-1].content
    assert last.index(LEAD[lang]) > last.index("## ")  # after the plan's heading
    assert "--enable-expert-parallel --data-parallel-size 8" in last
    assert ("4 KV heads" in last) if lang == "en" else ("4 个 KV 头" in last)
    assert "## Buy" not in last and "## 购买" not in last
