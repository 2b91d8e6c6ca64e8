"""An unknown model whose size is exactly a released mixture of experts' total, with no dense model near it
('zephyr-orpo-141b': Mixtral 8x22B's 141B), is sized with that MoE's layout and says so; a size a dense model
shares stays a generic dense model (final review of round N: zephyr-orpo-141b was sized as a dense 141B)."""
from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.session import Conversation
from gpu_advisor.knowledge.resolve import moe_base_of_size

BASES = [(141, "mixtral-8x22b", "39B"), (671, "deepseek-v3", "37B"), (235, "qwen3-235b-a22b", "22B"),
         (355, "glm-4.5", "32B"), (106, "glm-4.5-air", "12B")]
NAMES = ["zephyr-orpo-{n}b", "acme-chat-{n}b", "our-tuned-{n}B"]
EN = ["serve {name} to 25 users, 4k context", "can {name} run for 10 people at once"]
ZH = ["部署 {name}，25 个人同时用，4k 上下文", "{name} 给 10 个人同时用要什么卡"]


@pytest.mark.parametrize("size, base, active", BASES)
def test_a_released_moe_size_names_its_layout(size, base, active):
    m = moe_base_of_size(float(size))
    assert m is not None and m.id == base and f"{m.active_params_b:g}B" == active


@pytest.mark.parametrize("size", [7, 8, 14, 32, 70, 72, 405, 236, 140, 1000])
def test_a_size_dense_models_share_or_no_release_has_names_no_layout(size):
    assert moe_base_of_size(float(size)) is None


@pytest.mark.parametrize("base, name, template", [
    (b, n, t) for (b, n, t) in itertools.product(BASES[:3], NAMES, EN + ZH)])
def test_the_conversation_sizes_the_moe_and_says_why(base, name, template):
    size, model_id, active = base
    typed = name.format(n=size)
    conv = Conversation(None)
    text = str(conv.send(template.format(name=typed)).content)
    assert conv.state["profile"]["model"] == model_id
    assert typed in text and active in text
    assert ("正好是" in text) == ("人" in template)


@pytest.mark.parametrize("template", EN + ZH)
def test_a_dense_size_stays_generic(template):
    conv = Conversation(None)
    text = str(conv.send(template.format(name="acme-chat-70b")).content)
    assert conv.state["profile"]["model"] == "70B"
    assert "acme-chat-70b" in text and ("70B dense" in text or "70B 稠密" in text)
