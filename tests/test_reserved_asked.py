"""On demand against a reservation asked beside a sizing with no reserved price ('what would that cost per month on
demand vs a 1 yr reserved?', '按量付费和包年哪个划算'): the plan is rented, and the reply weighs the two on the plan's
own on-demand price (the hourly price a reservation must beat), inventing no reserved price (review V #6)."""

from __future__ import annotations

import re

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_conversation

EN = ["how many H100s do i need to serve llama 3.1 70b to ~200 concurrent users in fp8, and what would that cost per "
      "month on demand vs a 1 yr reserved?",
      "serve qwen2.5 72b to 50 users at once on A100s: on-demand or reserved for a year?",
      "llama 3.1 8b for 30 concurrent users, 24/7. pay as you go or a 1-year commitment, which is cheaper?"]
ZH = ["部署qwen2.5 72b给50个人同时用，用A800，按量付费和包年哪个划算",
      "llama 3.1 8b，30个人同时用，全天候，按需付费还是包年便宜",
      "按量还是预留一年？部署qwen2.5 32b，20人同时在线"]


@pytest.mark.parametrize("text", EN + ZH)
def test_the_reservation_asked_is_weighed_on_the_plans_own_price(text: str) -> None:
    u = understand(text, None)
    assert u.ask.get("reserved_asked") and u.updates.get("preference") == "rent", (u.ask, u.updates)
    reply = run_conversation([text, "全天候" if re.search("[\u4e00-\u9fff]", text) else "24/7"])
    body = next(r.content for r in reply if "## " in r.content)
    zh = bool(re.search("[\u4e00-\u9fff]", text))
    assert ("**按量付费还是包年**" if zh else "**On demand against a 1-year reservation:**") in body
    assert re.search(r"\n## (租用|Rent) ", "\n" + body), body
    assert body.index("按量付费还是包年" if zh else "On demand against") < body.index("\n## ")


def test_a_reserved_price_said_is_not_this_question() -> None:
    u = understand("should i lock in 1 year reserved at 2.10/hr for h100s or stay on demand?", None)
    assert not u.ask.get("reserved_asked")
