"""Why a MoE model needs memory for all its parameters but runs at the speed of its active ones
(assistant/reading/moe.py, assistant/moe.py): generated in both languages, the question is read as
`moe_memory` with its model and answered with the tools' figures (weights at FP8, weights read per token,
a reference server), never a sizing of a dense model of the active size."""

from __future__ import annotations

import itertools
import re

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import payload, run_conversation, unexplained_numbers

MODELS = [("deepseek r1", "deepseek-r1"), ("DeepSeek-V3", "deepseek-v3"), ("qwen3 235b a22b", "qwen3-235b-a22b"),
          ("qwen3 30b a3b", "qwen3-30b-a3b"), ("deepseek v3 671b", "deepseek-v3")]
EN = ["why does {m} only activate {a}b but need memory for all {t}b?",
      "{m} has {a}b active params, so why do i need vram for {t}b?",
      "how come {m} needs {t}b of memory when only {a}b are active? and which number decides speed?",
      "if {m} activates {a}b per token, why load all {t}b?"]
ZH = ["为啥{m}只激活{a}b 但要把{t}b全放进显存", "为啥{m} {t}b激活参数才{a}b，但是部署的时候显存还是要按{t}b算？推理速度按哪个算",
      "{m}激活{a}b，为什么显存按{t}b算", "{m}只激活{a}B，推理速度按哪个算？显存呢"]
SIZES = {"deepseek-r1": (671, 37), "deepseek-v3": (671, 37), "qwen3-235b-a22b": (235, 22), "qwen3-30b-a3b": (30, 3)}
CASES = [(t.format(m=m, t=SIZES[mid][0], a=SIZES[mid][1]), mid) for (m, mid), t in itertools.product(MODELS, EN + ZH)]


def test_every_way_of_asking_is_the_moe_question_with_its_model():
    wrong = []
    for text, model in CASES:
        u = understand(text)
        if "moe_memory" not in u.intents or u.ask.get("moe") != model or set(u.updates) - {"model"}:
            wrong.append((text, sorted(u.intents), u.ask, u.updates))
    assert wrong == []


@pytest.mark.parametrize("text", [
    "serve deepseek v3 to 50 users",
    "DeepSeek-V3不是只激活37B吗，为啥显存还得按671B算？EP和TP有啥区别，大规模部署一般怎么组合？",
    "389B的MoE 激活52B 就我们5个人用",
    "serve a 300B MoE with 20B active to 40 users",
    "what is a mixture of experts?",
])
def test_a_sizing_request_or_another_concept_is_not_the_moe_question(text):
    assert "moe_memory" not in understand(text).intents


@pytest.mark.parametrize("text, lang", [
    ("为啥deepseek r1 671b激活参数才37b，但是部署的时候显存还是要按671b算？推理速度按哪个算", "zh"),
    ("why does qwen3 30b a3b need memory for 30b when only 3b are active?", "en"),
])
def test_the_reply_explains_with_the_tools_figures_and_sizes_nothing(text, lang):
    reply = run_conversation([text])[-1]
    data = payload(reply)
    assert data["kind"] == "info" and data["topic"] == "moe_memory"
    assert not re.search(r"^## (Rent|Buy|Use your|租用|购买|使用你)", reply.content, re.MULTILINE)
    assert "|" not in reply.content  # no options table
    moe = data["results"]["moe"]
    assert moe["weights_bytes"] > 0.9e9 * moe["total_params_b"]  # every expert at 8 bits
    assert moe["read_one_user_bytes"] < 1.2e9 * moe["active_params_b"] + 2e9  # about the active part
    assert moe["read_batch_bytes"] > moe["read_one_user_bytes"]
    assert data["results"]["reference"]["tokens_per_s"] > 0
    assert unexplained_numbers(reply.content, data["results"]) == [], reply.content
    assert ("all-to-all" in reply.content)
    if lang == "zh":
        assert "37B" in reply.content and "671B" in reply.content and "H20" in reply.content
    assert "37B 稠密模型，int8" not in reply.content
