"""A batch job's output said as a few tokens ('输出就几个token', 'just a few tokens out') is a short output, and a
classification job with no output said writes a label's worth (the use table's 64 tokens), not the 200-token default
(review W C5: 10M reviews tagged, sized as 200 tokens written each: 3-4x too many cards)."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.reading.text import SHORT_OUTPUT_TOKENS
from gpu_advisor.knowledge.use_cases import use_case
from tests.conversation import payload, run_conversation

SHORT = ["有一千万条商品评论要用qwen2.5-14b做情感打标签，每条输入大概200 token，输出就几个token，两天内跑完",
         "批量处理1万条，qwen 7b，输出只有两三个词", "批量处理1万条，qwen 7b，每条只输出几个字",
         "classify 10M reviews with qwen 14b, 200 tokens in, just a few tokens out",
         "10M reviews through qwen 14b, 200 tokens in, output is just a few tokens"]


@pytest.mark.parametrize("text", SHORT)
def test_a_few_tokens_out_is_a_short_output(text: str) -> None:
    assert understand(text, None).updates.get("batch_output_tokens") == SHORT_OUTPUT_TOKENS


@pytest.mark.parametrize(("text", "written"), [
    ("有一千万条商品评论要用qwen2.5-14b做情感打标签，每条输入大概200 token，两天内跑完，租什么卡最划算", 64),
    ("classify 10M product reviews with qwen2.5 14b, 200 tokens in each, within 48h, cheapest rental?", 64),
    ("summarise 100k support tickets with llama 3.1 8b, 2000 tokens in each, within 24h", 200),
])
def test_a_classification_job_writes_a_label(text: str, written: int) -> None:
    assert use_case("classify").output_tokens == 64
    reply = run_conversation([text])[-1]
    assert payload(reply)["profile"]["batch_output_tokens"] == written
