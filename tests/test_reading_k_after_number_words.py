"""A unit letter after a number said in words is that number's scale (review CD #12: '上下文六十四k' was read as a
64-token context and refused): Chinese numerals ('六十四k', '三十二K', '八k'), English number words ('sixty-four k')
and digits with a space ('64 K') before 'k' are thousands of tokens; '六十四千' is 64,000, not 60 + 4,000."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.reading.text import clean
from tests.conversation import run_conversation

ZH_SAID = [("六十四k", 65536), ("六十四K", 65536), ("三十二k", 32768), ("一百二十八K", 131072), ("八k", 8192),
           ("十六k", 16384), ("64 k", 65536), ("六十四千", 64000)]
ZH_FRAMES = ["部署qwen2.5-32b，上下文{c}，五十个人同时用", "上下文{c}，五十个人同时用qwen2.5-32b，要几张卡",
             "qwen2.5-32b 给五十个人同时用，上下文开到{c}", "部署qwen2.5-32b，{c}上下文，并发50"]
EN_SAID = [("sixty-four k", 65536), ("thirty-two k", 32768), ("eight k", 8192), ("64 K", 65536), ("128 k", 131072)]
EN_FRAMES = ["serve qwen2.5-32b, context {c}, 50 users at once", "serve qwen2.5-32b to 50 users at once with {c} context",
             "qwen2.5-32b for 50 concurrent users, {c} context window"]


@pytest.mark.parametrize(("frame", "said"), [*itertools.product(ZH_FRAMES, ZH_SAID), *itertools.product(EN_FRAMES, EN_SAID)])
def test_number_words_before_k_are_thousands_of_tokens(frame: str, said: tuple[str, int]) -> None:
    text, tokens = said
    u = understand(frame.format(c=text), None)
    assert u.updates.get("context") == tokens, u.updates
    assert not any(code == "context_short" for code, _p in u.problems), u.problems
    assert u.updates.get("users") == 50, u.updates


@pytest.mark.parametrize(("said", "cleaned"), [("六十四k", "64k"), ("七十b的模型", "70b 的 model"), ("a 70 b model", "a 70b model"),
                                               ("三k字", "3k 字"), ("六十四千", "64000"), ("一百二十八千", "128000"),
                                               ("两千三百", "2300"), ("一千零五十", "1050"), ("八b200", "8 b200")])
def test_the_letter_glues_to_its_number_and_a_larger_unit_multiplies(said: str, cleaned: str) -> None:
    assert clean(said) == cleaned


def test_a_name_glued_to_its_digits_keeps_its_letters() -> None:
    assert "a100" in clean("8 a100 k") and "8 b200s" in clean("8 b200s")


def test_conversation_64k_in_numerals_sizes_the_64k_context() -> None:
    reply = run_conversation(["部署qwen2.5-32b，上下文六十四k，五十个人同时用，全天候"])[-1].content
    assert "65,536 token" in reply
    assert "太短" not in reply
