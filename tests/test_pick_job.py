"""One pick asked for a job with no token speed (a fine-tuning run) is said in hours and cost per run, never as
'0 tokens/s per user, first token after -' (review BA #14, BC #14)."""

from __future__ import annotations

import pytest

from tests.conversation import run_conversation

ASKS = [
    ("total budget is 500 dollars. want to lora finetune qwen2.5 14b on 30k examples, avg 800 tokens, 2 epochs. is that "
     "even possible, what would you rent", "en"),
    ("want to qlora qwen2.5 7b on 20k samples of 1000 tokens, 3 epochs. what card would you pick if we rent?", "en"),
    ("预算500美元，想用lora微调qwen2.5 14b，3万条数据，平均800 token，2个epoch，如果租的话你会选哪张卡", "zh"),
    ("想qlora微调qwen2.5 7b，2万条数据每条1000 token，3个epoch，租卡的话你会选哪张", "zh"),
]
PICK = {"en": "My pick", "zh": "我选"}
RUN = {"en": " h per run", "zh": " 小时"}


@pytest.mark.parametrize(("ask", "lang"), ASKS)
def test_a_pick_for_a_training_job_is_said_in_hours_per_run(ask: str, lang: str) -> None:
    reply = run_conversation([ask])[-1]
    pick = [line for line in reply.content.splitlines() if PICK[lang] in line or "我的选择" in line]
    assert pick, reply.content
    assert RUN[lang] in pick[0] and "tokens/s" not in pick[0] and "token/s" not in pick[0], pick[0]
    assert "first token after -" not in reply.content and "首 token 延迟 -" not in reply.content
