"""The API-vs-self-host question asked in turn 1 stays asked on a follow-up that changes one thing (review BZ #7:
'那如果换成72B呢' answered a plan and dropped whether self-hosting beats the API); another job starts it afresh."""

from __future__ import annotations

import pytest

from tests.conversation import run_conversation

FIRST = {"zh": "我们每天大概消耗两千万token 输入输出差不多3比1 现在用deepseek v3的api 自己买卡部署会不会更划算",
         "en": "we burn about 20M tokens a day, 3:1 in/out, currently on the deepseek v3 api. would buying our own gpus be cheaper?"}
SELF = {"zh": "- 自建：买 ", "en": "- self-hosted: "}
FOLLOWUPS = {"zh": ["那如果换成72B呢", "换成qwen2.5 72b呢", "上下文改成32k呢", "那用qwen3 32b呢"],
             "en": ["what about qwen2.5 72b instead?", "make it 32k context", "and with qwen3 32b?"]}


@pytest.mark.parametrize(("lang", "followup"), [(lang, f) for lang, fs in FOLLOWUPS.items() for f in fs])
def test_a_followup_that_changes_one_thing_answers_the_api_question_again(lang, followup):
    first, second = (r.content for r in run_conversation([FIRST[lang], followup]))
    assert SELF[lang] in first
    assert SELF[lang] in second, second


@pytest.mark.parametrize(("lang", "other"), [("zh", "另外想用lora微调qwen2.5 7b，租几张卡"),
                                             ("en", "separate question: fine-tune llama 3.1 8b with lora, which gpu to rent?")])
def test_another_job_does_not_carry_the_api_question(lang, other):
    second = run_conversation([FIRST[lang], other])[1].content
    assert SELF[lang] not in second
