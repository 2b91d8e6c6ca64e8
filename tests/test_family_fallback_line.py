"""A model too big for the user's card falls back to a smaller model of the line the user named (review BT #10):
Qwen3 32B on a 4090, then '换成72B呢' (only Qwen2.5 has a 72B) keeps Qwen3 32B as the fallback, not Qwen2.5 32B.
Generated over both languages and the ways of asking for the larger size."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.tools.models import smaller_in_family
from tests.conversation import run_states

FIRST = {"zh": "我有张4090 24g 想本地跑qwen3 32b 能跑吗 大概每秒多少token",
         "en": "i have a 4090, want to run qwen3 32b locally, how fast?"}
LARGER = {"zh": ["换成72B呢", "72b的呢", "那72B能跑吗"], "en": ["what about 72b", "and the 72b?", "could it run 72B?"]}


@pytest.mark.parametrize(("lang", "second"), [(lang, s) for lang in ("zh", "en") for s in LARGER[lang]])
def test_fallback_is_of_the_line_named(lang, second) -> None:
    _one, two = run_states([FIRST[lang], second])
    assert two["profile"]["model"] == "qwen2.5-72b"
    assert two["profile"]["line_said"] == "qwen3-32b"
    reply = two["messages"][-1].content
    assert "Qwen3 32B" in reply and "Qwen2.5 32B" not in reply


def test_a_model_named_outright_has_no_line_kept() -> None:
    _one, two = run_states([FIRST["en"], "what about qwen2.5 72b"])
    assert two["profile"]["model"] == "qwen2.5-72b" and two["profile"].get("line_said") is None


@pytest.mark.parametrize(("asked", "prefer", "first"), [
    ("qwen2.5-72b", None, "qwen2.5-32b"),  # its own line's next size first
    ("qwen2.5-72b", "qwen3-32b", "qwen3-32b"),  # the line named before first
    ("qwen2.5-72b", "qwen3-14b", "qwen3-32b"),
    ("gemma-3-27b", None, "gemma-3-12b"),
])
def test_smaller_in_family_prefers_the_line_said(asked, prefer, first) -> None:
    found = smaller_in_family(asked, prefer)
    assert found[0] == first
    assert set(found) == set(smaller_in_family(asked))  # the same models, only their order


@pytest.mark.parametrize(("lang", "second"), list(itertools.product(["en"], ["make it 32k context"])))
def test_line_kept_across_unrelated_changes(lang, second) -> None:
    states = run_states([FIRST[lang], "what about 72b", second])
    assert states[2]["profile"]["line_said"] == "qwen3-32b"
