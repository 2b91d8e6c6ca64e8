"""'8bit vs 4bit quant?' / '8bit和4bit差多少' after a plan (assistant/reading/precisions.py, assistant/precisions.py):
the two widths compared for THIS plan, each as the file it is on the plan's engine (GGUF on llama.cpp and a Mac,
FP8/INT8 and INT4 on a batching server), memory and speed from the tools, a quality note each; the plan is not
re-sized and no sizing table is shown. Generated over widths, spellings and phrasings in both languages."""

from __future__ import annotations

import itertools

import pytest
from langchain_core.messages import HumanMessage

from gpu_advisor.assistant.engine import engine_graph
from gpu_advisor.assistant.reading import understand

SPELL = {
    "en": {16: ["16bit", "16-bit", "bf16", "fp16"], 8: ["8bit", "8-bit", "8 bit", "int8", "q8"],
           4: ["4bit", "4-bit", "4 bit", "int4", "q4"]},
    "zh": {16: ["16bit", "16位", "bf16"], 8: ["8bit", "8位", "八位", "int8"], 4: ["4bit", "4位", "四位", "int4", "q4"]},
}
TEMPLATES = {
    "en": ["{a} vs {b} quant?", "{a} or {b}?", "how much better is {a} than {b}", "compare {a} and {b}",
           "{a} or {b}, which is better here", "what's the difference between {a} and {b} for this?",
           "hmm, {a} vs {b}?"],
    "zh": ["{a}和{b}差多少", "{a}还是{b}", "{a}跟{b}有什么区别", "{a}和{b}哪个好", "那{a}和{b}对比一下",
           "{a}还是{b}？", "请问{a}和{b}差别大吗"],
}
PAIRS = [(8, 4), (4, 8), (16, 8), (16, 4)]


def _phrasings(lang):
    for (x, y), template in itertools.product(PAIRS, TEMPLATES[lang]):
        for a, b in itertools.product(SPELL[lang][x], SPELL[lang][y]):
            yield (x, y), template.format(a=a, b=b)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_two_widths_compared_are_read_as_the_comparison(lang):
    count = 0
    for (x, y), text in _phrasings(lang):
        u = understand(text)
        assert "precision_compare" in u.intents, (text, u.intents, u.updates)
        assert u.ask["widths"] == [x, y], (text, u.ask)
        assert not u.updates and u.topic is None, (text, u.updates, u.topic)
        count += 1
    assert count > 300


@pytest.mark.parametrize("text,intent", [("awq vs gptq", "formats"), ("q4_k_m or awq", "formats"),
                                         ("what is quantization", "explain"), ("what about int4?", "whatif")])
def test_other_questions_about_formats_stay_theirs(text, intent):
    u = understand(text)
    assert "precision_compare" not in u.intents and intent in u.intents, (text, u.intents)


def _go(state, text):
    return engine_graph.invoke({**state, "messages": [*state.get("messages", []), HumanMessage(text)]})


PLANS = {"mac_zh": "我有一台mac studio m2 ultra 192g，想跑qwen2.5 72b",
         "mac_en": "I have a mac studio m2 ultra 192gb and want to run qwen2.5 72b, just me",
         "server": "serve qwen2.5 72b for 200 users, around the clock"}


@pytest.fixture(scope="module")
def plans():
    return {k: _go({}, text) for k, text in PLANS.items()}


@pytest.mark.parametrize("plan,question,formats", [
    ("mac_zh", "8bit和4bit差多少", ["q8_0", "q4_k_m"]), ("mac_zh", "8位还是4位", ["q8_0", "q4_k_m"]),
    ("mac_en", "8bit vs 4bit quant?", ["q8_0", "q4_k_m"]), ("mac_en", "q8 or q4_k_m?", ["q8_0", "q4_k_m"]),
    ("mac_en", "16-bit vs 8-bit?", ["f16", "q8_0"]),
    ("server", "8bit vs 4bit quant?", ["fp8", "int4"]), ("server", "int8 or int4 for this?", ["int8", "int4"]),
])
def test_the_comparison_is_for_this_plan_from_the_tools(plans, plan, question, formats):
    state = plans[plan]
    before = state["messages"][-1].additional_kwargs["gpu_advisor"]
    best = before["results"]["recommend"]["best"]
    after = _go(state, question)
    message = after["messages"][-1]
    p = message.additional_kwargs["gpu_advisor"]
    assert p["kind"] == "info" and p["topic"] == "precision_compare", message.content
    data = p["results"]["precision_compare"]
    assert data["plan"] and data["gpu"] == best["gpu"] and data["gpus"] == best["gpus"]
    assert [r["precision"] for r in data["rows"]] == formats
    small = min(data["rows"], key=lambda r: r["bits"])
    big = max(data["rows"], key=lambda r: r["bits"])
    assert small["weights_bytes"] < big["weights_bytes"]
    same = next((r for r in data["rows"] if r["precision"] == best["precision"] and r.get("tokens_per_s")), None)
    if same:  # the plan's own width: the speed the plan's table shows
        assert same["tokens_per_s"] == pytest.approx(best["decode_tokens_per_s"], rel=0.02)
    text = str(message.content)
    assert "|---" not in text  # nothing re-sized: no sizing table
    assert after["profile"] == state["profile"] and after["results"] == state["results"]
    has_cjk = any("\u4e00" <= ch <= "\u9fff" for ch in text)
    assert has_cjk == plan.endswith("zh"), text


def test_without_a_serving_plan_the_concept_is_explained():
    state = _go({}, "8bit vs 4bit quant?")
    p = state["messages"][-1].additional_kwargs["gpu_advisor"]
    assert p["kind"] == "info" and p["results"]["precision_compare"] == {"plan": False}
    assert "Quantization" in str(state["messages"][-1].content)
