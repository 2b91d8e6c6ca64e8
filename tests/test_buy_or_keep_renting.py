"""'Should we buy 8 h100s or keep renting? … paying 2.50/hr per gpu … 3 year horizon' (session 20 review BM #20): the
cards are ones to buy, not theirs; the rent said in another sentence is the rent of the one card named; '3 year
horizon' is how long the cards are kept, no reserved term; the answer is rent-or-buy at once, and 'what if
utilization drops to 30%' answers it again."""
from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import payload, run_conversation

ASK = ["should we buy 8 h100s or keep renting?", "buy 8 h100s or keep renting?", "should we buy 8x h100 or stick with renting?"]
USE = ["we run training jobs maybe 60% of the time", "the gpus are busy about 60% of the time"]
RENT = ["currently paying like 2.50/hr per gpu on lambda", "we pay 2.50/hr per gpu"]


@pytest.mark.parametrize(("ask", "use", "rent"), itertools.product(ASK, USE, RENT))
def test_cards_to_buy_with_a_rent_said_apart(ask, use, rent):
    u = understand(f"{ask} {use}, {rent}, 3 year horizon")
    assert "rent_buy" in u.intents and not u.updates.get("owned") and not u.updates.get("fewest_owned")
    assert u.quotes == [{"gpu": "h100-sxm", "usd_per_gpu_hour": 2.5, "reserved": False}]
    assert u.updates.get("utilisation") == 0.6 and u.updates.get("horizon_months") == 36
    assert u.updates.get("preference") is None


@pytest.mark.parametrize("text", ["h100 2.1/hr 3 year term", "h100 at 2.10/hr on a 1 year reserved, or buy?"])
def test_a_reserved_term_is_still_reserved(text):
    assert understand(text).quotes[0]["reserved"] is True


def test_the_answer_and_a_what_if_on_the_use():
    first, second = run_conversation(["should we buy 8 h100s or keep renting? we run training jobs maybe 60% of the "
                                      "time, currently paying like 2.50/hr per gpu on lambda, 3 year horizon",
                                      "what if utilization drops to 30%"])
    assert "renting costs $315,360" in first.content and "Renting is the cheaper choice" in first.content
    assert "renting costs $157,680" in second.content and "How will you fine-tune" not in second.content
    assert payload(first)["kind"] == payload(second)["kind"]
