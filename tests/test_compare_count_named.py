"""Cards compared with their counts ('2x 3090 vs 1x 4090', '一张4090还是两张3090') are weighed at those counts: one
4090 that cannot hold the model is the option compared, never two (review BJ #14)."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states

ASKS = ["gpus 2x 3090 vs 1x 4090 for running llama 3.3 70b q4 in llama.cpp, which one",
        "2x 3090 or one 4090 for llama 3.3 70b q4 in llama.cpp?", "1x 4090 vs 2x 3090 for llama 3.3 70b q4, which one",
        "一张4090还是两张3090跑llama 3.3 70b q4，用llama.cpp，选哪个"]


@pytest.mark.parametrize("ask", ASKS)
def test_counts_read(ask: str) -> None:
    assert understand(ask, None).counts == {"rtx-3090": 2, "rtx-4090": 1}


def test_no_count_said_is_none() -> None:
    assert understand("3090 vs 4090 for llama 3 8b, which one", None).counts == {}


@pytest.mark.parametrize("ask", [ASKS[0], ASKS[3]])
def test_verdict_weighs_the_count_said(ask: str) -> None:
    state = run_states([ask])[-1]
    text = state["messages"][-1].content
    job = text[text.index("**For your job**" if "For your job" in text else "**按你的任务**"):]
    assert "2 × NVIDIA GeForce RTX 4090" not in job
    assert "1 × NVIDIA GeForce RTX 4090 24GB" in job and "2 × NVIDIA GeForce RTX 3090 24GB" in job
    verdict = job[job.index("**Verdict**" if "Verdict" in job else "**结论**"):]
    assert "RTX 3090" in verdict.split(":")[1] if "Verdict" in verdict else "选 NVIDIA GeForce RTX 3090" in verdict
