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


# 'what about 80gb?' after a plan on a 40GB card is its 80GB variant tried (h-fixa: 'what if i had the 128gb one')
@pytest.mark.parametrize("said", ["will it fit in 80gb?", "80gb of data", "compare with a100 80gb",
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


# --- a length answering 'tell me their length': the examples' tokens; a preference pair's two sequences ----------

DPO_FIRST = ["need to DPO llama 3.1 70b on 60k preference pairs by end of next week, budget 3k usd. what do i rent?",
             "下周末之前要用DPO训练llama 3.1 70b，6万条偏好数据，预算3000美元，租什么卡？"]
EACH = ["1,500", "1500", "about 1.5k each", "pairs average around 1500 tokens (chosen+rejected each)", "~1500 tokens",
        "1500 each", "大概1500 token左右", "每条1.5k", "1.5k左右", "每条大概1500"]


@pytest.mark.parametrize("first,said", [(f, s) for f in DPO_FIRST for s in EACH])
def test_length_answer_recounts_the_pairs(first, said):
    state = run_states([first, said])[-1]
    profile = state["profile"]
    assert profile["seq_len"] == 1500 and profile["train_tokens"] == 60_000 * 1500
    assert profile["deadline_hours"] >= 72  # 'end of next week' / '下周末' kept
    reply = state["messages"][-1].content
    assert "3,000" in reply and "1,500" in reply  # chosen and rejected, 1:1


@pytest.mark.parametrize("said", ["~1500 tokens per pair in total", "1500 total", "每对一共1500"])
def test_length_of_a_whole_pair_is_halved(said):
    profile = run_states([DPO_FIRST[0], said])[-1]["profile"]
    assert profile["seq_len"] == 750 and profile["train_tokens"] == 60_000 * 750


@pytest.mark.parametrize("first", ["qlora llama 3.1 8b on 50k examples, how long on an h100?",
                                   "用QLoRA微调llama 3.1 8b，5万条样本，H100要多久"])
@pytest.mark.parametrize("said", ["1,500", "about 1.5k each", "每条1.5k"])
def test_length_answer_sft(first, said):
    profile = run_states([first, said])[-1]["profile"]
    assert profile["train_tokens"] == 50_000 * 1500


@pytest.mark.parametrize("first", DPO_FIRST)
def test_context_said_is_no_example_length(first):
    profile = run_states([first, "make it 32k context"])[-1]["profile"]
    assert profile["train_tokens"] == 60e6


@pytest.mark.parametrize("text", ["by end of next week", "before the end of next week", "by the end of next week"])
def test_end_of_next_week_is_a_deadline(text):
    assert understand(f"qlora llama 3.1 8b on 1B tokens {text}", None).updates.get("deadline_hours") == 168


# --- how many things are asked is no count of examples, users or cards ----------------------------------------------

ASKED_EN = ["two questions:", "2 questions -", "a couple of questions:", "quick q's (2):", "3 things:",
            "hey, two quick questions:", "i have 2 questions:", "two points:", "so, 2 qs:"]
ASKED_ZH = ["两个问题：", "我有两个问题，", "三个问题：", "有2个问题："]
JOBS_EN = ["qlora llama 3.1 70b, does it fit on one h100?", "how long to lora llama 3.1 8b on a 4090?",
           "serve qwen2.5 32b on 4x l40s, is that enough?"]
JOBS_ZH = ["QLoRA微调llama 3.1 70b，一张H100够吗？", "部署qwen2.5 32b用4张L40S够不够？"]
COUNTED = ("train_examples", "train_tokens", "users", "batch_items", "rl_prompts")


@pytest.mark.parametrize("asked,job", [(a, j) for a in ASKED_EN for j in JOBS_EN] + [(a, j) for a in ASKED_ZH for j in JOBS_ZH])
def test_count_of_questions_is_no_quantity(asked, job):
    u = understand(f"{asked} {job}", None)
    said = {k: v for k, v in u.updates.items() if k in COUNTED}
    assert said == {k: v for k, v in understand(job, None).updates.items() if k in COUNTED}
    assert u.updates.get("only") == understand(job, None).updates.get("only")


@pytest.mark.parametrize("text,examples", [("qlora on 10 questions, 2 epochs, llama 3.1 8b", 10),
                                           ("fine tune llama 3.1 8b on 50k questions", 50_000)])
def test_questions_as_data_stay_examples(text, examples):
    assert understand(text, None).updates.get("train_examples") == examples


def test_two_questions_plan_has_no_zero_hours():
    text = ("two questions: whats the actual memory difference between lora and qlora, and for llama 3.1 70b which "
            "of the two fits on 2x a100 80gb?")
    state = run_states([text])[-1]
    assert not (state.get("profile") or {}).get("train_examples")
    assert "0.00 h" not in state["messages"][-1].content
