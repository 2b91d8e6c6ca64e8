"""Owned clusters and "do we need more?" answered first (task h-owned): the cards the user owns, read with their
servers ('两台8卡A100服务器', 'two 8×A100 nodes', 'four DGX H100', 'an HGX box with H100s', '拿8张出来' of 64), are the
plan; 'is it enough?' / '够不够' / 'will it handle' and 'do we need to buy more GPUs?' / '要买新卡吗' get a yes/no
verdict on those cards first (payload owned_verdict: enough, changed, more_cards, short), and a question about
buying is never read as a preference to buy. Phrasings are generated: owned-first and task-first, both languages."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.reading.literal import literal_kinds
from tests.conversation import payload, run_conversation

A100, H100, A800, RTX4090 = "a100-80gb-sxm", "h100-sxm", "a800-80gb-sxm", "rtx-4090"

# what the user owns, said as they say it: (text, language, cards, card, cards per server or None)
OWNED = [
    ("我们有两台8卡A100服务器", "zh", 16, A100, 8),
    ("我们有2台8卡A100", "zh", 16, A100, 8),
    ("公司已经有两台8卡的A100", "zh", 16, A100, 8),
    ("我们有一台8卡A800服务器", "zh", 8, A800, None),
    ("我们有两台A100服务器，每台8卡", "zh", 16, A100, 8),
    ("公司有3台8卡H20", "zh", 24, "h20", 8),
    ("我们有一台DGX A100", "zh", 8, A100, None),
    ("我们有两台HGX H100服务器", "zh", 16, H100, 8),
    ("我们有64张A100，拿8张出来", "zh", 8, A100, None),
    ("我们有64张A100，可以用其中8张", "zh", 8, A100, None),
    ("we have two 8×A100 nodes", "en", 16, A100, 8),
    ("we have 2x8 A100", "en", 16, A100, 8),
    ("we have 4×8 H100", "en", 32, H100, 8),
    ("we have a cluster of 4 DGX H100", "en", 32, H100, None),
    ("we have 2 DGX A100s", "en", 16, A100, None),
    ("we have four DGX H100", "en", 32, H100, None),
    ("we have an HGX box with H100s", "en", 8, H100, None),
    ("we have an HGX H100 server", "en", 8, H100, None),
    ("our DGX A100", "en", 8, A100, None),
    ("we have 64 A100s, 8 of them are free for this", "en", 8, A100, None),
    ("we have 64 H100s but can only spare 8", "en", 8, H100, None),
    ("我们有两台8卡A800服务器，拿一台出来", "zh", 8, A800, 8),
    ("we have four 8x H100 servers, one of them is free", "en", 8, H100, 8),
    ("we have two 8×A100 nodes, we can use one of them", "en", 8, A100, 8),
    ("we have 4 DGX H100, 2 of the servers are free", "en", 16, H100, 8),
]

TASKS = {"zh": ["部署Qwen2.5-72B给300人用", "想LoRA微调Qwen2.5-72B"],
         "en": ["serve Qwen2.5-72B to 300 users", "LoRA fine-tune Qwen2.5-72B"]}

BUY_MORE = {"zh": ["要买新卡吗", "要不要再买卡", "需要加卡吗", "还得再买吗", "是否需要采购新服务器", "需不需要再买两台", "要扩容吗"],
            "en": ["do we need to buy more GPUs?", "Do we need to buy more?", "should we buy more cards?",
                   "do we need more gpus?", "do we have to purchase additional GPUs?", "need more cards?",
                   "would we need to get more servers?", "or should we buy more?"]}
ENOUGH = {"zh": ["够不够", "够吗", "够用吗", "能跑吗", "跑得动吗", "够300人用吗"],
          "en": ["is it enough?", "will it handle that?", "can it cope?", "is that enough?", "can our servers cope?",
                 "enough?", "will they handle it?", "do we have enough GPUs?"]}


def _join(lang: str, *parts: str) -> str:
    return ("，" if lang == "zh" else ", ").join(parts)


def _messages(question: dict[str, list[str]]):
    """Owned-first and task-first messages over every owned phrasing, task and a question of the kind, rotated."""
    for i, ((owned, lang, n, card, per), task_i, first) in enumerate(
            itertools.product(OWNED, range(2), ("owned", "task"))):
        task = TASKS[lang][task_i]
        q = question[lang][i % len(question[lang])]
        parts = (owned, task, q) if first == "owned" else (task, owned, q)
        yield pytest.param(_join(lang, *parts), n, card, per, id=f"{lang}-{i}")


@pytest.mark.parametrize(("text", "n", "card", "per"), list(_messages(BUY_MORE)))
def test_a_question_about_buying_more_keeps_the_owned_cards_and_is_no_buy_preference(text, n, card, per):
    u = understand(text)
    assert u.updates.get("owned") == [f"{n}x {card}"], (text, u.updates)
    assert "preference" not in u.updates, (text, u.updates)  # '要买新卡吗' asks; it prefers nothing
    assert "only" not in u.updates
    if per:
        assert u.updates.get("server_gpus") == per
    assert literal_kinds(text)[0] == "more", text


@pytest.mark.parametrize(("text", "n", "card", "per"), list(_messages(ENOUGH)))
def test_is_it_enough_keeps_the_owned_cards_and_asks_a_yes_or_no(text, n, card, per):
    u = understand(text)
    assert u.updates.get("owned") == [f"{n}x {card}"], (text, u.updates)
    assert "preference" not in u.updates
    assert "fits" in literal_kinds(text), text


@pytest.mark.parametrize("text", [*BUY_MORE["zh"], *BUY_MORE["en"]])
def test_a_buying_question_alone_is_no_preference(text):
    assert "preference" not in understand(text).updates


@pytest.mark.parametrize(("text", "pref"), [("我们想买卡，部署qwen2.5-72b", "buy"), ("we want to buy 8 h100s", "buy"),
                                            ("不想租，要买卡", "buy")])
def test_wanting_to_buy_is_still_a_preference(text, pref):
    assert understand(text).updates.get("preference") == pref


@pytest.mark.parametrize("text", ["we have 16 H100s, two of them are broken", "我们有16张H100，其中两张坏了"])
def test_cards_said_out_of_use_do_not_become_the_count(text):
    assert understand(text).updates.get("owned") == ["16x h100-sxm"]


@pytest.mark.parametrize(("text", "n"), [("我们有64张卡，拿8张出来跑Qwen2.5-72B", 8), ("我们有64张卡，能分出16张来", 16),
                                       ("we have 64 gpus, 8 of them are free", 8), ("we have 32 gpus", 32),
                                       ("we have 32 gpus, one of them is free", 1)])
def test_part_of_untyped_cards_set_aside_is_the_count_kept(text, n):
    assert understand(text).owned_untyped == n


# --- the conversation: the verdict on the cards owned, first -----------------------------------------------

VERDICTS = [
    # message, language, verdict code, owned cards, card, first-line start
    ("我们有两台8卡A100服务器，想部署Qwen2.5-72B给300人用，要买新卡吗", "zh", "enough", 16, A100, "**不用买**：你的 16 × "),
    ("要给300人部署Qwen2.5-72B，我们手上有两台8卡A100，要不要再买卡", "zh", "enough", 16, A100, "**不用买**"),
    ("Serve Qwen2.5-72B to 300 users; we have two 8×A100 nodes. Do we need to buy more GPUs?", "en", "enough", 16, A100,
     "**No need to buy**: your 16 × "),
    ("we have four DGX H100, serve DeepSeek-V3 to 1000 users, do we need to buy more GPUs?", "en", "enough", 32, H100,
     "**No need to buy**"),
    ("我们有两台8卡4090，想LoRA微调Qwen2.5-72B，要不要买新卡", "zh", "enough", 16, RTX4090, "**不用买**"),
    ("We own 8 H100s. Serving Llama 3.1 405B to 200 users, do we need more GPUs?", "en", "more_cards", 8, H100,
     "**Yes, 8 more**"),
    ("我们有8张H100，给200人部署Llama 3.1 405B，需要加卡吗", "zh", "more_cards", 8, H100, "**要加 8 张**"),
    ("我们有一台8卡A800服务器，要给1000人部署DeepSeek-V3，需要加卡吗", "zh", "short", 8, A800, "**要**：你的 8 × "),
    ("We have two 8×A100 nodes and want to serve Llama 3.1 70B to 300 people. Is it enough?", "en", "enough", 16, A100,
     "**Yes**: it fits on 16 × "),
    ("给300人用Qwen2.5-72B，我们有两台8卡A100，够吗", "zh", "enough", 16, A100, "**能**：16 × "),
    ("我们有64张A100，拿8张出来跑Qwen2.5-72B，给200人用，够吗", "zh", "enough", 8, A100, "**能**：8 × "),
    ("We have an HGX box with H100s. Will it handle Llama 3.1 70B for 500 users?", "en", "more_cards", 8, H100, "**No**"),
]


@pytest.mark.parametrize(("text", "lang", "code", "n", "card", "start"), VERDICTS)
def test_the_owned_cards_verdict_comes_first(text, lang, code, n, card, start):
    reply, = run_conversation([text])
    data = payload(reply)
    verdict = data["owned_verdict"]
    assert verdict["code"] == code and verdict["gpu"] == card, verdict
    assert data["profile"]["owned"] == [f"{n}x {card}"]
    assert data["profile"].get("preference") != "buy"  # a question about buying is no wish to buy
    assert reply.content.startswith(start), reply.content[:300]
    rec = data["results"]["recommend"]
    if code == "enough":  # the plan is the cards owned, all of them
        assert rec["best"]["owned"] and rec["best"]["gpus"] == n and not rec["best"]["owned_gpus"]
    if code == "more_cards":  # more of the same card: how many said, the change that avoids buying too
        assert verdict["added"] > 0 and rec["best"]["gpu"] == card
        assert "instead" in verdict and (("Without buying" in reply.content) if lang == "en" else "不想加卡的话" in reply.content)
    first = reply.content.split("\n", 1)[0]
    if code == "enough" and "300" in text and "微调" not in text:
        assert "300" in first  # the people asked about are said served


FOLLOW_UPS = [
    # first message, the question after it, verdict code, first-line start
    ("我们有两台8卡A100服务器，想部署Qwen2.5-72B给300人用", "够不够", "enough", "**能**：16 × "),
    ("我们有两台8卡A100服务器，想部署Qwen2.5-72B给300人用", "要买新卡吗", "enough", "**不用买**"),
    ("we have two 8xA100 nodes, serving Qwen2.5-72B to 300 users", "is it enough?", "enough", "**Yes**: it fits on 16 × "),
    ("we have two 8xA100 nodes, serving Qwen2.5-72B to 300 users", "do we need to buy more GPUs?", "enough",
     "**No need to buy**"),
    ("我们有两台8卡A100服务器，想部署Qwen2.5-72B给300人用", "如果是1000人呢，需要加卡吗", None, "**要"),
    ("we have two 8xA100 nodes, serving Qwen2.5-72B to 300 users", "what about 1000 users, is it still enough?", None,
     "**No**"),
]


@pytest.mark.parametrize(("first", "second", "code", "start"), FOLLOW_UPS)
def test_the_question_asked_after_a_plan_on_your_cards_is_answered_first(first, second, code, start):
    _a, b = run_conversation([first, second])
    assert b.content.startswith(start), b.content[:300]
    if code:
        assert payload(b)["owned_verdict"]["code"] == code
    assert payload(b)["profile"].get("preference") != "buy"
