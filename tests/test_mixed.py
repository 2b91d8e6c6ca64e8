"""Owned hardware planned as it is (task h-mixed; review AV ZH3/EN2/EN6, AU13).

- servers x cards per server are kept as said ('three servers with 4 x 3090 each' are three servers of four, never a
  server of eight); a training run over servers joined by a slow network (1 GbE, '千兆网', ordinary Ethernet) is
  planned on one server's cards, with its hours, the reason, and what a fast network would give.
Phrasings are generated over word orders, fillers and both languages; the assertions are on codes and figures."""

from __future__ import annotations

import pytest

from gpu_advisor.tools.recommend import Recommendation
from tests.conversation import payload, run_conversation


def _rec(reply) -> Recommendation:
    return Recommendation.model_validate(payload(reply)["results"]["recommend"])


SLOW_BOXES = [
    ("zh", "课题组有三台服务器，每台4张3090 24G，没有nvlink，机器之间就千兆网。想全参微调qwen2.5-7b，数据大概两百万条，"
           "平均每条600 token，训2个epoch，现在的卡够不够，大概要跑几天"),
    ("zh", "想全参微调qwen2.5-7b，两百万条数据，每条600 token，2个epoch。我们有3台服务器，每台4张3090，服务器之间是千兆网，"
           "要跑几天？"),
    ("zh", "嗯，实验室三台机器每台四张3090，机器之间只有普通以太网，全参微调 qwen2.5 7b，200万条样本每条600 token，"
           "训两轮，够不够"),
    ("en", "We have three boxes with 4x 3090 each, just gigabit between them. Want to full fine-tune qwen2.5-7b on 2M "
           "samples of 600 tokens, 2 epochs. Are our cards enough and how many days?"),
    ("en", "full fine-tune qwen2.5-7b, 2M examples at ~600 tokens, 2 epochs. we own 3 servers, each with 4 RTX 3090s, "
           "connected by 1GbE. how long would it take?"),
    ("en", "so our lab has 3 servers with 4 3090s each and only ordinary ethernet between them -- can we full "
           "finetune qwen2.5 7b on 2M samples of 600 tokens for 2 epochs, and how many days?"),
]


@pytest.mark.parametrize(("lang", "text"), SLOW_BOXES)
def test_slow_network_trains_on_one_server_as_said(lang: str, text: str) -> None:
    reply = run_conversation([text])[-1]
    rec = _rec(reply)
    best = rec.best
    assert best is not None and best.owned and best.gpu == "rtx-3090"
    assert best.gpus == 4  # one server of four, never 'one server's 8 cards'
    assert best.trains
    finding = next(f for f in best.findings if f.code == "one_server_training")
    assert finding.values["servers"] == "3" and finding.values["per"] == "4" and finding.values["gpus"] == "12"
    assert float(str(finding.values["fast_hours"]).replace(",", "")) < (best.training_hours or 0)
    assert rec.workload.network == "slow"
    content = str(reply.content)
    assert "8 ×" not in content.split("|")[0]  # the headline and paragraph never plan 8 cards
    if lang == "zh":
        assert "4 张卡规划" in content
    else:
        assert "one server's 4 cards" in content


FAST_BOXES = [
    "we have 3 servers with 4x 3090 each, connected over infiniband. full fine-tune qwen2.5-7b on 2M samples of "
    "600 tokens, 2 epochs: how long?",
    "三台服务器每台4张3090，服务器之间是IB互联，全参微调qwen2.5-7b，两百万条每条600 token，2个epoch，要多久",
]


@pytest.mark.parametrize("text", FAST_BOXES)
def test_fast_network_uses_every_server(text: str) -> None:
    best = _rec(run_conversation([text])[-1]).best
    assert best is not None and best.owned and best.gpus == 12


# The weight file the user named is kept; one card more that vLLM's tensor parallel cannot use is said (AU13).
AWQ_THIRD = [
    ("zh", "我有两张 3090，想跑 qwen2.5 72b 的 awq int4，能跑起来吗？速度大概多少？还是说加一张凑三张比较好"),
    ("zh", "两张3090跑qwen2.5-72b awq，就我自己用，要不要再加一张卡？"),
    ("zh", "qwen2.5 72b 用 int4 awq 跑在我的两张3090上，个人用，能跑吗，需要再加一张显卡吗"),
    ("en", "I have two 3090s and want to run qwen2.5 72b awq int4. will it run, how fast, or should I add a third card?"),
    ("en", "should i add a third card? i've got 2x rtx 3090 and want to run qwen2.5-72b in AWQ, just for me"),
]


@pytest.mark.parametrize(("lang", "text"), AWQ_THIRD)
def test_named_format_kept_and_tp_divisibility_answered(lang: str, text: str) -> None:
    reply = run_conversation([text])[-1]
    rec = _rec(reply)
    assert rec.workload.serve_precision == "awq"
    content = str(reply.content)
    head = content.split("##")[0]
    assert "64" in head and "4 ×" in head  # 64 heads: 2 or 4 cards on vLLM, the next count sized
    if lang == "zh":
        assert "不能用 3 张" in head
    else:
        assert "not 3" in head
    best = rec.best
    if best is not None and best.owned and best.precision != "awq":
        assert "AWQ" in content.split("\n")[0]  # the switch is said first


@pytest.mark.parametrize("text", ["跑 qwen2.5 72b 的 awq int4", "qwen2.5-72b int4 awq on vllm", "gptq int4 llama 3.1 70b"])
def test_named_file_beats_bare_bits(text: str) -> None:
    from gpu_advisor.assistant.reading.job import read_precision
    from gpu_advisor.assistant.reading.message import prepare

    assert read_precision(prepare(text, None)) in ("awq", "gptq-int4")


# CPU offload asked on the one card said: the offload plan is the answer, its yes first, the count kept (EN2).
OFFLOAD = [
    ("en", "hobbyist question - i've got an old rtx 3080 10gb and 32gb of system ram. can i run qwen3 30b a3b (the moe "
           "one) with some layers offloaded to cpu? how fast would it be"),
    ("en", "can i run qwen3-30b-a3b on my old 3080 10gb with some layers offloaded to cpu? 32gb ram. how fast?"),
    ("zh", "我有一张旧的3080 10G，内存32G，qwen3 30b a3b 能不能把一部分层放到内存里跑，速度多少"),
    ("zh", "qwen3 30b a3b 想用我的一张3080 10g 加 CPU offload 跑，内存 32g，能跑吗，多快"),
]


@pytest.mark.parametrize(("lang", "text"), OFFLOAD)
def test_offload_asked_is_the_plan_on_the_one_card(lang: str, text: str) -> None:
    reply = run_conversation([text])[-1]
    rec = _rec(reply)
    assert rec.offload is not None and rec.offload_leads
    assert rec.workload.owned == ["1x rtx-3080"]
    first = str(reply.content).split("\n")[0]
    assert first.startswith("**Yes" if lang == "en" else "**能")
    content = str(reply.content)
    assert "how many" not in content and "no cards of your own" not in content and "几张" not in content
