"""Issue 25's row "what moved": after a correction the line saying what moved also says what it did to each GPU's
memory ("context 8,192 → 32,768; 22.8 → 25.3 GB per GPU"), from the two picks' own figures, in the conversation's
language, and only when it moved."""

from __future__ import annotations

import re

import pytest

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.moved import moved_line
from gpu_advisor.assistant.session import Conversation

FIRST = {"en": ["serve qwen 2.5 14b to {n} users around the clock", "we want to serve qwen2.5 14b for {n} people, 24/7"],
         "zh": ["全天候给{n}个用户部署qwen2.5 14b", "我们要部署 qwen 2.5 14b，{n} 个人同时用，全天候"]}
CHANGE = {"en": ["make it 32k context", "actually {m} users", "sorry, {m} users not {n}"],
          "zh": ["改成 32k 上下文", "其实是{m}个用户", "不对，是{m}个用户"]}
CASES = [(lang, first, change, n, m) for lang in FIRST for first in FIRST[lang] for change in CHANGE[lang]
         for n, m in ((10, 40), (20, 60))]


def gb(best: dict) -> float:
    return round(best["serve_per_gpu_bytes"] / 1e9, 1)


@pytest.mark.parametrize(("lang", "first", "change", "n", "m"), CASES)
def test_what_moved_says_the_memory_per_gpu_before_and_after(lang, first, change, n, m):
    conv = Conversation()
    conv.send(first.format(n=n))
    before = gb(conv.state["results"]["recommend"]["best"])
    reply = str(conv.send(change.format(n=n, m=m)).content)
    after = gb(conv.state["results"]["recommend"]["best"])
    head = say(lang, "moved.head", items="§").partition("§")[0]
    line = next(x for x in reply.splitlines() if x.startswith(head))
    assert before != after  # (a longer context or more users hold more cache on each GPU)
    shown = say(lang, "moved.per_gpu", old=f"{before:.1f}", new=f"{after:.1f}")
    assert shown in line, line
    assert {"input": "per_gpu_gb", "old": before, "new": after} in conv.state["results"]["moved"]
    if lang == "zh":
        assert not re.search(r"[A-Za-z]{4,}", line.replace("GPU", "")), line  # no English words in it


PICK = {"serve_per_gpu_bytes": 61.5e9, "train_per_gpu_bytes": None}


@pytest.mark.parametrize(("new", "said"), [
    ({"serve_per_gpu_bytes": 74.6e9}, "61.5 → 74.6 GB per GPU"),
    ({"serve_per_gpu_bytes": 61.52e9}, None),  # the same to the tenth shown: nothing to say
    ({"serve_per_gpu_bytes": None, "train_per_gpu_bytes": 40e9}, None),  # a training pick against a serving one
])
def test_the_memory_is_said_only_when_it_moved_and_with_an_input_that_moved(new, said):
    line, data = moved_line({"users": 20}, {"users": 50}, "en", PICK, new)
    assert (said in line) if said else ("GB per GPU" not in line and line.startswith("**What moved**"))
    assert ("per_gpu_gb" in {d["input"] for d in data}) == bool(said)
    line, data = moved_line({"users": 20}, {"users": 20}, "en", PICK, {"serve_per_gpu_bytes": 74.6e9})
    assert line == "" and data == []  # no input moved: no line of memory alone
