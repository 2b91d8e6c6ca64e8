"""An unknown hybrid sized as the closest record ('Phi-4-mini-flash' as Phi-4 (14B)) is said to be unknown, what it
is sized as, and that it is a hybrid whose memory is then an upper bound: the user's hybrid name is never dropped with
the closest-name match (session 18 said the closest record only)."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states

NAMES = ["Phi-4-mini-flash", "Phi-4-Mini-Flash"]  # all lower case it is read as no name at all (the size asked)
EN = ["serve {name} to 200 users at 32k context", "we want to run {name} for 200 agents, 8k context, 200 users"]
ZH = ["部署 {name}，200 个人同时用，上下文 32k", "我们要部署 {name} 模型，给200个客服用，8k上下文"]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("text", EN + ZH)
def test_the_hybrid_note_follows_the_closest_record(name, text):
    u = understand(text.format(name=name))
    keys = [k for k, _v in u.notes]
    assert "note.model_closest" in keys and "physics.hybrid_closest" in keys
    values = dict(u.notes)["physics.hybrid_closest"]
    assert values == {"name": name, "base": "Phi-4 (14B)"}


@pytest.mark.parametrize(("text", "lang"), [(t.format(name=n), "en") for t in EN for n in NAMES[:2]]
                         + [(t.format(name=n), "zh") for t in ZH for n in NAMES[:2]])
def test_the_reply_says_unknown_sized_as_and_hybrid(text, lang):
    reply = run_states([text])[-1]["messages"][-1].content
    if lang == "en":
        assert "I have no record of" in reply and "Phi-4 (14B)" in reply
        assert "hybrid model" in reply and "upper bound" in reply
    else:
        assert "我没有" in reply and "Phi-4 (14B)" in reply
        assert "混合架构模型" in reply and "上限" in reply and "hybrid" not in reply


@pytest.mark.parametrize("text", ["serve phi-4 to 200 users at 32k context", "serve qwen3.5 27b to 20 users"])
def test_no_hybrid_note_for_a_name_that_says_none(text):
    assert "physics.hybrid_closest" not in [k for k, _v in understand(text).notes]
