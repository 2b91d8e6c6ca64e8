"""A format below 4 bits is never called 4-bit: Q3_K_M (3.91 bits a weight) on a Mac is said as about 3.9 bits,
and the Mac's raisable GPU memory limit is named, since raising it may let the usual 4-bit file fit."""
from __future__ import annotations

import pytest
from conversation import run_conversation

CASES = [("本地跑 DeepSeek-R1 671B，Mac Studio M3 Ultra 512G 行不行", "每个权重约 3.9 bit", "4-bit 权重，模型放得下"),
         ("can my mac studio m3 ultra 512gb run deepseek r1 671b locally?", "about 3.9 bits a weight",
          "4-bit weights, so the model fits")]


@pytest.mark.parametrize("text, said, never", CASES)
def test_q3_is_said_as_three_bit_with_the_wired_limit(text, said, never):
    reply = run_conversation([text])[0].content
    assert "q3_k_m" in reply
    assert said in reply and never not in reply
    assert "iogpu.wired_limit_mb=445440" in reply


def test_a_four_bit_format_is_still_four_bit():
    reply = run_conversation(["run llama 3.3 70b on my macbook pro m3 max 64gb, just me"])[0].content
    assert "q4_k_m" in reply and "3.9 bits" not in reply
