"""A choice between fine-tuning frameworks (assistant/reading/framework_choice.py, assistant/framework_choice.py):
alone it is its own reply; inside a sizing request the sizing leads and the choice is answered after it;
neither framework is taken as the one sized. Generated in both languages."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import answer_to, payload

PAIRS = [("mindspeed", "llama-factory", {"mindspeed", "llama-factory"}), ("unsloth", "axolotl", {"unsloth", "axolotl"}),
         ("LLaMA-Factory", "ms-swift", {"llama-factory", "ms-swift"}), ("deepspeed", "megatron", {"deepspeed", "megatron"}),
         ("torchtune", "unsloth", {"torchtune", "unsloth"})]
JOB_EN = ["fine-tune qwen2.5-72b on 4x 910b, {a} or {b}?", "we have 8 a100s to lora llama 3.1 70b: {a} vs {b}, which one?",
          "{a} or {b} for qlora of qwen3 32b on my 4090?"]
JOB_ZH = ["4张910B 微调qwen2.5-72b，用{a}还是{b}？", "8卡A800全参微调qwen2.5-72b，{a}和{b}选哪个", "{a}还是{b}，用4090做qwen3 8b的lora"]
ALONE_EN = ["{a} or {b}?", "what's better for lora, {a} or {b}?", "{a} vs {b} for fine-tuning"]
ALONE_ZH = ["{a}和{b}哪个好", "微调用{a}还是{b}", "{a}跟{b}有啥区别"]


@pytest.mark.parametrize("a, b, ids", PAIRS)
def test_inside_a_sizing_request_the_choice_is_answered_after_it(a, b, ids):
    for template in JOB_EN + JOB_ZH:
        for x, y in ((a, b), (b, a)):
            u = understand(template.format(a=x, b=y))
            assert u.also == "framework_choice", template
            assert set(u.ask["frameworks"]) == ids and "framework" not in u.updates
            assert u.updates.get("model")


@pytest.mark.parametrize("a, b, ids", PAIRS)
def test_alone_the_choice_is_its_own_question(a, b, ids):
    for template, (x, y) in itertools.product(ALONE_EN + ALONE_ZH, ((a, b), (b, a))):
        u = understand(template.format(a=x, b=y))
        assert "framework_choice" in u.intents and u.also is None, template
        assert set(u.ask["frameworks"]) == ids


@pytest.mark.parametrize("text", ["fine-tune qwen2.5 7b with llama-factory", "用unsloth微调qwen3 8b", "serve llama 3.1 8b with vllm or sglang?"])
def test_one_framework_named_is_the_one_sized(text):
    u = understand(text)
    assert "framework_choice" not in u.intents and u.also != "framework_choice"


def test_on_four_ascend_cards_the_sizing_leads_and_llama_factory_is_picked_after_it():
    reply = answer_to("4张910B 微调qwen2.5-72b，用mindspeed还是llama-factory？")
    data = payload(reply)
    assert data["kind"] == "answer"
    text = reply.content
    assert text.index("**微调框架**") > text.index("##")
    assert "**这里我推荐 LLaMA-Factory**" in text and "MindSpeed-LLM 我没有显存预设" in text
    assert [a["code"] for a in data["also"]] == ["framework_choice"]
