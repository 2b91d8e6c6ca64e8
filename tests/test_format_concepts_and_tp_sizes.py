"""Questions that are not sizing requests get their answer from knowledge (reviews CUA #4, CUB #4, CUB #8):
two weight formats weighed on quality ('is AWQ or GPTQ better quality for a 70b', 'does int4 awq hurt quality vs fp8
… asking before we buy', 'AWQ跟GPTQ有啥区别') are a concept question with no precision slot and no preference set;
tensor-parallel sizes follow the head-division rule (tools/arch.tp_blockers) and three cards are told PP=3."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import find_model, find_precision
from gpu_advisor.tools import arch
from tests.conversation import payload, run_states

EN = ["is {a} or {b} better quality for a {size} model?",
      "{a} vs {b} for a {size} model, which is better?",
      "does {a} hurt quality a lot vs {b} for a {size} model? asking before we buy anything",
      "{a} or {b} - does it matter which one if im serving a {size} w/ vllm?",
      "how much worse is {a} than {b} on a {size}? before we buy any gpus",
      "{a} vs {b} quality on {size}?"]
ZH = ["{size}的模型，{a}和{b}哪个好",
      "{a}跟{b}有啥区别",
      "{a}和{b}哪个精度好？{size}模型",
      "{size}模型用{a}相比{b}精度损失大吗",
      "买卡之前想问下，{size}模型{a}和{b}哪个好"]
SAME = [("awq", "gptq"), ("GPTQ", "AWQ")]  # one width, one engine: the pair answer
# one width, different engines: the pair answer when quality is asked, else the format question (picked by engine)
GGUF = [("awq", "q4 gguf"), ("gguf q4", "gptq")]
QUALITY = [EN[0], EN[2], EN[4], EN[5], ZH[2], ZH[3]]
APART = [("int4 awq", "fp8"), ("fp8", "int4"), ("int8", "int4"), ("FP8", "AWQ"), ("int8", "gptq")]  # two widths
SIZES = ["70b", "32B", "8b"]


def _sample(pairs: list[tuple[str, str]], step: int, templates: list[str] | None = None) -> list[tuple[str, str, str]]:
    """Every template crossed with the pairs and sizes, a fixed stride of them (each template, pair and size kept)."""
    return [(t, a + "|" + b, s) for i, (t, (a, b), s) in enumerate(itertools.product(templates or EN + ZH, pairs, SIZES))
            if i % step == 0]


@pytest.mark.parametrize(("template", "pair", "size"), _sample(SAME, 2) + _sample(GGUF, 3, QUALITY))
def test_same_width_formats_weighed_are_the_pair_concept(template: str, pair: str, size: str) -> None:
    a, b = pair.split("|")
    u = understand(template.format(a=a, b=b, size=size))
    # weighed on quality: the pair itself; asked which or how they differ ('awq vs gptq, which one'): the format
    # question, which with no plan on screen is answered by the same pair writer (test_awq_gptq_chinese_…)
    assert "precision_compare" in u.intents or ("formats" in u.intents and "区别" in template)
    pair = u.ask.get("pair") or u.ask.get("formats")
    assert len(pair) == 2 and {int(find_precision(x).bits_per_weight) for x in pair} == {4}
    assert u.ask.get("model", "").upper() in ("", size.upper())
    assert not {"precision", "preference", "phase", "engine"} & set(u.updates)
    assert not u.intents & {"whatif", "quality", "engine_choice"}


@pytest.mark.parametrize(("template", "pair", "size"), _sample(APART, 5))
def test_two_widths_weighed_get_the_verdict_not_a_slot(template: str, pair: str, size: str) -> None:
    a, b = pair.split("|")
    u = understand(template.format(a=a, b=b, size=size))
    assert "precision_compare" in u.intents
    assert u.ask.get("verdict") is True and sorted(u.ask["widths"]) == [4, 8]
    assert not {"precision", "preference"} & set(u.updates)


def test_pair_ids_and_width_from_the_catalog() -> None:
    u = understand("is AWQ or GPTQ better quality for a 70b model? and does it matter which one if im serving w/ vllm")
    assert u.ask == {"pair": ["awq", "gptq-int4"], "model": "70B"} and u.updates == {}
    assert understand("is awq or q4 gguf better quality for llama 3.1 8b?").ask["pair"] == ["awq", "q4_k_m"]
    assert "formats" in understand("difference between q4_k_m gguf and awq? which one should i use with vllm").intents
    # FP8 is computed in 8 bits where it runs natively: weighed by width against INT8, never as a weight-only pair
    assert "pair" not in understand("fp8 vs int8 which is better quality for a 70b?").ask


def _reply(turns: list[str]) -> tuple[list[dict[str, Any]], str]:
    states = run_states(turns)
    return states, states[-1]["messages"][-1].content


def test_awq_or_gptq_answered_from_knowledge() -> None:
    states, text = _reply(["is AWQ or GPTQ better quality for a 70b model? and does it matter which one if im serving "
                           "w/ vllm"])
    last = payload(states[-1]["messages"][-1])
    assert last["kind"] != "question" and last["topic"] == "precision_compare"
    data = last["results"]["format_pair"]
    assert data["formats"] == ["awq", "gptq-int4"] and data["bits"] == 4 and data["more_robust"] == "awq"
    assert data["weights_bytes"]["awq"] == pytest.approx(70e9 * 4.16 / 8, rel=0.02)  # ~36 GB for 70B
    assert data["fp8_weights_bytes"] == pytest.approx(70e9, rel=0.02)
    assert "Marlin" in data["kernels"]
    for said in ("4-bit weight-only", "36.4 GB", "more robust", "act-order", "arXiv:2306.00978", "Marlin",
                 "about the same speed", "FP8", "arXiv:2411.02355"):
        assert said in text, said
    assert states[-1]["profile"].get("precision") is None
    assert "How many people" not in text


def test_int4_vs_fp8_before_we_buy_answers_and_sets_no_slot() -> None:
    states, text = _reply(["does int4 awq hurt quality a lot vs fp8 for a 70b model? asking before we buy anything"])
    profile = states[-1]["profile"]
    assert profile.get("precision") is None and profile.get("preference") is None
    assert "1–3%" in text and "no measurable accuracy drop" in text and "What are you planning" not in text


def test_awq_gptq_chinese_has_no_english_sentences() -> None:
    _states, text = _reply(["AWQ跟GPTQ有啥区别"])
    assert "仅权重" in text and "Marlin" in text and "更稳" in text
    for english in ("both are", "Quality", "Speed in", "instead", "weights per billion"):
        assert english not in text


# Tensor-parallel sizes: heads and KV heads from the catalog, the sizes the rule allows.

@pytest.mark.parametrize(("model_id", "heads", "kv", "allowed"), [
    ("llama-3.3-70b", 64, 8, {1, 2, 4, 8}),
    ("qwen3-32b", 64, 8, {1, 2, 4, 8}),
    ("llama-3.1-8b", 32, 8, {1, 2, 4, 8}),
    ("qwen2.5-72b", 64, 8, {1, 2, 4, 8}),
])
@pytest.mark.parametrize("tp", [2, 3, 4, 6, 8])
def test_tp_sizes_divide_heads_and_kv_heads(model_id: str, heads: int, kv: int, allowed: set[int], tp: int) -> None:
    model = find_model(model_id)
    assert (model.num_attention_heads, model.num_kv_heads) == (heads, kv)
    assert (not arch.tp_blockers(model, tp)) == (tp in allowed)
    assert (tp in arch.valid_tensor_parallel(model, 8)) == (tp in allowed)
    if tp == 3:
        assert arch.tp_blockers(model, 3) == ["heads", "kv_heads"]


def test_tp_blockers_name_the_heads_that_do_not_divide() -> None:
    model = find_model("llama-3.1-8b").model_copy(update={"num_attention_heads": 24, "num_kv_heads": 8})
    assert arch.tp_blockers(model, 3) == ["kv_heads"]  # 24 heads divide by 3, 8 KV heads neither divide nor divided
    assert arch.tp_blockers(model, 16) == ["heads"]  # 16 is a multiple of 8 KV heads (copied), 24 heads do not divide
    assert arch.cards_layout(find_model("llama-3.3-70b"), 3) == (2, 3)
    assert arch.cards_layout(find_model("llama-3.3-70b"), 6) == (4, 6)


@pytest.mark.parametrize(("text", "cards", "tp"), [
    ("can vllm do tp=3 on three 3090s?", 3, 3),
    ("vllm多卡推理的时候tensor parallel为什么一般要2的幂？我手上有三张3090能用tp=3吗", 3, 3),
    ("我有3张4090，能开tp=3吗", 3, 3),
    ("can I use tensor parallel 6 with 6x a6000?", 6, 6),
    ("why does tensor parallel need a power of two?", None, None),
    ("张量并行为什么要2的幂", None, None),
])
def test_tp_question_read_as_the_rule(text: str, cards: int | None, tp: int | None) -> None:
    u = understand(text)
    assert "parallelism" in u.intents and u.ask.get("tp_rule") is True
    assert u.ask.get("cards") == cards and u.ask.get("tp") == tp
    assert not u.intents & {"whatif", "engine_choice", "why"}


@pytest.mark.parametrize(("turn", "pp", "no_question"), [
    ("can vllm do tp=3 on three 3090s?", "--pipeline-parallel-size 3", "What are you planning"),
    ("vllm多卡推理的时候tensor parallel为什么一般要2的幂？我手上有三张3090能用tp=3吗", "--pipeline-parallel-size 3",
     "你打算用这个模型做什么"),
])
def test_three_cards_told_pipeline_parallel(turn: str, pp: str, no_question: str) -> None:
    states, text = _reply([turn])
    data = payload(states[-1]["messages"][-1])["results"]["tp_rule"]
    assert data["layout"] == {"pp": 3, "tp_fewer": 2} and data["refused"][0] >= data["refused"][1] - 2
    assert pp in text and "TP=2" in text and no_question not in text
    assert ("推理引擎" not in text) and ("Expert parallelism" not in text)


def test_model_named_gets_its_heads() -> None:
    states, text = _reply(["can i run llama 3.3 70b with tp=3?"])
    data = payload(states[-1]["messages"][-1])["results"]["tp_rule"]
    assert (data["heads"], data["kv_heads"], data["valid"], data["blockers"]) == (64, 8, [1, 2, 4, 8], ["heads", "kv_heads"])
    assert "64 attention heads" in text and "TP=3: no" in text


@pytest.mark.parametrize(("turn", "said"), [
    ("ok we have three rtx a6000s in a workstation already. can they run llama 3.3 70b in awq for like 10 ppl",
     ["cannot spread Llama 3.3 70B over all 3", "64 attention heads do not divide by 3", "--pipeline-parallel-size 3"]),
    ("我们有三张A6000，想用AWQ跑Llama 3.3 70B，10个人用",
     ["没法把 Llama 3.3 70B 切到全部 3 张卡上", "64 个注意力头不能被 3 整除", "--pipeline-parallel-size 3"]),
])
def test_owned_cards_plan_says_why_one_is_idle(turn: str, said: list[str]) -> None:
    _states, text = _reply([turn])
    assert "--tensor-parallel-size 2" in text
    for s in said:
        assert s in text, s
