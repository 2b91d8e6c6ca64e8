"""A batch job kept to one cloud packs its model copies into the instance shapes that cloud rents: copies of two H100s
fill 8-GPU p5.48xlarge instances, single-B200 copies a whole p6-b200, so the 8-bit plan stays (review BS #4: 'we can only
use AWS' dropped 12 × H100 in FP8 for 18 × H100 in int4 at 60% more)."""

from __future__ import annotations

import re

import pytest

from tests.conversation import run_conversation

JOB = {"en": "batch job: need to run llama 3.1 70b over 40 million docs, each ~800 tokens in, 150 out, summarization. "
             "deadline 10 days. whats the cheapest cloud setup",
       "zh": "离线批处理：用llama 3.1 70b给四千万篇文档做摘要，每篇输入800 token输出150，10天内跑完，最便宜的云上配置是什么"}
AWS = {"en": ["we can only use AWS btw", "aws only", "it has to be on aws"], "zh": ["只能用AWS", "我们只能用aws的机器"]}


@pytest.mark.parametrize(("lang", "text"), [(lang, t) for lang, ts in AWS.items() for t in ts])
def test_aws_batch_copies_fill_whole_instances_in_eight_bits(lang: str, text: str) -> None:
    reply = run_conversation([JOB[lang], text])[-1].content
    assert "int4" not in reply.split("|")[0]  # no 4-bit relaxation ahead of the table
    rows = [line for line in reply.splitlines() if line.startswith("| ") and "×" in line]
    count = {card: int(re.match(r"\| (\d+) ×", line)[1]) for line in rows for card in ("B200", "H100 SXM") if card in line}
    assert count["B200"] % 8 == 0 and count["H100 SXM"] == 16, count
    assert "(fp8)" in next(line for line in rows if "H100 SXM" in line)
