"""Two latency targets in one sentence are both read (review BX #1: 'p99 TTFT under 800ms and TPOT under 40 ms' lost
the TTFT, and the reply said every target was met while its own queue put p99 TTFT at 1.1 s). A time takes the
label said right after its unit ('800ms TTFT', '40 ms per token'), else the one said before it; per-token words after
'and' / 'with' belong to the next number. Either order, ms or s, labels before or after, both languages."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states

TTFT_EN = ["p99 TTFT under {t}", "TTFT < {t}", "time to first token under {t}", "first token within {t}",
           "{t} TTFT", "TTFT p99 {t}"]
TPOT_EN = ["TPOT under 40 ms", "TPOT < 40ms", "40 ms per token", "ITL under 40ms", "40ms TPOT",
           "inter-token latency below 40 ms"]
JOINS_EN = [" and ", ", ", " with ", " and then "]
TTFT_S = {"800ms": 800.0, "800 ms": 800.0, "0.8s": 800.0, "0.8 s": 800.0, "1.5 s": 1500.0}


def _en() -> list[tuple[str, float]]:
    out = []
    for (ttft, tpot, join), (t, ms) in itertools.product(itertools.product(TTFT_EN, TPOT_EN, JOINS_EN),
                                                         list(TTFT_S.items())[::2]):
        first = ttft.format(t=t)
        out.append((f"serve llama 3.3 70b, 12 req/s, {first}{join}{tpot}", ms))
        out.append((f"serve llama 3.3 70b, 12 req/s, {tpot}{join}{first}", ms))
    return out


TTFT_ZH = ["首token p99 {t}以内", "首字延迟{t}以内", "首token要{t}以内", "首token延迟不超过{t}"]
TPOT_ZH = ["每token 40ms", "每个token 40毫秒以内", "出字间隔40ms", "每token不超过40ms"]
TTFT_ZH_T = {"800ms": 800.0, "800毫秒": 800.0, "0.8秒": 800.0}


def _zh() -> list[tuple[str, float]]:
    out = []
    for (ttft, tpot, join), (t, ms) in itertools.product(itertools.product(TTFT_ZH, TPOT_ZH, ["，", "，而且", "和"]),
                                                         TTFT_ZH_T.items()):
        first = ttft.format(t=t)
        out.append((f"部署llama 3.3 70b，每秒12个请求，{first}{join}{tpot}", ms))
        out.append((f"部署llama 3.3 70b，每秒12个请求，{tpot}{join}{first}", ms))
    return out


@pytest.mark.parametrize(("text", "ms"), _en() + _zh())
def test_both_latency_targets_are_read(text: str, ms: float) -> None:
    u = understand(text, None)
    assert u.updates.get("ttft_ms") == ms, u.updates
    assert u.updates.get("min_tokens_per_s") in (25.0, 27.625), u.updates  # 40 ms a token (27.6 held at p99: 1.105x, review CF #9)


@pytest.mark.parametrize("text", ["serve llama 3.3 70b, TPOT under 40 ms", "serve llama 3.3 70b, 50 ms per token",
                                  "部署llama 3.3 70b，每token 40ms"])
def test_one_per_token_target_alone_is_no_first_token_target(text: str) -> None:
    u = understand(text, None)
    assert "ttft_ms" not in u.updates and u.updates.get("min_tokens_per_s"), u.updates


def test_review_bx_1_keeps_the_first_token_target_and_does_not_claim_it_met_when_missed() -> None:
    states = run_states(["we need to serve llama 3.3 70b for our customer support bot 24/7, peak around 12 req/s, "
                         "answers ~250 tokens and prompts avg 2k, p99 TTFT under 800ms and TPOT under 40 ms. which gpus "
                         "and how many? we're on aws"])
    profile = states[-1]["profile"]
    assert (profile["ttft_ms"], profile["ttft_percentile"]) == (800.0, 0.99)
    assert profile["min_tokens_per_s"]
    reply = states[-1]["messages"][-1].content
    assert "800 ms" in reply
