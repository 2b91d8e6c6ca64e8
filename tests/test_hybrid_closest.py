"""An unknown hybrid whose name adds a size word to a record ('Phi-4-mini-flash' after Phi-4) is a smaller model, not
a checkpoint of that record: it is said to be unknown, its size is asked, and it is said to be a hybrid whose memory
sized as dense is an upper bound (the user's hybrid name is never dropped, nor sized as Phi-4 (14B))."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states

NAMES = ["Phi-4-mini-flash", "Phi-4-Mini-Flash"]  # all lower case it is read as no name at all (the size asked)
EN = ["serve {name} to 200 users at 32k context", "we want to run {name} for 200 agents, 8k context, 200 users"]
ZH = ["部署 {name}，200 个人同时用，上下文 32k", "我们要部署 {name} 模型，给200个客服用，8k上下文"]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("text", EN + ZH)
def test_a_size_variant_of_a_record_is_unknown_never_that_record(name, text):
    """'Phi-4-mini-flash' names a smaller model than Phi-4 (14B): it is not sized as Phi-4 (session 19 review), its
    size is asked, and the name is kept with what it says (a hybrid)."""
    u = understand(text.format(name=name))
    assert "model" not in u.updates and u.unknown_model == name
    assert "note.model_closest" not in [k for k, _v in u.notes]


@pytest.mark.parametrize(("text", "lang"), [(t.format(name=n), "en") for t in EN for n in NAMES[:2]]
                         + [(t.format(name=n), "zh") for t in ZH for n in NAMES[:2]])
def test_the_reply_asks_the_size_and_says_hybrid(text, lang):
    reply = run_states([text])[-1]["messages"][-1].content
    assert "Phi-4 (14B)" not in reply
    if lang == "en":
        assert "I don't know the model" in reply and "Which size is it" in reply
        assert "hybrid model" in reply and "upper bound" in reply
    else:
        assert "我不认识模型" in reply and "它有多大" in reply
        assert "混合架构模型" in reply and "上限" in reply and "hybrid" not in reply


@pytest.mark.parametrize("text", ["serve phi-4 to 200 users at 32k context", "serve qwen3.5 27b to 20 users"])
def test_no_hybrid_note_for_a_name_that_says_none(text):
    assert "physics.hybrid_closest" not in [k for k, _v in understand(text).notes]
