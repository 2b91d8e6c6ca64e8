"""A model family said without a size is taken to a catalog model and said back ('its qwen, the big one');
rough English counts ('a few hundred') are numbers, and people of a day ('每天300人用') are a population."""
from __future__ import annotations

import pytest
from conversation import run_conversation

from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.reading.text import vocab
from gpu_advisor.knowledge import find_model

PICKS = vocab()["family_picks"]
SAID = {"qwen": ["qwen", "Qwen", "千问", "通义千问"], "llama": ["llama", "Llama", "meta llama"],
        "mistral": ["mistral"], "gemma": ["gemma"], "deepseek": ["deepseek", "DeepSeek"], "glm": ["glm", "chatglm"],
        "phi": ["phi"], "gpt-oss": ["gpt-oss"]}
SIZE_WORDS = {"big": ["the big one", "the large model", "大的那个", "大号的"],
              "biggest": ["the biggest", "largest", "最大的"], "small": ["the small one", "小的那个"],
              "smallest": ["the smallest", "最小的"]}


def test_every_pick_is_a_catalog_model_of_its_family():
    for family, picks in PICKS.items():
        for model_id in picks.values():
            model = find_model(model_id)
            assert model.id == model_id
            assert family in (model.family, model.id.split("-")[0]) or model.id.startswith(family)


CASES = [(family, word, kind, size) for family, words in SAID.items() for word in words
         for kind, sizes in SIZE_WORDS.items() for size in sizes]


@pytest.mark.parametrize("family, word, kind, size", CASES)
def test_a_family_and_its_size_word_name_one_model(family, word, kind, size):
    for text in (f"its {word}, {size}", f"{size} {word}", f"用{word}，{size}"):
        u = understand(text)
        assert u.updates.get("model") == PICKS[family][kind], text
        assert [n for n, _p in u.notes if n.startswith("note.family")] == ["note.family_pick"], text


@pytest.mark.parametrize("family, word", [(f, w) for f, words in SAID.items() for w in words])
@pytest.mark.parametrize("frame", ["{}", "its {}", "serve {} to 50 users", "用{}做客服", "{}, i think"])
def test_a_family_alone_is_asked_about_never_guessed(family, word, frame):
    u = understand(frame.format(word), "model")
    assert "model" not in u.updates and u.unknown_model is None
    assert [n for n, _p in u.notes if n.startswith("note.family")] == ["note.family_which"]
    assert not u.empty


@pytest.mark.parametrize("text", ["run it with llama.cpp on my mac", "ollama on a 3090", "qwen vs llama for chat?",
                                  "serve qwen2.5-14b to 20 users", "deploy a 70b llama for 20 users",
                                  "glm-5 for 20 users"])
def test_no_pick_when_a_model_is_named_or_two_families_or_none(text):
    assert not [n for n, _p in understand(text).notes if n.startswith("note.family")]


@pytest.mark.parametrize("phrase, n", [("a few hundred", 300), ("a couple hundred", 200), ("several hundred", 500),
                                      ("a few thousand", 3000), ("a couple of thousand", 2000)])
@pytest.mark.parametrize("frame, role", [("serve qwen3-32b to {} people at once", "users"),
                                         ("qwen3-32b chatbot, {} users a day", "population"),
                                         ("qwen3-32b chatbot, {} people per day", "population")])
def test_rough_counts(phrase, n, frame, role):
    assert understand(frame.format(phrase)).updates.get(role) == n


@pytest.mark.parametrize("text, role, n", [
    ("部署qwen3-32b，每天300人用", "population", 300), ("部署qwen3-32b，每天大概几百人用", "population", 500),
    ("部署qwen3-32b，一天三百个用户", "population", 300), ("部署qwen3-32b，每天300人同时在线", "users", 300),
    ("部署qwen3-32b，每日约两千人使用", "population", 2000),
])
def test_people_of_a_day_in_chinese(text, role, n):
    assert understand(text).updates.get(role) == n


@pytest.mark.parametrize("first", ["need help choosing gpus for our chatbot", "我们的客服机器人该用什么卡",
                                   "what gpus for a support bot?"])
def test_a_chatbot_is_serving(first):
    assert understand(first).updates.get("phase") == "serve"


def test_the_family_conversation_reaches_an_answer():
    replies = run_conversation(["need help choosing gpus for our chatbot", "its qwen, the big one i think",
                                "idk like a few hundred users a day? most ask short questions", "around the clock"])
    assert "Qwen2.5 72B" in replies[1].content and "Qwen3 235B-A22B" in replies[1].content
    assert "300" in replies[2].content
    assert replies[3].content.startswith("## ") and "Qwen2.5 72B" in replies[3].content


@pytest.mark.parametrize("text", ["帮我看看该用什么卡", "该选什么显卡", "该买什么卡", "租哪种显卡", "帮我们选一下卡",
                                  "帮忙推荐一下用什么GPU", "help me pick gpus", "need help choosing a gpu",
                                  "what cards should we rent?", "which gpus should i buy"])
def test_asking_for_help_to_choose_is_understood(text):
    assert not understand(text).empty


@pytest.mark.parametrize("pair, bigger, smaller", [("qwen2.5 14b or 32b", "qwen2.5-32b", "Qwen2.5 14B"),
                                                   ("Qwen2.5 14b 或者 32b", "qwen2.5-32b", "Qwen2.5 14B"),
                                                   ("llama 3.1 8b or 70b", "llama-3.1-70b", "Llama 3.1 8B")])
@pytest.mark.parametrize("cue", ["you pick", "whichever you recommend", "either is fine", "都行，你推荐一个", "你定吧",
                                 "not sure"])
def test_two_sizes_left_to_us_take_the_larger_and_name_the_smaller(pair, bigger, smaller, cue):
    u = understand(f"{pair}, {cue}")
    assert u.updates["model"] == bigger
    notes = [(n, p) for n, p in u.notes if n.startswith("note.model")]
    assert notes == [("note.model_either", {"chosen": find_model(bigger).name, "others": smaller, "first": smaller})]


@pytest.mark.parametrize("text, model", [("qwen 14b possible? or the 7b one", "qwen3-14b"), ("qwen2.5 14b还是32b", "qwen2.5-14b")])
def test_two_sizes_without_leaving_the_choice_keep_the_first(text, model):
    u = understand(text)
    assert u.updates["model"] == model
    assert not [n for n, _p in u.notes if n == "note.model_either"]
