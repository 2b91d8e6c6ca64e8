"""An internal tool ('internal tool for about 50 people', '给内部用，大概50人') makes a count of people its staff: a
population, only a share of whom generate at once, as '30 个运营' does; a count said at once stays at once (final
review of round N: '大概50人' was sized as 50 at once while '30个运营' was not)."""
from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand

ZH_INTERNAL = ["给内部用", "内部使用", "做个内部知识库", "公司内部工具", "对内使用", "内部部署一个问答助手"]
ZH_COUNTS = [("大概50人", 50), ("差不多80个人", 80), ("120人左右", 120)]
EN_INTERNAL = ["internal tool", "for internal use", "an internal chatbot", "in-house assistant", "used internally",
               "internal knowledge base"]
EN_COUNTS = [("for about 50 people", 50), ("roughly 80 people", 80), ("around 120 people will use it", 120)]
MODELS_ZH = ["DeepSeek-R1-Distill-Qwen-32B", "qwen2.5-14b"]
MODELS_EN = ["llama 3.1 8b", "qwen2.5 14b"]


def _people(text: str) -> dict[str, int]:
    u = understand(text).updates
    return {k: u[k] for k in ("users", "population") if k in u}


@pytest.mark.parametrize("where, count, model", list(itertools.product(ZH_INTERNAL, ZH_COUNTS, MODELS_ZH)))
def test_chinese_internal_tool_makes_a_population(where, count, model):
    words, n = count
    assert _people(f"部署 {model} {where}，{words}") == {"population": n}
    assert _people(f"{words}，{where}，模型用 {model}") == {"population": n}


@pytest.mark.parametrize("where, count, model", list(itertools.product(EN_INTERNAL, EN_COUNTS, MODELS_EN)))
def test_english_internal_tool_makes_a_population(where, count, model):
    words, n = count
    assert _people(f"{model} as an {where} {words}".replace("an for", "for").replace("an an", "an")) == {"population": n}
    assert _people(f"{words}, {where}, {model}") == {"population": n}


@pytest.mark.parametrize("text, n", [
    ("internal tool, 50 people at once, llama 3.1 8b", 50),
    ("an internal chatbot with 40 concurrent users on qwen2.5 14b", 40),
    ("内部知识库，同时在线30人，qwen2.5 14b", 30),
    ("给内部用，并发20个，qwen2.5 14b", 20),
])
def test_a_count_said_at_once_stays_at_once(text, n):
    assert _people(text) == {"users": n}


@pytest.mark.parametrize("text, n", [("serve llama 3.1 8b to 50 people", 50), ("50个人用 qwen2.5 14b", 50)])
def test_without_an_organisation_people_stay_at_once(text, n):
    assert _people(text) == {"users": n}
