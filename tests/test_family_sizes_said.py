"""Sizes said around a family: 'which Llama?' answered with a bare size takes that family's model of that size,
and two sizes listed after one model ('qwen2.5 14b 32b 哪个') size the first and name the other, never a
generic model of the second size."""
from __future__ import annotations

import pytest
from conversation import run_conversation

from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.reading.families import family_size
from gpu_advisor.assistant.reading.text import vocab
from gpu_advisor.knowledge import find_model

# (family word said alone, the bare size said next, the model it names)
FAMILY_ANSWERS = [("llama", "70b", "llama-3.3-70b"), ("llama", "8B", "llama-3.1-8b"), ("qwen", "72b", "qwen2.5-72b"),
                  ("千问", "72B", "qwen2.5-72b"), ("gemma", "27b", "gemma-3-27b"), ("qwen", "7b", "qwen2.5-7b")]
OPENERS = {"en": ["i want to serve {f} for 20 users", "{f} for our team of 30, serving"],
           "zh": ["想部署{f}给30个人用", "用{f}做客服，20个人用"]}
ANSWER_FORMS = ["{s}", "{s} please", "the {s} one", "{s}的"]


@pytest.mark.parametrize("family, size, model_id", FAMILY_ANSWERS)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_which_family_answered_with_a_size_names_the_model(family, size, model_id, lang):
    opener = OPENERS[lang][0].format(f=family)
    replies = run_conversation([opener, size])
    assert find_model(model_id).name in replies[1].content.split("\n")[0], replies[1].content[:200]


@pytest.mark.parametrize("form", ANSWER_FORMS)
@pytest.mark.parametrize("opener", [o for os in OPENERS.values() for o in os])
def test_every_opener_and_answer_form(opener, form):
    replies = run_conversation([opener.format(f="llama"), form.format(s="70b")])
    assert "Llama 3.3 70B" in replies[1].content, (opener, form, replies[1].content[:200])


def test_a_size_the_family_lacks_stays_a_size():
    assert family_size("llama", "13B") == "llama-2-13b"  # an older generation has that size
    assert family_size("llama", "33B") is None
    assert family_size("nosuch", "70B") is None
    assert family_size("llama", "30B-A3B") is None


def test_every_family_said_alone_is_asked_and_remembered():
    for family, aliases in vocab()["family_aliases"].items():
        u = understand(f"serve {aliases[0]} for 20 users")
        which = [p for code, p in u.notes if code == "note.family_which"]
        assert which and which[0]["family_key"] == family, aliases[0]


LISTED = [("qwen2.5 14b 32b", "qwen2.5-14b", "Qwen2.5 32B"), ("qwen2.5 14b, 32b", "qwen2.5-14b", "Qwen2.5 32B"),
          ("llama 3.1 8b / 70b", "llama-3.1-8b", "Llama 3.1 70B"), ("qwen3 8b和14b", "qwen3-8b", "Qwen3 14B"),
          ("qwen3 8b 跟 14b", "qwen3-8b", "Qwen3 14B"), ("qwen2.5 32b还是14b的", "qwen2.5-32b", "Qwen2.5 14B"),
          ("qwen2.5 7b and 14b", "qwen2.5-7b", "Qwen2.5 14B")]
TAILS = ["", " 哪个适合做客服", " which is better for 20 users", "，20个人用"]


@pytest.mark.parametrize("said, model_id, other", LISTED)
@pytest.mark.parametrize("tail", TAILS)
def test_sizes_listed_after_a_model_are_its_sizes(said, model_id, other, tail):
    u = understand(said + tail)
    assert u.updates.get("model") == model_id
    assert [p["others"] for code, p in u.notes if code == "note.model_other"] == [other]


def test_a_size_with_a_unit_is_not_a_listed_size():
    u = understand("llama 3.1 8b, 128k context")
    assert u.updates.get("model") == "llama-3.1-8b"
    assert u.updates.get("context") == 131072
    assert not u.notes
