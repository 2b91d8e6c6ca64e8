"""A range of people written with a hyphen ('40-60 at once', '50-80 users', '30-90人') is a range, never the card whose
number the digits spell (RTX 4060, 5080, 3090): review V read 'maybe 40-60 at once' as an RTX 4060 and asked again."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_conversation

PAIRS = [(40, 60), (50, 80), (30, 90), (40, 90), (30, 80), (40, 70), (50, 90), (30, 60)]
EN = ["maybe {a}-{b} at once", "{a}-{b} users", "serve llama 3.1 8b to {a}-{b} users", "around {a} - {b} people at once"]
ZH = ["大概{a}-{b}人同时用", "{a}-{b}个用户同时在线", "部署llama 3.1 8b，同时{a}~{b}人"]


@pytest.mark.parametrize(("pair", "form"), itertools.product(PAIRS, EN + ZH))
def test_a_range_of_people_is_no_card(pair: tuple[int, int], form: str) -> None:
    a, b = pair
    for pending in (None, "users"):
        u = understand(form.format(a=a, b=b), pending)
        assert u.updates.get("users_range") == [a, b], u.updates
        assert not u.updates.get("owned") and not u.updates.get("only") and not u.updates.get("gpu"), u.updates


@pytest.mark.parametrize("text", ["i have a 4060", "我有一张4060", "i own a 5080", "我有一张3090"])
def test_a_card_number_said_plainly_is_still_the_card(text: str) -> None:
    assert understand(text, None).updates.get("owned"), text


SETUPS_EN = ["should we buy or rent? we need 8 H100s running 24/7 for 3 years for inference",
             "we need 8 H100s for inference, buy or rent?", "we're planning on 8 H100s for serving. rent or buy?",
             "thinking of getting 8 H100s for inference, budget 400k"]
SETUPS_ZH = ["我们需要8张H100做推理，买还是租", "打算上8张H100做推理服务，租还是买划算", "推理要用8张H100，预算40万美元"]


@pytest.mark.parametrize("first", SETUPS_EN + SETUPS_ZH)
def test_a_counted_setup_said_before_the_model_is_kept_for_the_plan(first: str) -> None:
    """The cards said in the first message, before any model ('we need 8 H100s ... buy or rent?'), are the setup
    asked about: kept as the plan's cards when the model comes, never dropped for consumer cards."""
    zh = any("\u4e00" <= c <= "\u9fff" for c in first)
    replies = run_conversation([first, "70b", "50人同时" if zh else "about 50 at once", "全天候" if zh else "24/7"])
    said = "只用 8 × NVIDIA H100 SXM 80GB" if zh else "only 8 × NVIDIA H100 SXM 80GB"
    assert said in replies[0].content
    final = next(r.content for r in replies if "\n## " in "\n" + r.content)  # (a buy-or-rent block may lead)
    head = next(x for x in final.splitlines() if x.startswith("## "))
    assert "8 × NVIDIA H100 SXM 80GB" in head, head
