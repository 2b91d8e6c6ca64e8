"""A reservation weighed against waiting for prices to fall, said with how the cards are used now ('we use about 8 gpus
steady for inference'), is the price question, not a sizing request (review BW #5 asked for the model, then the
users, and never answered). The reply says prices cannot be forecast and weighs the reserved price against on-demand
for all the cards said, at the use said; it asks no sizing question. A later 'im asking about the price trend and
whether reserving makes sense' answers it again with the reservation offered before."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import payload, run_states, unexplained_numbers

ASK_EN = ["is it worth locking in a 1yr reserved h100 at $2.10/hr now or will prices keep falling?",
          "should we reserve h100s for a year at $2.10/h or wait for prices to fall?",
          "lock in a 1-year h100 reservation at 2.10/hr, or wait until prices drop?"]
USE_EN = ["we use about 8 gpus steady for inference", "we run 8 gpus around the clock", "we use 8 gpus 24/7 for serving",
          "we run 8 h100s around the clock for inference"]
ASK_ZH = ["H100租金还会继续降吗？要不要签一年包年，每小时15块", "H100包年每小时15块，现在签还是等降价？",
          "要不要现在签一年H100预留，15元每卡时，还是等价格再降一降"]
USE_ZH = ["我们稳定用8张卡做推理", "我们7x24小时用8张卡", "我们全天候用8张卡跑推理"]


@pytest.mark.parametrize(("ask", "use", "first"), [*((a, u, f) for (a, u), f in itertools.product(
    itertools.product(ASK_EN, USE_EN), (True, False))), *((a, u, f) for (a, u), f in itertools.product(
        itertools.product(ASK_ZH, USE_ZH), (True, False)))])
def test_a_reservation_beside_the_use_now_is_the_price_question(ask: str, use: str, first: bool) -> None:
    sep = "，" if ask.isascii() is False else " "
    u = understand(f"{ask}{sep}{use}" if first else f"{use}{'，' if sep == '，' else '. '}{ask}", None)
    assert "forecast" in u.intents, (u.intents, u.updates)
    assert u.cards == ["h100-sxm"] and u.counts == {"h100-sxm": 8}
    assert u.prices.get("reserved_usd_per_hour")
    assert u.updates.get("utilisation") == 1.0
    assert not set(u.updates) - {"utilisation", "region", "only"}, u.updates


@pytest.mark.parametrize("text", ["doesnt matter which model, its 70b-ish. im asking about the price trend and whether "
                                  "reserving makes sense", "模型无所谓，70b左右。我问的是价格走势，包年值不值"])
def test_the_price_said_to_be_the_question_drops_the_model(text: str) -> None:
    u = understand(text, None)
    assert "forecast" in u.intents and not u.updates.get("model")
    assert u.ask.get("reserve")


def test_a_workload_with_a_model_stays_a_sizing() -> None:
    u = understand("serve llama 3.3 70b to 50 users on h100s, will prices keep falling?", None)
    assert u.updates.get("model") == "llama-3.3-70b" and u.updates.get("users") == 50


@pytest.mark.parametrize(("turns", "lang"), [
    (["is it worth locking in a 1yr reserved h100 at $2.10/hr now or will prices keep falling? we use about 8 gpus "
      "steady for inference", "doesnt matter which model, its 70b-ish. im asking about the price trend and whether "
      "reserving makes sense"], "en"),
    (["H100租金还会继续降吗？要不要签一年包年，每小时15块，我们稳定用8张卡做推理", "模型无所谓，70b左右。我问的是价格走势，包年值不值"], "zh")])
def test_review_bw_5_answers_the_reservation_for_eight_cards_and_asks_nothing(turns: list[str], lang: str) -> None:
    states = run_states(turns)
    for state in states:
        reply = state["messages"][-1]
        data = payload(reply)
        assert data["kind"] == "info" and data["topic"] == "forecast", reply.content
        reserved = data["results"]["reserved"]
        assert reserved["gpus"] == 8 and reserved["utilisation"] == 1.0
        hourly = data["results"]["on_demand_quote"]["usd_per_gpu_hour_typical"]
        assert reserved["on_demand_usd_per_month"] == pytest.approx(8 * 730 * hourly, rel=0.01)
        assert not state.get("pending"), reply.content  # no sizing question
        assert ("8 cards you use" if lang == "en" else "8 张卡合计") in reply.content
        assert unexplained_numbers(reply.content, data["results"]) == [], reply.content
        assert state["profile"].get("model") is None and state["profile"].get("phase") is None
