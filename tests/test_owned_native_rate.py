"""Your own servers at a request rate are tried in the model's own format first (review BO #1: 'we own 2 nodes of
8xH100 … deepseek r1 … 15 req/s … do we need more?' was answered 'about 72 × H100 in int4'): R1 and V3 ship in FP8
and fit 16 H100 in it, so the answer says what those 16 sustain in FP8 and how many more the rate takes in FP8;
more requests in flight at the rate never push the plan to 4 bits. A model that does not fit your cards in its
own format is still quantised to fit."""

from __future__ import annotations

import pytest

from tests.conversation import run_states

EN = [
    "we own 2 nodes of 8xH100 80GB SXM w/ IB between them, want to serve {model} for internal users, ~15 req/s peak, "
    "p99 TTFT under 2s. can we do it on those 16 gpus or do we need more?",
    "serve {model} at 15 requests per second, p99 time to first token 2 s; we have two 8x H100 servers with "
    "infiniband, is that enough?",
]
ZH = [
    "我们有两台8卡H100 80G服务器，IB互联，想部署{model}给内部用，高峰每秒15个请求，p99首字延迟2秒以内，这16张卡够吗",
    "{model}上线，峰值15 QPS，首token p99要2秒内，手上两台8卡H100（IB互联）够不够",
]
MODELS = ["deepseek r1 671b", "deepseek-v3"]


def _case(text: str) -> tuple[dict, str]:
    state = run_states([text])[-1]
    return state["results"]["recommend"], state["messages"][-1].content


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("template", EN + ZH)
def test_owned_servers_at_a_rate_stay_in_the_native_format(template: str, model: str) -> None:
    rec, reply = _case(template.format(model=model))
    best, traffic = rec["best"], rec["traffic"]
    assert best["owned"] and best["gpus"] == 16 and best["precision"] == "fp8"
    assert traffic["owned_short"] and traffic["owned_gpus"] == 16
    assert traffic["needed_gpus"] > 16 and 0 < traffic["owned_rps"] < 15
    headline = reply.splitlines()[0]
    assert "fp8" in headline and "int4" not in headline
    assert f"{traffic['needed_gpus'] - 16:,}" in headline  # how many more, in FP8
    # never 'which the plan holds' for a plan that holds fewer than the rate puts in flight
    # (R1 writes its thinking: 1,500 tokens a request put more in flight than the FP8 plan holds at once)
    held, model_only = ("which the plan holds", "hold the model in fp8") if template in EN else ("方案按此容纳", "用 fp8 放得下模型")
    assert (held in reply) != (model_only in reply)
    if "r1" in model:
        assert model_only in reply


@pytest.mark.parametrize("text", [
    "we own one 8xH100 80GB server, serve deepseek r1 at 5 req/s, p99 TTFT under 2s, enough?",
    "我们有一台8卡H100 80G，部署deepseek r1，每秒5个请求，p99首字2秒内，够吗",
])
def test_a_model_too_big_for_your_cards_in_its_format_is_still_quantised(text: str) -> None:
    rec, _reply = _case(text)
    assert rec["best"]["owned"] and rec["best"]["gpus"] == 8
    assert rec["best"]["precision"] != "fp8"  # 671 GB of FP8 weights do not fit 8 x 80 GB
