"""'那我一张 4090 能跑这个吗' after a concept question whose example was Qwen3-30B-A3B (review S2 #8): 'this one', 'it',
'这个' is the one model the earlier message named; it used to ask which model."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading.referent import referred_model
from tests.conversation import payload, run_conversation

CONCEPT = {"en": "conceptual question: for a MoE like {model}, is vram based on total or active params? why is it fast",
           "zh": "问个概念问题，MoE 模型比如 {model} 推理的时候显存是按总参数还是激活参数算？为啥跑得快"}
FOLLOW = {"en": ["can my single 4090 run it, just for me?", "so would this one fit on one 4090 for myself?"],
          "zh": ["那我一张 4090 能跑这个吗，自己用", "这个模型我自己用一张4090够不够"]}
MODELS = {"Qwen3-30B-A3B": "qwen3-30b-a3b", "gpt-oss-20b": "gpt-oss-20b"}


@pytest.mark.parametrize(("lang", "i", "model"), list(itertools.product(CONCEPT, range(2), MODELS)))
def test_this_one_after_a_concept_question_is_its_example_model(lang, i, model):
    _concept, reply = run_conversation([CONCEPT[lang].format(model=model), FOLLOW[lang][i]])
    data = payload(reply)
    assert data["profile"]["model"] == MODELS[model], reply.content[:200]
    assert data["kind"] == "answer"


def test_two_models_named_before_are_not_guessed_between():
    assert referred_model(["qwen3-30b-a3b vs qwen3-32b, which is faster?"], "can my 4090 run it?") is None


def test_a_message_naming_its_own_model_refers_to_nothing():
    assert referred_model(["what is a moe like qwen3-30b-a3b?"], "can my 4090 run llama 3.1 8b?") is None
    assert referred_model(["what is a moe like qwen3-30b-a3b?"], "can my 4090 run this one?") == "qwen3-30b-a3b"
