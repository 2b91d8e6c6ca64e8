"""Session 16 round D, concept4: questions that are not sizing requests get their own answer (how a concept works
and what it buys, asked in any word order, English and Chinese), and "just want the concept" sizes nothing."""

from __future__ import annotations

import re

import pytest

from tests.conversation import run_states

CJK = re.compile(r"[\u4e00-\u9fff]")
NOT_UNDERSTOOD = ("didn't understand", "没看懂")
SIZING = ("## ", "It fits", "tokens/s each", "放得下")


def _reply(state: dict) -> tuple[str, dict]:
    msg = state["messages"][-1]
    return str(msg.content), dict((msg.additional_kwargs or {}).get("gpu_advisor") or {})


HOW = [
    ("how does paged attention actually save memory vs the old way, and roughly how much more concurrency does it buy you",
     "paged-attention", "en"),
    ("paged attention: how much memory does it save compared to before?", "paged-attention", "en"),
    ("roughly how much more concurrency does pagedattention buy you over the old way", "paged-attention", "en"),
    ("PagedAttention 是怎么省显存的？比以前的方式能多撑多少并发", "paged-attention", "zh"),
    ("分页注意力为什么能省显存，并发能提高多少", "paged-attention", "zh"),
    ("how does continuous batching actually help throughput", "continuous-batching", "en"),
    ("连续批处理的原理是什么", "continuous-batching", "zh"),
    ("how does flash attention reduce memory", "flash-attention", "en"),
    ("FlashAttention 是怎么省显存的", "flash-attention", "zh"),
    ("how does speculative decoding speed things up", "speculative-decoding", "en"),
    ("投机解码是怎么加速的", "speculative-decoding", "zh"),
    ("how does MoE routing work", "moe", "en"),
    ("MoE 的路由是怎么工作的", "moe", "zh"),
    ("ZeRO stage 1 2 3 有什么区别", "sharded-training", "zh"),
    ("what's the difference between zero stage 1 and zero stage 3", "sharded-training", "en"),
    ("gradient checkpointing 能省多少显存", "gradient-checkpointing", "zh"),
    ("how much memory does gradient checkpointing actually save", "gradient-checkpointing", "en"),
    ("how does prefix caching save compute on repeated prompts", "prefix-caching", "en"),
    ("前缀缓存有什么用", "prefix-caching", "zh"),
]


@pytest.mark.parametrize(("text", "topic", "lang"), HOW)
def test_how_a_concept_works_is_answered(text: str, topic: str, lang: str) -> None:
    reply, extra = _reply(run_states([text])[-1])
    assert not any(s in reply for s in NOT_UNDERSTOOD)
    assert not any(s in reply for s in SIZING)
    assert topic in str(extra.get("topic", "")), (text, extra.get("topic"))
    assert bool(CJK.search(reply)) == (lang == "zh")


@pytest.mark.parametrize("text", [
    "how does paged attention actually save memory vs the old way, and roughly how much more concurrency does it buy you",
    "分页注意力为什么能省显存，并发能提高多少",
])
def test_paged_attention_says_the_figures_and_source(text: str) -> None:
    reply, _ = _reply(run_states([text])[-1])
    for figure in ("20", "38", "60", "80", "4%", "2"):
        assert figure in reply
    assert "vLLM" in reply


@pytest.mark.parametrize(("turns", "lang"), [
    (["how does paged attention actually save memory vs the old way", "just want to understand the concept"], "en"),
    (["just want to understand the concept"], "en"),
    (["what is prefix caching", "I'm only trying to understand how it works, not buying anything yet"], "en"),
    (["分页注意力为什么能省显存", "只是想了解一下原理"], "zh"),
    (["就是想搞懂这个概念"], "zh"),
])
def test_just_the_concept_sizes_nothing(turns: list[str], lang: str) -> None:
    reply, extra = _reply(run_states(turns)[-1])
    assert not any(s in reply for s in NOT_UNDERSTOOD)
    assert not any(s in reply for s in SIZING)
    assert "choices" not in extra or not extra.get("choices")
    assert bool(CJK.search(reply)) == (lang == "zh")


@pytest.mark.parametrize(("text", "topic"), [
    ("I just want to learn the concept of kv cache", "kv-cache"),
    ("只是想了解一下前缀缓存的原理", "prefix-caching"),
])
def test_just_the_concept_named_is_explained(text: str, topic: str) -> None:
    _reply_text, extra = _reply(run_states([text])[-1])
    assert extra.get("topic") == topic


def test_how_do_i_fit_is_still_a_sizing() -> None:
    reply, _ = _reply(run_states(["how do I fit llama 3 70b with int4 quantization on 2 4090s"])[-1])
    assert "4090" in reply and not any(s in reply for s in NOT_UNDERSTOOD)


# --- TP16 against TP8+PP2 for an FP8 checkpoint: sized in its own format, the named layouts answered ---

PAR = [
    ("TP和PP有啥区别？我们两台机器每台8张H800，机器之间是IB，想跑deepseek v3，是TP16好还是TP8+PP2好", "zh"),
    ("两台8卡H800跑deepseek-v3，TP16还是TP8 PP2", "zh"),
    ("deepseek v3 跑在两台 8 卡 H800 上，张量并行还是流水线并行", "zh"),
    ("we have 2 nodes of 8x H800 with IB, deepseek v3: TP16 or TP8+PP2?", "en"),
    ("deepseek v3 on two 8xH100 servers, should we use tp 16 or tp 8 pp 2", "en"),
    ("whats the difference between TP and PP, and which for deepseek-v3 on 2 servers with 8 H800 each", "en"),
]


@pytest.mark.parametrize(("text", "lang"), PAR)
def test_fp8_checkpoint_sized_natively_and_tp16_refused(text: str, lang: str) -> None:
    reply, extra = _reply(run_states([text])[-1])
    data = (extra.get("results") or {}).get("par_choice")
    assert "FP8" in reply and "1,470" not in reply
    assert bool(CJK.search(reply)) == (lang == "zh")
    if data is not None:
        assert data["precision"] == "fp8" and (data["tp"], data["pp"]) == (8, 2)
    assert ("TP 8 × PP 2" in reply) or ("张量并行 8" in reply and "流水线并行 2" in reply)
    if "16" in text or "TP16" in text:
        assert "TP 16" in reply


# --- two models and a criterion: one pick by it, at one format, then the trade-off ---

CHOICE = [
    ("家里就一张4060ti 16g，glm4-9b 和 qwen2.5-14b 我该跑哪个？主要就是自己写点东西，想要快一点的", "zh"),
    ("我有一张4060ti 16g，qwen2.5-14b 还是 glm4-9b 哪个跑得快", "zh"),
    ("I have a 4060 ti 16gb, should I run glm4-9b or qwen2.5-14b? I want the faster one", "en"),
    ("qwen2.5 14b or glm4 9b on my 4060 ti 16gb, which is faster?", "en"),
]


@pytest.mark.parametrize(("text", "lang"), CHOICE)
def test_one_pick_by_speed_at_one_format(text: str, lang: str) -> None:
    reply, extra = _reply(run_states([text])[-1])
    data = extra.get("results") or {}
    assert (data.get("pick") or {}).get("model", "").startswith("glm-4-9b"), data.get("pick")
    assert data.get("same_format") and data.get("speed_ratio", 0) >= 1.3
    assert "差不多" not in reply and "about the same" not in reply
    assert bool(CJK.search(reply)) == (lang == "zh")
    assert "Qwen2.5 14B" in reply.split("Q4_K_M")[-1] or "Qwen2.5 14B" in reply  # the trade-off names the other


# --- "is X any good for Y": the verdict on the card in words, beside the count ---

GOOD = [
    ("we're a team in beijing, cant easily get h100. is H20 any good for serving qwen2.5 72b to 100 users, and how many "
     "would we need", "en"),
    ("qwen2.5 72b for 100 users: is the H20 any good?", "en"),
    ("is the H20 any good for serving qwen2.5 72b to 100 users, how many do we need", "en"),
    ("H20 值得买吗？想给100个人跑qwen2.5-72b", "zh"),
    ("H20跑qwen2.5-72b给100个人用怎么样", "zh"),
]


@pytest.mark.parametrize(("text", "lang"), GOOD)
def test_any_good_gets_the_card_verdict(text: str, lang: str) -> None:
    reply, _extra = _reply(run_states([text])[-1])
    head = reply[:900]
    assert ("any good for this" in head) if lang == "en" else ("适合这个任务吗" in head)
    assert "96 GB" in head and "148" in head  # memory its strength, BF16 compute its weakness, from the card record
    assert "4 × NVIDIA H20" in reply
    assert bool(CJK.search(reply)) == (lang == "zh")
