"""A format below 4 bits is never called 4-bit: Q3_K_M (3.91 bits a weight) on a Mac is said as about 3.9 bits,
and the Mac's raisable GPU memory limit is named, since raising it may let the usual 4-bit file fit."""
from __future__ import annotations

import pytest
from conversation import run_conversation

# (DeepSeek-R1 on a 512 GB M3 Ultra was the case until its GGUF files were sized by their real tensors: its
# Q4_K_M, 404 GB, now fits, as Jeff Geerling ran it; a 70B on a 48 GB MacBook is the Q3_K_M case now.)
CASES = [("本地跑 Llama 3.3 70B，MacBook Pro M3 Max 48G 行不行，就我自己用", "每个权重约 3.9 bit", "4-bit 权重，模型放得下"),
         ("can my macbook pro m3 max 48gb run llama 3.3 70b, just me", "about 3.9 bits a weight",
          "4-bit weights, so the model fits")]


@pytest.mark.parametrize("text, said, never", CASES)
def test_q3_is_said_as_three_bit_with_the_wired_limit(text, said, never):
    reply = run_conversation([text])[0].content
    assert "q3_k_m" in reply
    assert said in reply and never not in reply
    assert "iogpu.wired_limit_mb=40960" in reply


def test_a_four_bit_format_is_still_four_bit():
    reply = run_conversation(["run llama 3.3 70b on my macbook pro m3 max 64gb, just me"])[0].content
    assert "q4_k_m" in reply and "3.9 bits" not in reply
