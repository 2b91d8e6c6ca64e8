"""mendD: 'why not just use one h100?' after a rate plan is a setup asked about, never 'we can only use 1'."""
from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand


@pytest.mark.parametrize("text", ["why not just use one h100?", "why not just use 1 H100", "why don't we just use one h100",
                                  "为啥不只用一张h100", "为什么不就用 1 张 H100？"])
def test_why_not_just_use_one_is_no_recount(text: str) -> None:
    u = understand(text)
    assert u.recount is None
    assert u.whatif_gpus == (1, "h100-sxm")


@pytest.mark.parametrize("text", ["we can only use 6", "only 6 are free", "只能用6张"])
def test_a_free_count_still_recounts(text: str) -> None:
    assert understand(text).recount[0] == 6
