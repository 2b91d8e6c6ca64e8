"""'why not deepspeed' / '为什么不用deepspeed' after a fine-tuning plan (reading/framework_why.py,
assistant/framework_why.py): a question about that framework for this run, answered with the run on the plan's
cards with each framework (training_memory, training_time), not a switch; alone or inside a compound."""

from __future__ import annotations

import itertools

import pytest
from langchain_core.messages import HumanMessage

from gpu_advisor.assistant.engine import engine_graph
from gpu_advisor.assistant.reading import understand

ASKS = {"en": ["why not {f}", "why not use {f}?", "why don't we use {f}", "why not just {f}?", "hmm, why not {f}"],
        "zh": ["为什么不用{f}", "为啥不用{f}", "干嘛不用{f}？", "怎么不用{f}"]}
FRAMEWORKS = {"deepspeed": "deepspeed", "DeepSpeed": "deepspeed", "unsloth": "unsloth", "axolotl": "axolotl",
              "llama-factory": "llama-factory"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_why_not_a_framework_is_a_question_not_a_switch(lang):
    for ask, (said, fid) in itertools.product(ASKS[lang], FRAMEWORKS.items()):
        text = ask.format(f=said)
        u = understand(text)
        assert "framework_why" in u.intents, (text, u.intents, u.updates)
        assert u.ask["framework"] == fid and not u.updates, (text, u.ask, u.updates)


def test_with_a_framework_still_switches():
    assert understand("use deepspeed").updates.get("framework") == "deepspeed"
    assert "framework_why" not in understand("with deepspeed please").intents


def _go(state, text):
    return engine_graph.invoke({**state, "messages": [*state.get("messages", []), HumanMessage(text)]})


@pytest.mark.parametrize("text,lang", [("why not deepspeed", "en"), ("为什么不用deepspeed", "zh"),
                                       ("why not unsloth?", "en")])
def test_the_answer_sizes_the_run_with_both_frameworks(text, lang):
    plan = _go({}, "fine-tune llama 3.1 8b with qlora on 20k examples")
    after = _go(plan, text)
    message = after["messages"][-1]
    p = message.additional_kwargs["gpu_advisor"]
    assert p["kind"] == "info" and p["topic"] == "framework_why", message.content
    data = p["results"]["framework_why"]
    assert data["rows"][0]["framework"] == "hf-trainer" and data["rows"][1]["framework"] != "hf-trainer"
    assert all(r["per_gpu_bytes"] > 0 and r["hours"] > 0 for r in data["rows"])
    assert after["profile"] == plan["profile"]  # nothing switched
    assert "|---" not in str(message.content)
    assert any("\u4e00" <= ch <= "\u9fff" for ch in str(message.content)) == (lang == "zh")


def test_in_a_compound_both_parts_are_answered():
    plan = _go({}, "fine-tune llama 3.1 8b with qlora on 20k examples")
    p = _go(plan, "how many gpu hours is that and why not deepspeed")["messages"][-1].additional_kwargs["gpu_advisor"]
    assert [x["topic"] for x in p["parts"]] == ["gpu_hours", "framework_why"]
