"""A change of method asked with what it gains ('那如果改成lora呢 能快多少', '改为qlora 能省多少显存') is a what-if on
the plan, never a concept question (review CE #8: only LoRA's definition came back, the method stayed full). 改成 and
its kin are cleaned to 'to', which the concept reader now hears as a change. A method named with no change word
('lora能快多少') is still the concept's question."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand

LEADS = ["", "那", "那如果", "如果", "我们", "要是"]
VERBS = ["改成", "改为", "换成", "改用", "变成"]
METHODS = {"lora": "lora", "LoRA": "lora", "qlora": "qlora", "QLoRA": "qlora"}
ASKS = ["能快多少", "呢 能快多少", "呢，快多少", "能省多少显存", "呢？能快多少"]


@pytest.mark.parametrize("lead,verb", list(itertools.product(LEADS, VERBS)))
def test_a_method_changed_with_its_gain_is_a_what_if(lead, verb):
    for (typed, method), ask in itertools.product(METHODS.items(), ASKS):
        text = f"{lead}{verb}{typed}{ask}"
        u = understand(text)
        assert "concept" not in u.intents and "explain" not in u.intents, (text, u.intents)
        assert u.updates.get("method") == method, (text, u.updates)


@pytest.mark.parametrize("text", ["lora能快多少", "LoRA到底能快多少", "how does lora actually save memory"])
def test_a_method_asked_alone_is_the_concept(text):
    assert "concept" in understand(text).intents
