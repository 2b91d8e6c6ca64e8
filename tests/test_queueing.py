"""Traffic as a request rate (tools.queueing): Little's law, the Erlang C wait, and replicas from a rate."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from gpu_advisor.tools.common import ToolError
from gpu_advisor.tools.queueing import (
    RateInput,
    Unit,
    erlang_c,
    load_point,
    lognormal_cv2,
    per_second,
    poisson_quantile,
    size_by_rate,
    wait_quantile,
)

# A replica whose physics is written by hand: a 10 ms decode step at any batch, 10 us of prefill per prompt
# token, chunks of 8,192 tokens, room for 1,000 sequences.
HAND = Unit(tp=1, pp=1, max_sequences=1000, chunk_tokens=8192, prefill_s_per_token=1e-5,
            prefill_s_per_token_tail=1e-5, batches=(1, 1000), steps=(0.01, 0.01))


def test_erlang_c_matches_the_textbook_values():
    # C(c, a) = (a^c / c!) (c / (c - a)) / (sum_{k<c} a^k / k! + (a^c / c!) (c / (c - a)))
    assert erlang_c(1, 0.5) == pytest.approx(0.5)  # one server: the chance of waiting is its utilisation
    assert erlang_c(2, 1.0) == pytest.approx(1 / 3)  # 1 / (1 + 1 + 1)
    assert erlang_c(3, 2.0) == pytest.approx(4 / 9)  # 4 / (1 + 2 + 2 + 4)
    assert erlang_c(4, 0.0) == 0.0 and erlang_c(2, 2.0) == 1.0


def test_poisson_and_wait_quantiles():
    assert poisson_quantile(10, 0.99) == 18  # P(N <= 17) = 0.9857, P(N <= 18) = 0.9928
    assert poisson_quantile(0, 0.99) == 0
    assert poisson_quantile(10_000, 0.99) == 10_233  # normal approximation: 10,000 + 2.326 x 100
    assert wait_quantile(0.3, 1.0, 0.5) == 0.0  # 70% never wait: the median wait is nothing
    assert wait_quantile(0.5, 1.0, 0.99) == pytest.approx(2 * math.log(50))


def test_rates_per_minute_hour_and_day_are_spread_evenly():
    assert per_second(1200, "minute") == 20
    assert per_second(72_000, "hour") == 20
    assert per_second(86_400, "day") == 1


def test_lognormal_spread_from_a_p99():
    assert lognormal_cv2(1000, 1000) == 0.0  # every prompt the same length
    assert 0.5 < lognormal_cv2(1000, 4000) < 1.5  # a p99 four times the mean: about as varied as an exponential


def test_littles_law_on_a_replica_worked_by_hand():
    # 10 requests/s of 1,000-token prompts, 101 tokens out, prompts of one length (Cs^2 0), Poisson arrivals:
    # prefill share 10 x 1,000 x 1e-5 = 0.1, so TPOT = 10 ms / 0.9 = 11.11 ms;
    # a prompt's service 1,000 x (1e-5 + 0.01 / 8,192) = 11.22 ms, queue utilisation 0.1122,
    # mean wait 0.1122 x 11.22 ms / 0.8878 x (1 + 0) / 2 = 0.709 ms; own prefill 10 ms + one 10 ms step;
    # time in system 0.709 ms + 20 ms + 100 x 11.11 ms = 1.1318 s; in flight 10 x 1.1318 = 11.32.
    p = load_point(HAND, 10, 1000, 1000, 101, 101, prompt_cv2=0.0, arrival_cv2=1.0)
    assert p.stable
    assert p.prefill_share == pytest.approx(0.1)
    assert p.tpot_p50_s == pytest.approx(0.01 / 0.9)
    assert p.queue_utilisation == pytest.approx(0.112207, rel=1e-5)
    assert p.concurrency == pytest.approx(11.3182, rel=1e-4)
    assert p.concurrency_p99 == 20  # Poisson(11.32)'s 99th percentile
    assert p.ttft_p50_s == pytest.approx(0.020)  # 89% of prompts do not wait
    assert p.wait_p99_s == pytest.approx(0.0152789, rel=1e-4)  # 0.709 ms / 0.1122 x ln(0.1122 / 0.01)


def test_a_replica_past_its_prefill_capacity_is_unstable():
    assert not load_point(HAND, 100, 1000, 1000, 101, 101, 0.0).stable  # 100 x 1,000 x 1e-5 = all of the GPU


def test_a_shared_queue_waits_less_than_queues_per_replica():
    own = load_point(HAND, 40, 1000, 1000, 101, 101, 1.0, 1.0, servers=1)
    shared = load_point(HAND, 40, 1000, 1000, 101, 101, 1.0, 1.0, servers=4)
    assert shared.wait_p99_s < own.wait_p99_s


def test_eight_b_at_twenty_requests_a_second_on_h100():
    r = size_by_rate(RateInput(model="llama-3.1-8b", gpu="h100", requests_per_s=20, prompt_tokens=1000,
                               output_tokens=200, ttft_p99_ms=2000, tpot_ms=50))
    assert (r.replicas, r.tp, r.gpus, r.servers) == (2, 1, 2, 1)
    assert r.binding == "utilisation"  # one H100 would run at 94% of what it sustains
    assert r.concurrency == pytest.approx(r.requests_per_s * r.concurrency_per_replica / (20 / 2))
    assert 50 < r.concurrency < 80
    assert r.ttft_p99_s <= 2.0 and r.tpot_p50_s <= 0.05 and r.utilisation <= 0.8
    assert any("Little's law" in a for a in r.assumptions)
    assert any("Erlang C" in a for a in r.assumptions)
    assert r.term("concurrency").inputs["requests_per_s"] == 20


def test_a_tight_tpot_moves_to_tensor_parallel():
    loose = size_by_rate(RateInput(model="llama-3.1-70b", gpu="h100", precision="fp8", requests_per_s=5,
                                   prompt_tokens=2000, output_tokens=300))
    tight = size_by_rate(RateInput(model="llama-3.1-70b", gpu="h100", precision="fp8", requests_per_s=5,
                                   prompt_tokens=2000, output_tokens=300, tpot_ms=15))
    assert tight.tp > loose.tp and tight.tpot_p50_s <= 0.015


def test_a_target_below_the_physics_is_one_clear_line():
    with pytest.raises(ToolError, match="below the physics") as e:
        size_by_rate(RateInput(model="llama-3.1-8b", gpu="h100", requests_per_s=20, prompt_tokens=1000,
                               output_tokens=200, ttft_p99_ms=20))
    assert "\n" not in str(e.value)


def test_a_rate_beyond_max_gpus_is_refused():
    with pytest.raises(ToolError, match="more than 8"):
        size_by_rate(RateInput(model="llama-3.1-8b", gpu="h100", requests_per_s=3000, prompt_tokens=1000,
                               output_tokens=200, max_gpus=8))


@pytest.mark.parametrize("field,value", [("requests_per_s", -1), ("requests_per_s", 0), ("prompt_tokens", 0),
                                         ("ttft_p99_ms", -5), ("max_utilisation", 1.0)])
def test_bad_numbers_are_refused(field, value):
    args = {"model": "llama-3.1-8b", "gpu": "h100", "requests_per_s": 1, "prompt_tokens": 100, "output_tokens": 100}
    with pytest.raises(ValidationError):
        RateInput(**{**args, field: value})


BASE = {"model": "llama-3.1-8b", "gpu": "h100", "prompt_tokens": 1000, "output_tokens": 200}
FAST = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(rate=st.floats(0.5, 120), more=st.floats(1.0, 3.0))
def test_more_rate_never_fewer_gpus(rate, more):
    low = size_by_rate(RateInput(**BASE, requests_per_s=rate, ttft_p99_ms=2000, tpot_ms=50))
    high = size_by_rate(RateInput(**BASE, requests_per_s=rate * more, ttft_p99_ms=2000, tpot_ms=50))
    assert high.gpus >= low.gpus


@FAST
@given(rate=st.floats(1, 60), p99=st.floats(150, 3000), tighter=st.floats(0.3, 1.0))
def test_a_tighter_p99_never_fewer_gpus(rate, p99, tighter):
    try:
        tight = size_by_rate(RateInput(**BASE, requests_per_s=rate, ttft_p99_ms=p99 * tighter))
    except ToolError:
        return  # below the physics: nothing serves it
    loose = size_by_rate(RateInput(**BASE, requests_per_s=rate, ttft_p99_ms=p99))
    assert tight.gpus >= loose.gpus


@FAST
@given(rate=st.floats(1, 60), burst=st.floats(1, 8))
def test_bursty_traffic_never_fewer_gpus(rate, burst):
    poisson = size_by_rate(RateInput(**BASE, requests_per_s=rate, ttft_p99_ms=1000))
    bursty = size_by_rate(RateInput(**BASE, requests_per_s=rate, ttft_p99_ms=1000, arrival_cv2=burst))
    assert bursty.gpus >= poisson.gpus
