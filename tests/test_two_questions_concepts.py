"""A first message that asks two things, one of them a concept, gets each part answered in the order asked and
nothing that was not asked (review CL 1-2: "why is decode slower than prefill on H100? and TP vs PP diff" explained
expert parallelism and never said why decode is slower; "llama 3 8b vs qwen3 8b which cheaper? and what is kv
cache?" answered only the KV cache). Concept names x joiners x orders x languages; the comparison and the sizing
beside a concept; the prefill-decode entry's reasons, in both languages."""

from __future__ import annotations

import itertools

import pytest
from conversation import run_states

from gpu_advisor.assistant.concept_parts import CONCEPT, kind
from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import glossary

# How each concept is asked, in English and in Chinese.
ASKED = {
    "kv-cache": ("what is kv cache", "什么是KV缓存"),
    "lora": ("explain lora", "LoRA是什么"),
    "expert-parallel": ("what is expert parallelism", "什么是专家并行"),
    "prefill-decode": ("why is decode slower than prefill", "为什么解码比预填充慢"),
    "tensor-parallel+pipeline-parallel": ("TP vs PP diff", "张量并行和流水线并行有什么区别"),
}
JOINERS = {
    "en": ["? and ", "? also ", "; ", ", and also "],
    "zh": ["？另外，", "？还有，", "；顺便问下，", "？"],
}
END = {"en": "?", "zh": "？"}
TOPICS = {t.id: t for t in glossary()}


def _section(topic: str, lang: str) -> str:
    t = TOPICS[topic]
    return f"**{t.title_en if lang == 'en' else t.title_zh}**"


def _reply(text: str) -> str:
    return str(run_states([text], thread="two-concepts")[-1]["messages"][-1].content)


def _asked_in_order(reply: str, asked: list[str], lang: str) -> None:
    found = [reply.find(_section(t, lang)) for t in asked]
    assert all(i >= 0 for i in found), (asked, reply[:600])
    assert found == sorted(found), (asked, found)
    for other in set(TOPICS) - set(asked):
        assert _section(other, lang) not in reply, (other, reply[:600])


PAIRS = list(itertools.permutations(ASKED, 2))


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("joiner", range(4))
@pytest.mark.parametrize(("first", "second"), PAIRS, ids=[f"{a}|{b}" for a, b in PAIRS])
def test_two_concepts_each_answered_in_order_and_nothing_else(first: str, second: str, joiner: int, lang: str) -> None:
    i = 0 if lang == "en" else 1
    text = ASKED[first][i] + JOINERS[lang][joiner] + ASKED[second][i] + END[lang]
    asked = [*first.split("+"), *second.split("+")]
    _asked_in_order(_reply(text), asked, lang)


@pytest.mark.parametrize("card", ["H100", "h100", "A100", "the 4090"])
@pytest.mark.parametrize("form", ["why is decode slower than prefill on {card}?", "为什么{card}上解码比预填充慢？",
                                  "why is decoding memory-bound on {card}?"])
def test_why_decode_is_slower_on_a_card_is_the_concept(form: str, card: str) -> None:
    u = understand(form.format(card=card), None)
    assert u.topic == "prefill-decode" and kind(u) == CONCEPT
    assert not u.compare_gpus and not u.updates


@pytest.mark.parametrize(("text", "lang", "words"), [
    ("why is decode slower than prefill on H100? and TP vs PP diff", "en",
     ["memory bandwidth", "compute-bound", "tensor cores", "Batching many sequences"]),
    ("Why is decoding slower than prefill on the H100? Also what's the difference between TP and PP?", "en",
     ["memory bandwidth", "compute-bound", "tensor cores", "Batching many sequences"]),
    ("为什么H100上解码比预填充慢？另外，TP和PP有什么区别？", "zh", ["显存带宽", "计算受限", "张量核心", "批处理"]),
])
def test_review_decode_and_tp_pp(text: str, lang: str, words: list[str]) -> None:
    reply = _reply(text)
    _asked_in_order(reply, ["prefill-decode", "tensor-parallel", "pipeline-parallel"], lang)
    for word in words:
        assert word in reply


@pytest.mark.parametrize("joiner", ["? and ", "? also, ", "; btw "])
@pytest.mark.parametrize(("models", "said"), [
    (("llama 3 8b", "qwen3 8b"), ("llama-3-8b", "qwen3-8b")),
    (("qwen3 14b", "llama 3.1 8b"), ("qwen3-14b", "llama-3.1-8b")),
])
@pytest.mark.parametrize("concept", ["kv-cache", "lora"])
def test_comparison_then_concept_both_answered(models: tuple[str, str], said: tuple[str, str], joiner: str,
                                               concept: str) -> None:
    """The comparison asks the job first (both models kept), then the concept; the job said next weighs both."""
    text = f"{models[0]} vs {models[1]} which cheaper{joiner}{ASKED[concept][0]}?"
    states = run_states([text, "serving 20 users", "around the clock"], thread="cmp-concept")
    first = str(states[0]["messages"][-1].content)
    heads = [first.find(f"**1. “{models[0]}"), first.find("**2. “")]
    asked = first.find("What are you planning to do with the model?")
    assert 0 <= heads[0] < heads[1] < first.find(_section(concept, "en")) < asked, first[:600]
    assert first.count("What are you planning to do with the model?") == 1  # asked once, at the end
    assert states[0]["messages"][-1].additional_kwargs["gpu_advisor"]["slot"] == "phase"
    _asked_in_order(first, [concept], "en")
    last = str(states[-1]["messages"][-1].content)
    names = [m.replace("-", " ") for m in said]
    assert all(n.lower() in last.lower().replace("-", " ") for n in names), last[:400]
    assert "each sized for the same job" in last


@pytest.mark.parametrize(("text", "concept", "lang"), [
    ("llama 3 8b和qwen3 8b哪个更便宜？另外，什么是KV缓存？", "kv-cache", "zh"),
    ("qwen3 14b 和 llama 3.1 8b 哪个更省钱？顺便问下，LoRA是什么？", "lora", "zh"),
    ("serve llama 3 8b for 50 users, also what is kv cache?", "kv-cache", "en"),
    ("给50个用户部署llama 3 8b；另外什么是KV缓存？", "kv-cache", "zh"),
])
def test_job_then_concept_keeps_the_job(text: str, concept: str, lang: str) -> None:
    state = run_states([text], thread="job-concept")[-1]
    reply = str(state["messages"][-1].content)
    assert reply.startswith("**1. “") and "**2. “" in reply
    _asked_in_order(reply, [concept], lang)
    assert (state.get("profile") or {}).get("model") in ("llama-3-8b", "qwen3-8b", "qwen3-14b", "llama-3.1-8b")


@pytest.mark.parametrize("text", [
    "tensor parallelism and pipeline parallelism, what is the difference?",
    "what is lora and qlora",
    "what is a kv cache, in simple terms?",
    "what is a kv cache? also how big is it for llama 3.1 8b at 32k",
    "serve llama 3 8b for 50 users and 20 more later",
    "what is a kv cache? also how big is it for llama 3.1 8b at 32k",
    "what is a kv cache? and how big is the kv cache for llama 70b at 32k?",
    "什么是KV缓存？另外，llama 3.1 8b在32k上下文下KV缓存多大？",
    "how much memory difference between lora and full fine-tuning for qwen3 8b, seq len 4k?",
    "Qwen3-8B用全参微调还是LoRA，序列长度4k，显存差多少？",
    "2台机器跑70B，用张量并行还是流水线并行？",
])
def test_one_question_is_not_cut(text: str) -> None:
    from gpu_advisor.assistant.concept_parts import split

    assert split({"messages": [_human(text)]}) is None


def _human(text: str) -> object:
    from langchain_core.messages import HumanMessage

    return HumanMessage(text)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(("card", "said"), [("h100-sxm", "H100"), ("a100-sxm4-80gb", "A100 80GB"), ("rtx-4090", "4090")])
def test_card_named_with_the_concept_gives_its_own_figures(card: str, said: str, lang: str) -> None:
    """The card's dense BF16 TFLOPS and bandwidth from its record, and the operations per byte that follow."""
    from gpu_advisor.knowledge import find_gpu

    gpu = find_gpu(card)
    text = (f"why is decode slower than prefill on {said}? and TP vs PP diff" if lang == "en"
            else f"为什么{said}上解码比预填充慢？另外，TP和PP有什么区别？")
    reply = _reply(text)
    _asked_in_order(reply, ["prefill-decode", "tensor-parallel", "pipeline-parallel"], lang)
    ops = round(gpu.bf16_tflops * 1e3 / gpu.memory_bandwidth_gbps)
    for figure in (f"{gpu.bf16_tflops:,.0f}", f"{gpu.memory_bandwidth_gbps:,.0f}", f"{ops:,}", gpu.name):
        assert figure in reply.split("**2. “")[0], (figure, reply[:900])
    assert gpu.name not in reply.split("**2. “")[1]


def test_no_card_no_card_figures() -> None:
    reply = _reply("why is decode slower than prefill?")
    assert "TFLOPS" not in reply and _section("prefill-decode", "en") in reply


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("formats", [("fp8", "int4"), ("bf16", "int4"), ("int8", "int4")])
@pytest.mark.parametrize("concept", ["kv-cache", "expert-parallel"])
@pytest.mark.parametrize("concept_first", [False, True])
def test_formats_weighed_and_a_concept(formats: tuple[str, str], concept: str, concept_first: bool, lang: str) -> None:
    """Two weight formats weighed, and a concept: the formats' verdict and the concept's entry, in the order asked."""
    i = 0 if lang == "en" else 1
    weighed = (f"{formats[0]} vs {formats[1]} which is better" if lang == "en"
               else f"{formats[0]}和{formats[1]}哪个更好")
    parts = [ASKED[concept][i], weighed] if concept_first else [weighed, ASKED[concept][i]]
    reply = _reply(parts[0] + JOINERS[lang][0] + parts[1] + END[lang])
    _asked_in_order(reply, [concept], lang)
    verdict = "**Verdict**" if lang == "en" else "**结论**"
    at = [reply.find(verdict), reply.find(_section(concept, lang))]
    assert min(at) >= 0 and (at[0] > at[1]) == concept_first, reply[:800]
