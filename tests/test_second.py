"""The second question of a message is answered (review AE E7, s14 'second'): more of the same cards asked beside a
job ('would a second node halve it?', '16 instead of 8', '加一台能快一倍吗') gets the tools' time on that many cards,
in English and Chinese, in either word order, with fillers."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conversation import run_conversation

JOB_EN = "we own 8x h100 sxm. need to classify 50M tweets (avg 60 tokens in, 5 tokens out) with llama 3.1 8b instruct."
JOB_ZH = "我们自己有8张H100，用llama 3.1 8b给5000万条推文分类，每条输入60个token，输出5个token。"
SECOND_EN = [
    "how many hours will it take? and if we got a second node of 8 would it halve it?",
    "takes how long on 16 h100 instead of 8?",
    "hmm, would doubling the gpus cut it in half?",
    "what if we add another 8 cards?",
    "would it go twice as fast with another node?",
]
SECOND_ZH = [
    "要多久？加一台能快一倍吗",
    "再加8张卡能快多少？",
    "要跑几个小时？第二台机器能让时间减半吗",
    "那个，卡翻倍的话能快一倍吗",
]
CASES = [("en", f"{JOB_EN} {q}") for q in SECOND_EN] + [("en", f"{q} {JOB_EN}") for q in SECOND_EN[:2]] \
    + [("zh", f"{JOB_ZH}{q}") for q in SECOND_ZH] + [("zh", f"{q}{JOB_ZH}") for q in SECOND_ZH[:2]]


def _asked(reply: Any, code: str) -> dict[str, Any]:
    found = [d for d in reply.additional_kwargs["gpu_advisor"].get("asked_more") or [] if d["code"] == code]
    assert found, reply.content[:600]
    return found[0]


@pytest.mark.parametrize(("lang", "text"), CASES)
def test_second_node_on_a_batch_job(lang: str, text: str) -> None:
    reply = run_conversation([text])[-1]
    data = _asked(reply, "scale_out")
    assert (data["gpu"], data["now_gpus"], data["gpus"]) == ("h100-sxm", 8, 16)
    assert 1.8 <= data["speedup"] <= 2.05  # independent copies: near linear
    assert ("独立" in reply.content) == (lang == "zh")


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "we own 8x h800. full finetune llama 3 8b on 1B tokens, how long? would a second server make it twice as fast?"),
    ("zh", "我们自己有8卡H800，全量微调llama 3 8b，10亿token，要多久？第二台机器能快一倍吗"),
])
def test_second_node_on_training(lang: str, text: str) -> None:
    reply = run_conversation([text])[-1]
    data = _asked(reply, "scale_out")
    assert (data["now_gpus"], data["gpus"]) == (8, 16)
    assert data["job_hours"] < data["now_hours"]
    assert ("梯度" in reply.content) == (lang == "zh")


@pytest.mark.parametrize("text", [JOB_EN + " how many hours will it take?", JOB_ZH + "要多久？"])
def test_no_second_node_when_none_asked(text: str) -> None:
    reply = run_conversation([text])[-1]
    assert not [d for d in reply.additional_kwargs["gpu_advisor"].get("asked_more") or [] if d["code"] == "scale_out"]
