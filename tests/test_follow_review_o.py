"""Review round O, class 1: short follow-ups that change the plan are understood, and keep what was said.

Each class is generated over phrasings and both languages, and asserts the plan's model, cards and slots after
the follow-up, and that the reply is not the "didn't understand" text:
1. 'the distill ones' / '蒸馏版' after a model: its distills, the largest that runs on the user's card;
2. a bare count of the plan's card ('那换成 4 张呢', 'what about 4 of them'): re-planned on it, yes or no first;
3. 'what about on a single card?' with several kinds allowed: one card of each, yes or no first;
4. a size said as the fallback for the model ('8b if the 70b is too expensive'): it replaces the model;
5. a new count of training examples keeps the length said before, and the body agrees with the headline.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states

NOT_UNDERSTOOD = {say("en", "reply.not_understood"), say("zh", "reply.not_understood")}


def _run(turns: list[str]) -> tuple[dict[str, Any], str]:
    state = run_states(turns)[-1]
    reply = str(state["messages"][-1].content)
    assert not any(reply.startswith(n) for n in NOT_UNDERSTOOD), reply[:300]
    return state, reply


def _best(state: dict[str, Any]) -> tuple[int, str]:
    best = state["results"]["recommend"]["best"]
    return int(best["gpus"]), str(best["gpu"])


# ---------------------------------------------------------------- 1. the distill ones

DISTILL_FIRST = {
    "en": ["student here, 3060 12gb. can i run deepseek r1 on it lol", "i have a 3060 12gb, can it run deepseek r1?"],
    "zh": ["我是学生，我有一张 3060 12G，能跑 DeepSeek R1 吗"],
}
DISTILL_FOLLOW = {
    "en": ["ok the distill ones then. which one fits and how fast", "what about the distilled versions?",
           "the distill models then?", "distilled ones? how fast"],
    "zh": ["那蒸馏版呢，哪个放得下，速度多少", "蒸馏版的呢？", "那就用蒸馏的吧，哪个能跑"],
}


@pytest.mark.parametrize(("first", "follow"), [(f, g) for lang in ("en", "zh") for f in DISTILL_FIRST[lang]
                                               for g in DISTILL_FOLLOW[lang]])
def test_distill_ones_size_the_largest_distill_that_runs_on_the_card(first: str, follow: str) -> None:
    state, reply = _run([first, follow])
    # h-fixa sizes a reasoning model at a 32,768-token context (its thinking): the 14B in Q4_K_M no longer fits 12 GB
    assert state["profile"]["model"] == "deepseek-r1-distill-llama-8b"
    assert "32,768" in reply  # the context that rules the 14B out, said as the assumption
    assert state["profile"]["owned"] == ["1x rtx-3060-12gb"]
    assert _best(state) == (1, "rtx-3060-12gb")
    assert "DeepSeek-R1-Distill-Llama-70B" in reply and "DeepSeek-R1-Distill-Qwen-32B" in reply  # the list, said
    assert re.search(r"\d+ (?:tokens/s|token/s)", reply)  # how fast


def test_distill_word_with_no_model_is_read_as_asked_and_a_named_distill_is_a_model() -> None:
    for text in ("ok the distill ones then", "那蒸馏版呢", "what about the distilled versions?"):
        u = understand(text)
        assert u.ask.get("distill") and "model" not in u.updates, text
    u = understand("what about deepseek r1 distill qwen 32b?")
    assert u.updates.get("model") == "deepseek-r1-distill-qwen-32b" and not u.ask.get("distill")


# ---------------------------------------------------------------- 2. a bare count of the plan's card

COUNT_FIRST = {
    "en": ["serve llama 3.1 70b on two 4090s, will that work?", "serve llama 3.1 70b for 10 users on 2 rtx 4090s"],
    "zh": ["准备部署 Llama 3.1 70B，想用两张 4090，行不行", "部署 Llama 3.1 70B，用两张 4090 够不够"],
}
COUNT_FOLLOW = {
    "en": ["what about {n} of them", "{n} cards then?", "what about {n} cards?", "ok make it {n} gpus",
           "switch to {n} cards"],
    "zh": ["那换成 {n} 张呢", "{n}张呢", "加到{n}张", "换成{n}张卡的话"],
}


@pytest.mark.parametrize("n", [4, 8])
@pytest.mark.parametrize(("first", "follow"), [(f, g) for lang in ("en", "zh") for f in COUNT_FIRST[lang]
                                               for g in COUNT_FOLLOW[lang]])
def test_bare_count_replans_on_that_count_of_the_same_card(first: str, follow: str, n: int) -> None:
    state, reply = _run([first, follow.format(n=n)])
    assert state["profile"]["model"] == "llama-3.1-70b"
    assert state["profile"]["only"] == [f"{n}x rtx-4090"]
    assert _best(state) == (n, "rtx-4090")
    assert reply.startswith(("**Yes**", "**No**", "**能**", "**不能**")), reply[:200]  # yes or no first


def test_fit_question_with_model_and_card_is_a_fit_check_on_those_cards() -> None:
    for text in ("准备部署 Llama 3.1 70B，想用两张 4090，行不行", "部署 Llama 3.1 70B，用两张 4090 够不够",
                 "serve llama 3.1 70b on two 4090s, will that work?"):
        u = understand(text)
        assert u.updates.get("only") == ["2x rtx-4090"] and "fit_check" in u.intents, text
        assert "why_not" not in u.intents
    assert "why_not" in understand("那换H100行不行").intents  # no model named: a card put beside the plan


@pytest.mark.parametrize("text", ["what about 4 of them", "what about 4 of those", "那换成 4 张呢", "switch to 4 gpus"])
def test_bare_count_at_the_users_question_is_cards_not_users(text: str) -> None:
    u = understand(text, "users")
    assert u.card_count == 4 and "users" not in u.updates


# ---------------------------------------------------------------- 3. one card, with several kinds allowed

SINGLE = [
    ("en", ["serve mistral small 24b for an internal chatbot, ~200 users, p95 ttft under 1s. what gpus",
            "how much would that cost per month on aws vs runpod"],
     ["ok what about on a single card?", "would a single card do?", "what about one gpu?"]),
    ("en", ["serve qwen2.5 32b for 50 users"], ["ok what about on a single card?", "would one card be enough?"]),
    ("zh", ["部署 Mistral Small 24B，内部 200 人用，首 token 1 秒以内"], ["一张卡够吗？", "单卡行不行？"]),
]


@pytest.mark.parametrize(("lang", "first", "follow"), [(lang, f, g) for lang, f, gs in SINGLE for g in gs])
def test_single_card_before_a_plan_is_answered_yes_or_no(lang: str, first: list[str], follow: str) -> None:
    state, reply = _run([*first, follow])
    only = state["profile"]["only"]
    assert only and all(c.startswith("1x ") for c in only)
    assert not any(c.startswith("1x apple-") for c in only)  # cards one can rent, no Mac
    assert reply.startswith(("**Yes**", "**No**") if lang == "en" else ("**能**", "**不能**")), reply[:200]
    if len(only) > 2:  # before any plan: one card of each kind allowed (with a target said, the plan came first
        # and the question is about one of its cards)
        said = (say(lang, "cards.one_of_clouds", names="AWS or RunPod") if "aws" in first[-1]
                else say(lang, "cards.one_of_any"))
        assert said in reply  # the cards allowed said in a few words, never thirty card names


def test_single_card_for_the_people_said_sizes_them_not_one_person() -> None:
    state, _reply = _run(SINGLE[0][1] + ["ok what about on a single card?"])
    assert state["profile"]["population"] == 200
    assert state["results"]["recommend"]["workload"]["users"] > 1


# ---------------------------------------------------------------- 4. a size said as the fallback for the model

REPLACE = [
    ("en", "need to serve llama 3.3 70b for a chat product, 50 concurrent users, budget 8k usd/month. h100 or a100?",
     ["we could also do 8b if the 70b is too expensive, what would that cost",
      "if the 70b is too pricey we can go with 8b", "8b is fine too if 70b costs too much"]),
    ("zh", "部署 Llama 3.3 70B 做聊天产品，50 个并发用户，预算每月 8000 美元",
     ["如果70b太贵，也可以用8b，那要多少钱", "70b 太贵的话 8b 也行，多少钱", "要是 70b 成本太高，8b 也可以"]),
]


@pytest.mark.parametrize(("lang", "first", "follow"), [(lang, f, g) for lang, f, gs in REPLACE for g in gs])
def test_fallback_size_replaces_the_model_not_a_second_one(lang: str, first: str, follow: str) -> None:
    state, reply = _run([first, follow])
    assert state["profile"]["model"] == "llama-3.1-8b"
    assert not state.get("also")  # one model served, not two
    assert state["profile"]["users"] == 50 and state["profile"]["budget_usd_per_month"] == 8000
    assert state["results"]["recommend"]["workload"]["model"] == "llama-3.1-8b"
    assert say(lang, "reply.not_understood") not in reply


@pytest.mark.parametrize("text", ["we could also do 8b if the 70b is too expensive", "如果70b太贵，也可以用8b",
                                  "70b 太贵的话 8b 也行", "if the 70b is too pricey we can go with 8b"])
def test_model_given_up_is_not_read(text: str) -> None:
    u = understand(text)
    assert u.updates.get("model") == "8B" and u.second is None and u.ask.get("replaces_model")


# ---------------------------------------------------------------- 5. new example count keeps the length

SAMPLES = [
    ("en", "need to lora fine tune qwen2.5-14b, 500k samples avg 1.5k tokens, 1 epoch, must finish in 48h. what setup",
     ["actually we changed our mind, dataset is only 50k samples now. still need multiple gpus?",
      "only 50k examples now", "make it 50k samples"]),
    ("zh", "用 LoRA 微调 Qwen2.5-14B，50 万条样本，平均每条 1500 token，1 个 epoch，48 小时内完成",
     ["现在只有 5 万条样本了，还需要多卡吗？", "数据改成5万条"]),
]


@pytest.mark.parametrize(("lang", "first", "follow"), [(lang, f, g) for lang, f, gs in SAMPLES for g in gs])
def test_new_example_count_keeps_their_length_and_the_rest(lang: str, first: str, follow: str) -> None:
    state, reply = _run([first, follow])
    p = state["profile"]
    assert p["train_examples"] == 50_000 and p["train_tokens"] == 75_000_000
    assert p["epochs"] == 1 and p["deadline_hours"] == 48 and p["model"] == "qwen2.5-14b"
    assert "1,000 token" not in reply  # no typical length assumed over the one said
    _headline_agrees(reply)


def test_moved_headline_says_the_old_cards_still_fit_but_the_plan_moved() -> None:
    _state, reply = _run([SAMPLES[0][1], "actually 50k samples of 1k tokens each now. still need multiple gpus?"])
    assert "Still fits on the same" not in reply or _headline_agrees(reply)
    _headline_agrees(reply)


def _headline_agrees(reply: str) -> bool:
    """'Still fits on the same X' only under a headline on X; another headline says the plan moved."""
    head = re.search(r"^## \S+ (\d+ × [^\n]+?) (?:for|用于|，)", reply, re.M)
    same = re.search(r"\*\*Still fits on the same (.+?)\*\*|\*\*同样的 (.+?) 仍然够用\*\*", reply)
    if head and same and "but the plan is now" not in reply and "但改动后" not in reply:
        assert (same.group(1) or same.group(2)) == head.group(1), (head.group(1), same.group(0))
    return True
