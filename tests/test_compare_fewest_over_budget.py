"""A card compared for a job where nothing meets the budget is shown at the fewest cards that do the job, marked over
budget, not at the most tried (final review P1 E1: 'h100 or a100?' under $5k a month set 8 × H100 at $23k against
2 × A100)."""
from __future__ import annotations

import pytest
from conversation import run_conversation

FIRST = {"en": "we're launching in 3 weeks, need to serve llama 3.3 70b for our app, about 20 concurrent users, "
               "budget ~$5k/month",
         "zh": "三周后上线，部署 llama 3.3 70b，大概20个人同时用，预算每月5000美元"}
THEN = {"en": ["context is mostly under 8k. would h100 or a100 be better for us", "h100 vs a100 for this?"],
        "zh": ["H100 和 A100 哪个更适合我们", "用 H100 还是 A100"]}


@pytest.mark.parametrize("lang, then", [(lang, t) for lang in ("en", "zh") for t in THEN[lang]])
def test_the_dearer_card_is_shown_at_its_fewest(lang, then):
    reply = str(run_conversation([FIRST[lang], then])[-1].content)
    assert "8 × NVIDIA H100" not in reply
    assert "2 × NVIDIA H100 SXM 80GB" in reply and "2 × NVIDIA A100 SXM4 80GB" in reply
