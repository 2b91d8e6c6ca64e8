"""A variant named relative to the current model (review BS #9): 'what if we use the air version instead' after
GLM-4.5 was "Sorry, I didn't understand that."; 'the coder one', '换成air版', 'a smaller one', '用小一点的那个' are
the family's variant, found from the catalog's ids (knowledge.model_variants), not a phrase per family."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge.model_variants import neighbour_size, variant_named
from tests.conversation import run_states

EN_WORD = ["what if we use the {w} version instead", "the {w} version", "what about the {w} one", "try the {w} variant",
           "ok, and the {w} one?", "use its {w} model instead"]
ZH_WORD = ["换成{w}版", "用{w}版本呢", "那{w}版的呢", "试试{w}那个", "换成{w}的那个"]
VARIANTS = [("glm-4.5", "air", "glm-4.5-air"), ("qwen3-30b-a3b", "coder", "qwen3-coder-30b-a3b"),
            ("llama-4-maverick", "scout", "llama-4-scout"), ("qwen2.5-7b", "vl", "qwen2.5-vl-7b"),
            ("qwen2.5-14b", "coder", "qwen2.5-coder-7b"), ("mistral-7b-v0.3", "nemo", "mistral-nemo-12b"),
            ("deepseek-v3", "lite", "deepseek-v2-lite")]


@pytest.mark.parametrize(("current", "word", "chosen"), VARIANTS)
def test_the_catalog_finds_the_variant(current, word, chosen):
    assert variant_named(current, word) == chosen


@pytest.mark.parametrize(("current", "word"), [("llama-3.1-8b", "air"), ("gemma-3-12b", "coder"), ("phi-4", "scout")])
def test_no_such_variant_is_none(current, word):
    assert variant_named(current, word) is None


@pytest.mark.parametrize(("current", "smaller", "larger"), [
    ("qwen2.5-14b", "qwen2.5-7b", "qwen2.5-32b"), ("llama-3.1-70b", "llama-3.1-8b", "llama-3.1-405b"),
    ("glm-4.5", "glm-4.5-air", None), ("qwen2.5-0.5b", None, "qwen2.5-1.5b")])
def test_the_next_size_of_the_line(current, smaller, larger):
    assert neighbour_size(current, larger=False) == smaller
    assert neighbour_size(current, larger=True) == larger


@pytest.mark.parametrize(("text", "word"), [
    *((t.format(w=w), w) for t, w in itertools.product(EN_WORD + ZH_WORD, ["air", "coder", "scout"]))])
def test_the_reader_hears_the_word(text, word):
    u = understand(text)
    assert u.ask.get("variant") == {"word": word}, (text, u.ask)
    assert "model" not in u.updates


@pytest.mark.parametrize(("text", "size"), [
    ("a smaller one?", "smaller"), ("what about a smaller one", "smaller"), ("try the smaller version", "smaller"),
    ("用小一点的那个", "smaller"), ("换个小一点的模型", "smaller"), ("那用小一点的呢", "smaller"), ("go down a size", "smaller"),
    ("what about a bigger one", "larger"), ("a larger model?", "larger"), ("用大一点的那个", "larger"), ("换个大一点的模型", "larger")])
def test_the_reader_hears_the_direction(text, size):
    assert understand(text).ask.get("variant") == {"size": size}, text


@pytest.mark.parametrize("text", ["上下文小一点的版本", "显存大一点的卡", "the same one", "the other one", "the next one", "the int4 version",
                                  "the distilled one", "what about the 7b one", "what about glm-4.5-air", "the quantized version"])
def test_no_variant_is_heard_where_none_is_said(text):
    assert "variant" not in understand(text).ask, text


CONVERSATIONS = [
    ("serve GLM-4.5 on 2x8 A100 for 20 users", "what if we use the air version instead", "glm-4.5-air", "GLM-4.5-Air"),
    ("部署GLM-4.5，20人并发", "换成air版", "glm-4.5-air", "GLM-4.5-Air"),
    ("serve qwen3 30b a3b for 20 users", "the coder version", "qwen3-coder-30b-a3b", "Qwen3-Coder 30B-A3B"),
    ("serve llama 4 maverick for 20 users", "the scout one", "llama-4-scout", "Llama 4 Scout"),
    ("部署qwen2.5 14b，20人并发", "用小一点的那个", "qwen2.5-7b", "Qwen2.5 7B"),
    ("serve llama 3.1 8b for 20 users", "a bigger one", "llama-3.1-70b", "Llama 3.1 70B"),
]


@pytest.mark.parametrize(("first", "second", "model", "name"), CONVERSATIONS)
def test_the_variant_is_sized_and_said(first, second, model, name):
    states = run_states([first, second])
    reply = states[-1]["messages"][-1].content
    assert states[-1]["profile"]["model"] == model
    assert name in reply
    assert "didn't understand" not in reply and "没看懂" not in reply


@pytest.mark.parametrize(("second", "said"), [("the air version", "no air version of Llama 3.1 8B"),
                                              ("the instruct one", "same size and layout")])
def test_a_variant_not_on_record_or_the_same_is_said(second, said):
    states = run_states(["serve llama 3.1 8b for 20 users", second])
    assert states[-1]["profile"]["model"] == "llama-3.1-8b"
    assert said in states[-1]["messages"][-1].content
