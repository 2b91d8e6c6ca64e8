"""The monthly bill from a traffic shape (tools.traffic_month): a daily cycle, bursts, and each way to pay for the
cards (on demand always on or on the schedule, reserved, spot, scaled to zero with its cold start), the cheapest
that meets the target; read from the conversation in English and Chinese, on the CLI as `monthly`."""

from __future__ import annotations

import itertools
import json

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.tools.common import ToolError
from gpu_advisor.tools.traffic_month import ShapeInput, check_shape, monthly_by_shape
from gpu_advisor.tui.cli import main
from tests.conversation import run_conversation

OFFICE = ShapeInput(gpu="h100-sxm", peak_replicas=4, peak_hours=9, peak_days=5, offpeak_share=0.1, usd_per_gpu_hour=2.0)


def by_way(r):
    return {w.way: w for w in r.ways}


def test_an_office_hours_service_pays_least_with_the_quiet_copy_reserved():
    r = monthly_by_shape(OFFICE)
    assert r.peak_hours_per_month == pytest.approx(195.0) and r.offpeak_hours_per_month == pytest.approx(535.0)
    assert (r.burst_replicas, r.offpeak_replicas) == (4, 1)
    w = by_way(r)
    assert w["on_demand_always"].usd_per_month == pytest.approx(4 * 730 * 2.0)  # 5,840
    assert w["on_demand_scheduled"].usd_per_month == pytest.approx((4 * 195 + 1 * 535) * 2.0)  # 2,630
    assert w["reserved_all"].usd_per_month == pytest.approx(4 * 730 * 2.0 * 0.72)  # 28% off: 4,204.80
    assert w["reserved_base"].usd_per_month == pytest.approx(730 * 2.0 * 0.72 + 3 * 195 * 2.0)  # 2,221.20
    # spot is cheaper (2,045) but reclaimed at short notice: it never holds the busy hours alone
    assert w["spot_peak"].usd_per_month == pytest.approx(730 * 2.0 + 3 * 195 * 1.0) and not w["spot_peak"].meets
    assert r.cheapest == "reserved_base"


def test_bursts_keep_more_copies_warm_through_the_busy_hours():
    r = monthly_by_shape(OFFICE.model_copy(update={"burst": 1.5}))
    assert r.burst_replicas == 6
    assert by_way(r)["on_demand_scheduled"].usd_per_month == pytest.approx((6 * 195 + 535) * 2.0)


def test_a_short_busy_window_with_nobody_after_pays_least_scaled_to_zero():
    short = ShapeInput(gpu="h100-sxm", peak_replicas=1, peak_hours=2, offpeak_share=0.0, usd_per_gpu_hour=2.0)
    r = monthly_by_shape(short)
    assert r.offpeak_replicas == 0 and r.cheapest == "scale_to_zero"
    assert by_way(r)["scale_to_zero"].usd_per_month == pytest.approx(2 * 7 * 52 / 12 * 5.49, rel=0.01)
    assert r.cold_start_s == 70
    # a first-token target under the cold start rules it out: the first request after idle waits 70 s
    tight = monthly_by_shape(short.model_copy(update={"ttft_target_s": 2.0}))
    assert not by_way(tight)["scale_to_zero"].meets and by_way(tight)["scale_to_zero"].reason == "cold_start"
    assert tight.cheapest == "reserved_all"  # one copy: reserving it all and its base are the same 1,051.20


def test_a_quiet_hours_copy_is_never_cold():
    r = monthly_by_shape(OFFICE.model_copy(update={"ttft_target_s": 0.5}))
    assert by_way(r)["scale_to_zero"].meets  # one copy stays up through the quiet hours


@pytest.mark.parametrize(("hours", "days", "message"), [(25, None, "between 0 and 24"), (-1, None, "between 0 and 24"),
                                                        (None, 8, "between 0 and 7")])
def test_an_impossible_shape_gets_one_line(hours, days, message):
    with pytest.raises(ToolError, match=message):
        check_shape(hours, days)


def test_the_discounts_and_cold_start_are_dated_and_sourced():
    r = monthly_by_shape(OFFICE)
    text = " ".join(r.assumptions)
    assert "gridstackhub.ai" in text and "2026-04-30" in text and "logeshumapathi.com" in text
    assert r.reserved_discount == 0.28 and r.spot_discount == 0.50


EN = ["serve qwen2.5 7b, 20 requests per second at peak, busy 9 to 6 on weekdays, {quiet}",
      "we serve llama 3.1 8b at 10 requests/s; {quiet}, busy 9am to 6pm on weekdays"]
QUIET_EN = [("almost nobody at night", 0.05), ("nobody at night", 0.0), ("quiet at night", 0.2)]
ZH = ["部署qwen2.5 7b，每秒20个请求，白天高峰{quiet}", "我们部署llama 3.1 8b，每秒10个请求，白天高峰，{quiet}"]
QUIET_ZH = [("晚上几乎没人", 0.05), ("夜里没人", 0.0), ("晚上人很少", 0.2)]


@pytest.mark.parametrize(("form", "quiet"), list(itertools.product(EN, QUIET_EN)))
def test_the_shape_is_read_in_english(form, quiet):
    u = understand(form.format(quiet=quiet[0]), None).updates
    assert u.get("peak_hours") == 9.0 and u.get("peak_days") == 5.0 and u.get("offpeak_share") == quiet[1], u


@pytest.mark.parametrize(("form", "quiet"), list(itertools.product(ZH, QUIET_ZH)))
def test_the_shape_is_read_in_chinese(form, quiet):
    u = understand(form.format(quiet=quiet[0]), None).updates
    assert u.get("peak_hours") == 12.0 and u.get("offpeak_share") == quiet[1], u


def test_no_shape_is_read_off_a_training_job():
    assert "offpeak_share" not in understand("fine-tune qwen3 8b with lora, nobody at night", None).updates


@pytest.mark.parametrize(("turn", "said"), [
    ("serve llama 3.1 8b, 20 requests per second at peak, busy 9 to 6 on weekdays, almost nobody at night",
     ["**By the month, for this traffic shape:** 2 copies of 1 GPU(s) in the busy hours (195 h a month), 1 in the "
      "quiet hours (535 h)", "scaled to zero (serverless", "a cold start of about 70 s",
      "The cheapest that meets the target: **the quiet hours' copies reserved, the rest on demand**",
      "busy 9 h a day; busy 5 days a week; the quiet hours at 5% of the busy hour's load"]),
    ("部署qwen2.5 7b，每秒20个请求，白天高峰晚上几乎没人",
     ["**按月算，按这个流量形态：**", "（每份 1 张 GPU，每月 364 小时）", "冷启动约 70 秒", "满足要求里最便宜的是：**",
      "每天忙 12 小时；闲时负载是高峰的 5%"]),
])
def test_the_answer_prices_each_way_by_the_month(turn, said):
    reply = run_conversation([turn])[-1]
    for s in said:
        assert s in reply.content, s


def test_the_cli_prints_each_way_and_the_cheapest(capsys):
    main(["monthly", "--gpu", "h100", "--replicas", "4", "--peak-hours", "9", "--peak-days", "5", "--offpeak-share",
          "10%", "--usd-per-gpu-hour", "2", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert data["cheapest"] == "reserved_base" and data["burst_replicas"] == 4 and data["offpeak_replicas"] == 1
    main(["monthly", "--gpu", "h100", "--replicas", "4", "--peak-hours", "9", "--peak-days", "5", "--offpeak-share",
          "10%", "--usd-per-gpu-hour", "2"])
    out = capsys.readouterr().out
    assert "* reserved quiet-hours copies + on demand peak" in out and "2,221 USD/month" in out
