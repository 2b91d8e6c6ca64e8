"""'满血版' on cards the user owns is the checkpoint's own format, never quietly 4-bit (review CI #10: DeepSeek-R1 满血版
on an 8 × H20 96GB server answered 'fits' at int4); and a card's memory said after the word for its server ('8卡H20服务器
(141G版)', 'an 8x h20 server (141gb version)') is that card's memory, not the catalog's 96 GB one."""

from __future__ import annotations

import pytest
from conversation import run_states

from gpu_advisor.assistant.reading import understand


@pytest.mark.parametrize("text", [
    "我们有一台8卡H20服务器(141G版)", "我们有一台8卡H20服务器（141G版本），想跑r1", "we have an 8x h20 server (141gb version)",
    "我们有8张H20（141G版本）", "we have 8 h20 141gb",
])
def test_memory_said_after_the_server_word(text):
    owned = understand(text, None).updates["owned"]
    assert len(owned) == 1 and owned[0].startswith("8x custom:memory=141GB") and "name=NVIDIA H20 141GB" in owned[0]


@pytest.mark.parametrize("text", ["我们有一台8卡H20服务器，想跑deepseek r1满血版给60个人用，够不够",
                                  "we have one 8x H20 96GB server and want to run the full deepseek r1 (native weights) "
                                  "for 60 people at once, enough?"])
def test_native_weights_are_never_relaxed_to_four_bit_on_owned_cards(text):
    rec = run_states([text])[-1]["messages"][-1].additional_kwargs["gpu_advisor"]["results"]["recommend"]
    assert rec["best"]["precision"] == "fp8"
    owned = rec["owned_options"]
    assert [(o["gpu"], o["gpus"], o["precision"], o["ok"]) for o in owned] == [("h20", 8, "fp8", False)]


def test_native_weights_fit_the_141g_server():
    text = "我们有一台8卡H20服务器(141G版)，想跑deepseek r1满血版给60个人用，够不够"
    rec = run_states([text])[-1]["messages"][-1].additional_kwargs["gpu_advisor"]["results"]["recommend"]
    assert rec["best"]["owned"] and rec["best"]["gpus"] == 8 and rec["best"]["precision"] == "fp8" and rec["best"]["ok"]
