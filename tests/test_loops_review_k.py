"""Review K: no question loops. A family with 'the big one' / '最大的' / 'smallest' names a model (words/families.yaml);
a chatbot is serving; an unanswered question takes its default for what follows instead of leading to questions that
assume something else."""

from __future__ import annotations

import pytest
from conversation import run_conversation

from gpu_advisor.assistant.reading import understand

BIG_QWEN = [("its qwen, the big one", "qwen2.5-72b"), ("qwen, the biggest", "qwen3-235b-a22b"),
            ("the largest Qwen please", "qwen3-235b-a22b"), ("QWEN the big one i think", "qwen2.5-72b"),
            ("千问最大的", "qwen3-235b-a22b"), ("通义千问，最大的那个", "qwen3-235b-a22b"), ("千问 满血版", "qwen3-235b-a22b"),
            ("用通义，大的", "qwen2.5-72b")]
SMALL = [("the smallest llama", "llama-3.2-1b"), ("llama, the small one", "llama-3.1-8b"),
         ("羊驼最小的", "llama-3.2-1b"), ("qwen tiny one", "qwen3-8b"), ("千问小的那个", "qwen3-8b"),
         ("deepseek, the big one", "deepseek-v3.1"), ("深度求索最大的", "deepseek-v3.1")]


@pytest.mark.parametrize("text,model", BIG_QWEN)
def test_big_family(text, model):
    assert understand(text).updates.get("model") == model


@pytest.mark.parametrize("text,model", SMALL)
def test_small_or_other_family(text, model):
    assert understand(text).updates.get("model") == model


@pytest.mark.parametrize("text,model", [("qwen 72b, the big one", "qwen2.5-72b"), ("qwen3 32b", "qwen3-32b")])
def test_a_named_size_wins(text, model):
    assert understand(text).updates.get("model") == model


@pytest.mark.parametrize("text", ["qwen", "千问", "the big one", "qwen or llama, the big one", "a big model"])
def test_nothing_picked_without_one_family_and_a_size_word(text):
    assert "model" not in understand(text).updates


@pytest.mark.parametrize("first", ["need help choosing gpus for our chatbot", "we need gpus to power our support chatbot",
                                   "gpus for running a chatbot"])
def test_chatbot_is_serving(first):
    assert understand(first).updates.get("phase") == "serve"


@pytest.mark.parametrize("turns,name", [
    (["need help choosing gpus for our chatbot", "its qwen, the big one i think"], "Qwen2.5 72B"),
    (["we want to serve a model to our team", "llama, the smallest one"], "Llama 3.2 1B"),
    (["我们要部署一个服务给同事用", "千问，最大的那个"], "Qwen3 235B-A22B"),
    (["帮我们部署一个模型服务", "通义千问最大的"], "Qwen3 235B-A22B"),
])
def test_family_answer_moves_on(turns, name):
    replies = run_conversation(turns)
    last = replies[-1].content
    assert name in last
    assert "QLoRA" not in last  # serving: no fine-tuning method asked
    assert last.count("[") >= 1 and ("same time" in last or "同时" in last)  # the next question is the users one


@pytest.mark.parametrize("turns", [["hello", "qwen3 235b"], ["need help", "its qwen, the biggest"], ["你好", "千问最大的"]])
def test_unanswered_phase_never_becomes_fine_tuning(turns):
    last = run_conversation(turns)[-1].content
    assert "Qwen3 235B-A22B" in last
    assert "QLoRA (4-bit)" not in last and "QLoRA（4-bit）" not in last and "How will you fine-tune" not in last
    assert "怎么微调" not in last


@pytest.mark.parametrize("turns,lang", [
    (["need help choosing gpus for our chatbot", "its qwen, the largest", "not sure", "not sure"], "en"),
    (["我们要部署一个服务给同事用", "千问，最大的那个", "不确定", "不确定"], "zh"),
])
def test_answer_after_at_most_two_questions_once_model_and_phase_known(turns, lang):
    replies = run_conversation(turns)
    final = replies[-1].content
    assert "235B-A22B" in final
    assert final.startswith("## ")  # the plan, not another question
    assert ("Assumptions" in final) if lang == "en" else ("假设" in final)


@pytest.mark.parametrize("text,only", [
    ("Qwen3-30B-A3B 用 4090 部署，4张卡，大概能支持多少并发？", ["4x rtx-4090"]),
    ("qwen3-30b-a3b 用4090，8块卡，能支持多少并发", ["8x rtx-4090"]),
    ("qwen3-30b-a3b on 4090s, 4 cards, how many concurrent users?", ["4x rtx-4090"]),
    ("qwen3 30b a3b on a 4090, 2 gpus, how many users can it handle?", ["2x rtx-4090"]),
])
def test_capacity_keeps_a_count_said_after_the_card(text, only):
    u = understand(text)
    assert "capacity" in u.intents
    assert u.updates.get("only") == only


@pytest.mark.parametrize("text,people,card", [
    ("Qwen3-30B-A3B 用 4090 部署，4张卡，大概能支持多少并发？", "大约 68 人同时生成", "4 × NVIDIA GeForce RTX 4090"),
    ("qwen3-30b-a3b on 4090s, 4 cards, how many concurrent users?", "About 68 people generating at once",
     "4 × NVIDIA GeForce RTX 4090"),
])
def test_how_many_users_is_answered_with_the_capacity(text, people, card):
    reply = run_conversation([text])[-1].content
    assert people in reply and card in reply
    assert "[" not in reply  # answered, no question


@pytest.mark.parametrize("text,head", [
    ("Qwen3-30B-A3B 用 4090 部署，大概能支持多少并发？", "大约 8 人同时生成"),
    ("qwen3-30b-a3b on a 4090, how many users can it handle?", "About 8 people generating at once"),
])
def test_one_consumer_card_answers_at_four_bit(text, head):
    reply = run_conversation([text])[-1].content
    assert head in reply and "int4" in reply
    assert " in  " not in reply and "以  " not in reply  # never a blank format
