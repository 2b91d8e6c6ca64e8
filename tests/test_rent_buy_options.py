"""Rent or buy at the user's own quotes: a rent said for N cards is shared over them, a rent per card-hour beside a
machine stays per card, a machine priced whole is also compared like for like (all its cards rented), and two options
on different cards ('rent one L20 monthly, or buy two 4090s') are compared as said. Totals asserted."""

from __future__ import annotations

import pytest

from gpu_advisor.knowledge import rules
from gpu_advisor.tools.cost import HOURS_PER_MONTH, RentBuyInput, rent_vs_buy
from tests.conversation import payload, run_conversation


def _results(text: str, *answers: str) -> dict:
    reply = run_conversation([text, *answers])[-1]
    data = payload(reply)
    also = next((a for a in data.get("also") or [] if a.get("code") == "rent_buy"), {})
    return {**data["results"], **also, "content": reply.content}  # a rent-or-buy asked beside a sizing: 'also'


def test_a_rent_for_four_cards_and_a_machine_bought_whole():
    """'8.40/hr for 4x h100' is $2.10 a card-hour; '210k for an 8x h100 server' a purchase, never a context."""
    got = _results("llama 3.3 70b ~150 paying users (15 at once) 24/7. lambda quoted us 8.40/hr for 4x h100, or 210k "
                   "for an 8x h100 server. which is cheaper?")
    rb = got["rent_or_buy"]
    assert rb["rent_total_usd"] == pytest.approx(2.10 * rb["gpus"] * HOURS_PER_MONTH * rb["horizon_months"], rel=1e-6)
    full = got["rent_or_buy_machine"]
    assert full["gpus"] == 8
    assert full["rent_total_usd"] == pytest.approx(2.10 * 8 * HOURS_PER_MONTH * full["horizon_months"], rel=1e-6)
    assert "215,040" not in got["content"]
    assert "$2.10 per card-hour" in got["content"]
    assert "I read $8.40 an hour for 4 × NVIDIA H100 SXM 80GB as the price of all 4: $2.10 per card-hour." in got["content"]


def test_a_reserved_rent_per_gpu_hour_against_an_eight_card_server():
    """Expert: 8 × $2.30 × 730 × 36 ≈ $484k rented, against $310k + 36 × $2.5k + power owned."""
    got = _results("vendor quoted us 310k for an 8x H200 server, colo 2.5k a month, vs reserved 2.30/gpu-hr. serving "
                   "qwen3-235b fp8 24/7. which is cheaper over 3 years", "40")
    full = got["rent_or_buy_machine"]
    assert full["horizon_months"] == 36
    assert full["rent_total_usd"] == pytest.approx(8 * 2.30 * HOURS_PER_MONTH * 36, rel=1e-6)
    power = full["buy_total_usd"] - 310_000 - 36 * 2_500
    assert 0 < power < 40_000, full
    assert full["cheaper"] == "buy"
    rb = got["rent_or_buy"]
    assert rb["rent_usd_per_gpu_month"] == pytest.approx(2.30 * HOURS_PER_MONTH)
    assert "$0.29" not in got["content"]
    assert "owning the whole machine is cheaper" in got["content"]


def test_rent_one_card_or_buy_two_others_compares_the_users_two_options():
    """Expert: ¥16k per 4090 (the total over two), ¥4,800 a month for one L20 rented; no restriction to the L20."""
    rate = rules().usd_per_cny
    got = _results("glm-4-9b 日活五千，阿里云L20 每月4800，或买两张4090 一共三万二，哪个划算", "服务用户", "全天候")
    rb = got["rent_or_buy"]
    assert (rb["gpu"], rb["gpus"], rb["buy_gpu"], rb["buy_gpus"]) == ("l20", 1, "rtx-4090", 2)
    assert rb["rent_total_usd"] == pytest.approx(4800 * rate * rb["horizon_months"], rel=1e-3)
    power = rb["buy_total_usd"] - 32_000 * rate  # two 4090s at the wall (450 W x 1.3), China's 0.10 USD/kWh, no hosting
    assert power == pytest.approx(2 * 0.585 * 0.10 * HOURS_PER_MONTH * rb["horizon_months"] * rb["utilisation"], rel=1e-3)
    assert "租 1 × NVIDIA L20 48GB 还是买 2 × NVIDIA GeForce RTX 4090 24GB？" in got["content"]
    assert "每张 ¥16,000" in got["content"]
    assert "每张买价 ¥32,000" not in got["content"]


def test_the_volcano_h20_quote_stays_right():
    rate = rules().usd_per_cny
    got = _results("部署qwen2.5-72b，20人同时用，火山H20每卡每小时9块 整机买断110万 托管每月八千 三年，租还是买", "全天候")
    rb = got["rent_or_buy"]
    assert rb["gpu"] == "h20" and rb["horizon_months"] == 36
    assert rb["rent_total_usd"] == pytest.approx(9 * rate * rb["gpus"] * HOURS_PER_MONTH * 36 * rb["utilisation"], rel=1e-6)
    assert "整机购买 ¥1,100,000" in got["content"]


@pytest.mark.parametrize(("n", "m"), [(1, 2), (2, 1), (3, 3), (4, 8)])
@pytest.mark.parametrize("monthly", [True, False])
def test_the_tool_compares_different_cards_and_counts(n, m, monthly):
    """Rent n cards of one kind against buying m of another: totals add up, and the same card with the same count
    gives exactly what the one-card comparison gives."""
    rent = {"rent_usd_per_gpu_month": 672.0} if monthly else {"rent_usd_per_gpu_hour": 0.92}
    inp = RentBuyInput(gpu="l20", gpus=n, utilisation=0.5, purchase_usd_per_gpu=2240.0, buy_gpu="rtx-4090",
                       buy_gpus=m, hosting_usd_per_gpu_month=0.0, horizon_months=24, **rent)
    rb = rent_vs_buy(inp)
    hours = 24 * HOURS_PER_MONTH
    expected_rent = 672.0 * 24 * n if monthly else 0.92 * hours * 0.5 * n
    assert rb.rent_total_usd == pytest.approx(expected_rent)
    power = 450 * 1.3 / 1000 * 0.15 * hours * 0.5 * m  # the 4090's board power at the wall, the bought cards only
    assert rb.buy_total_usd == pytest.approx(2240.0 * m + power, rel=1e-3)
    assert rb.buy_gpu == "rtx-4090" and rb.buy_gpus == (m if m != n else None)
    same = rent_vs_buy(RentBuyInput(gpu="l20", gpus=n, utilisation=0.5, purchase_usd_per_gpu=9000.0,
                                    hosting_usd_per_gpu_month=50.0, horizon_months=24, **rent))
    again = rent_vs_buy(RentBuyInput(gpu="l20", gpus=n, utilisation=0.5, purchase_usd_per_gpu=9000.0, buy_gpu="l20",
                                     buy_gpus=n, hosting_usd_per_gpu_month=50.0, horizon_months=24, **rent))
    assert again.model_dump() == same.model_dump()


@pytest.mark.parametrize("rent", ["租4张H20每小时36块", "租4张H20，每小时一共36元", "4卡H20每小时36元"])
@pytest.mark.parametrize("buy", ["或者买一台8卡H20整机110万", "或者整机买断110万（8卡H20）"])
def test_a_rent_for_four_cards_beside_an_eight_card_machine_bought(rent, buy):
    """The rent is the four cards' (¥9 a card-hour); the machine bought is the eight cards' (¥137,500 a card)."""
    from gpu_advisor.assistant.reading import understand

    rate = rules().usd_per_cny
    u = understand(f"部署qwen2.5-72b，20人同时用，全天候，{rent}，{buy}，租还是买", None)
    assert u.prices["rent_usd_per_hour"] == pytest.approx(9 * rate), u.prices
    assert u.prices["buy_usd_machine"] == pytest.approx(1_100_000 * rate), u.prices
    assert u.quotes[0]["usd_per_gpu_hour"] == pytest.approx(9 * rate)
