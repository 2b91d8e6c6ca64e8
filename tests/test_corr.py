"""Corrections and answers to a clarifying question are applied, nothing the user said dropped (review AE, issue 21):
a card's memory put right in any phrasing, EN and ZH."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states

# --- a card's memory put right: the card already in the conversation, its variant of that memory -------------------

RENTED = ["full finetune of a 7b model on 8x A100 40GB with deepspeed zero3, 500M tokens x 2 epochs, how long",
          "8张A100 40G，全参微调7B模型，5亿token，2个epoch，要多久"]
OWNED = ["we own 8x A100 40GB, full finetune of a 7b model, 500M tokens x 2 epochs, how long",
         "我们有8张A100 40G，全参微调7B模型，5亿token，2个epoch，要多久"]
FILLERS_EN = ["", "sorry, ", "oh ", "my bad, ", "actually "]
FILLERS_ZH = ["", "抱歉，", "哦 ", "说错了，", "不好意思，"]
SAID_EN = ["they're the 80GB ones not 40", "they're 80gb", "not 40gb, 80", "80gb ones", "they are 80 GB",
           "the 80gb version", "they're A100 80GB", "not the 40gb ones, they're 80"]
SAID_ZH = ["80G的", "是80G版本", "不是40G，是80G的", "卡是80G的不是40G", "我们的卡是80G的，不是40G", "其实是A100 80G的"]
CORRECTIONS = [f + s for f, s in itertools.product(FILLERS_EN, SAID_EN)] + \
    [f + s for f, s in itertools.product(FILLERS_ZH, SAID_ZH)]


@pytest.mark.parametrize("said", CORRECTIONS)
def test_memory_said_alone_is_read(said):
    u = understand(said, None)
    assert u.ask.get("memory_variant", (None,))[0] == 80 or u.ask.get("replaced", (None,))[0] == "a100-80gb-sxm"
    assert set(u.updates) <= {"owned"}  # "my bad, they're A100 80GB": 'my' reads as a card had


@pytest.mark.parametrize("said", ["will it fit in 80gb?", "what about 80gb?", "80gb of data", "compare with a100 80gb",
                                  "80G够吗", "用80G的卡能跑吗"])
def test_memory_asked_is_no_correction(said):
    assert "memory_variant" not in understand(said, None).ask


def _cards(state, slot):
    return (state.get("profile") or {}).get(slot)


@pytest.mark.parametrize("first,said", [(RENTED[i % 2], s) for i, s in enumerate(CORRECTIONS[::3])])
def test_memory_correction_replaces_the_rented_variant(first, said):
    state = run_states([first, said])[-1]
    assert _cards(state, "only") == ["8x a100-80gb-sxm"]
    assert "didn't understand" not in state["messages"][-1].content
    assert "A100 SXM4 80GB" in state["messages"][-1].content


@pytest.mark.parametrize("first,said", [(OWNED[i % 2], s) for i, s in enumerate(CORRECTIONS[1::4])])
def test_memory_correction_keeps_the_owned_count(first, said):
    state = run_states([first, said])[-1]
    assert _cards(state, "owned") == ["8x a100-80gb-sxm"]


def test_compare_is_no_correction():
    state = run_states([RENTED[0], "compare with a100 80gb"])[-1]
    assert _cards(state, "only") == ["8x a100-40gb-sxm"]


# --- a sequence length put right: the examples counted before are that long, their tokens recounted ----------------

SEQ_FIRST = ["want to lora finetune mistral 7b on 100k examples, seq len 2k",
             "用LoRA微调mistral 7b，10万条样本，序列长度2k"]
SEQ_SAID = ["sequences are 4k not 2k", "oh and sequences are 4k not 2k", "sorry, the sequences are actually 4096",
            "序列是4k不是2k", "不好意思，序列长度是4k，不是2k", "actually 4096 tokens per sample", "seq len 4k not 2k",
            "每条4k token"]


@pytest.mark.parametrize("first,said", [(f, s) for f in SEQ_FIRST for s in SEQ_SAID])
def test_seq_len_correction_recounts_the_tokens(first, said):
    state = run_states([first, said])[-1]
    profile = state["profile"]
    length = profile["seq_len"]
    assert length in (4000, 4096)
    assert profile["train_tokens"] == 100_000 * length
    assert not profile.get("owned") and not profile.get("only")  # 'actually 4096' is no count of cards
    reply = state["messages"][-1].content
    assert "2,000" not in reply.split("**Assumptions**")[0].split("**假设**")[0]


@pytest.mark.parametrize("first", ["full finetune 7b on 500M tokens, seq len 2k", "全参微调7B，5亿token，序列长度2k"])
@pytest.mark.parametrize("said", ["sequences are 4k not 2k", "序列是4k不是2k"])
def test_seq_len_correction_keeps_tokens_said(first, said):
    profile = run_states([first, said])[-1]["profile"]
    assert profile["seq_len"] == 4000 and profile["train_tokens"] == 500e6
