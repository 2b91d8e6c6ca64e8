"""Latency in answers: every serving option carries the time to first token at the stated prompt length
and the time per output token at the stated concurrency, and the answer says both."""

from __future__ import annotations

import pytest

from gpu_advisor.tools.recommend import Workload, recommend
from gpu_advisor.tools.throughput import SpeedInput, speed
from tests.conversation import run_conversation


def test_every_serving_option_has_its_time_per_output_token_at_the_stated_concurrency():
    rec = recommend(Workload(phase="serve", model="llama-3.1-8b", users=50, ttft_ms=500, prompt_tokens=4000))
    served = [o for o in rec.options if o.decode_tokens_per_s]
    assert len(served) >= 3
    for o in served:
        assert o.tpot_s == pytest.approx(1 / o.decode_tokens_per_s)
        assert o.ttft_s is not None and o.ttft_s > 0
    best = rec.best
    # 2 x L40S ($2.18/h, 3 offers) leads: 1 x MI300X ($2.59/h) is priced from one offer (tools.cost.offer_spread)
    assert best is not None and best.gpu == "l40s"
    # the speed tool at the option's own batch gives the same step time
    sp = speed(SpeedInput(model="llama-3.1-8b", precision=best.precision, gpu=best.gpu, gpus=best.gpus, batch=50,
                          context=rec.workload.context, engine=best.engine, kv_precision=best.kv_precision))
    assert best.tpot_s == pytest.approx(sp.time_per_output_token_s)
    assert round(best.tpot_s * 1000) == 52


@pytest.mark.parametrize(("message", "expected"), [
    ("serve llama 3.1 8b to 50 users, first token under 500ms, 4k prompts",
     "19 tokens/s per user (a token every 52 ms), 964 in all; first token after 210 ms at 4,000-token prompts"),
    ("我们在海外，给50个用户部署 llama 3.1 8b，首token延迟500毫秒以内，提示词4k",
     "每个用户 19 token/s（每 52 ms 一个 token），总计 964 token/s；提示词 4,000 token 时，首 token 延迟 210 ms"),
])
def test_the_answer_says_time_per_token_and_first_token(message, expected):
    reply = run_conversation([message])[-1]  # a target is sized at once: how busy the cards are changes no card
    assert expected in reply.content, reply.content
