"""'Why not X?' and 'what about N X?' beside a plan of model copies (data parallel) are sized as the plan is:
each copy of X holds its share of the users, so a row that does not fit says one copy's need on a card of X,
never every user's on one tensor-parallel group ('needs 207 GB per GPU' for 8 cards holding 1,000 users)."""

from __future__ import annotations

import math

import pytest

from tests.conversation import run_conversation

PLANS = {"en": "serve qwen2.5 14b to 1000 concurrent users, 8k context, we rent, around the clock",
         "zh": "部署qwen2.5 14b，1000人同时在线，8k上下文，租卡，全天候"}
ASKS = {("en", "why"): "why not {c}s?", ("zh", "why"): "为什么不用{c}？",
        ("en", "count"): "what about 16 {c}s?", ("zh", "count"): "16张{c}行不行？"}


def _results(turns: list[str]) -> dict:
    return run_conversation(turns)[-1].additional_kwargs["gpu_advisor"]["results"]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("card, gpu_id", [("4090", "rtx-4090"), ("L40S", "l40s")])
def test_why_not_a_card_lays_it_out_as_copies(lang: str, card: str, gpu_id: str):
    r = _results([PLANS[lang], ASKS[(lang, "why")].format(c=card)])
    best = r["recommend"]["best"]
    assert best["replicas"] > 1  # the plan is copies of the model
    rows = [o for o in r["options"] if o["gpu"] == gpu_id]
    assert len(rows) == 1, r["options"]
    row = rows[0]
    assert row["replicas"] > 1 and row["users_per_replica"] == math.ceil(1000 / row["replicas"])
    assert row["gpus"] == row["replicas"] * row["tp"] * row["pp"]
    assert row["ok"]  # the fewest cards of it that serve the users, as copies


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_count_too_small_says_what_one_copy_needs_on_a_card(lang: str):
    r = _results([PLANS[lang], ASKS[(lang, "count")].format(c="4090")])
    row = next(o for o in r["options"] if o["gpu"] == "rtx-4090")
    assert row["gpus"] == 16 and not row["ok"]
    assert row["replicas"] * row["tp"] == 16 and row["users_per_replica"] == math.ceil(1000 / row["replicas"])
    # the need said is one copy's (its share of the users) on each of its tp cards, not 1,000 users on one group
    assert row["serve_per_gpu_bytes"] / 1e9 < 1000 * 8192 * 196_608 / 1e9 / row["tp"]
    assert f"{row['serve_per_gpu_bytes'] / 1e9:,.1f} GB" in row["reasons"][0]
