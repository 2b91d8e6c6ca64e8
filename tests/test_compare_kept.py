"""A comparison of cards kept across a correction (assistant/compare_kept.py, review S27 swapmodel): 'MI300X vs H200
for serving gpt-oss-120b, which is better and why', then 'sorry i meant gpt-oss-20b, on a single card'. The second
turn changes the job (the model, the context, the users, the precision, the count of cards), not the question: both
cards are weighed again, each in the options table and side by side, with a verdict; a count said with no card is
that many of each card compared, never the card the first verdict picked held alone."""

from __future__ import annotations

import re

import pytest

from gpu_advisor.assistant.compare_kept import compared_before, keep_compared
from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import find_gpu
from tests.conversation import payload, run_states

CJK = re.compile(r"[\u3400-\u9fff]")
VERDICT = {"en": "**Verdict** (your job)", "zh": "**结论**（你的任务）"}

# (first turn, the cards compared, the model said after): each pair asked in the user's own words and order
FIRST = {
    "en": [
        ("MI300X vs H200 for serving gpt-oss-120b, which is better and why", ("mi300x", "h200"), "gpt-oss-20b"),
        ("H100 or A100 for serving llama 3.1 70b, which one is better?", ("h100-sxm", "a100-80gb-sxm"), "llama 3.1 8b"),
        ("l40s vs a100 to serve qwen2.5 14b, which should i rent", ("l40s", "a100-80gb-sxm"), "qwen2.5 7b"),
    ],
    "zh": [
        ("H100 和 A100 哪个跑 qwen2.5 72b 推理更好", ("h100-sxm", "a100-80gb-sxm"), "qwen2.5 32b"),
        ("4090 和 L40S 哪个更适合部署 qwen2.5 7b", ("rtx-4090", "l40s"), "qwen2.5 14b"),
        ("MI300X 和 H200 部署 gpt-oss-120b 选哪个", ("mi300x", "h200"), "gpt-oss-20b"),
    ],
}
# The second turn: a correction of the job, with (True) or without (False) a count of one card said with no card
FOLLOW = {
    "en": [
        ("sorry i meant {model}, on a single card", True),
        ("sorry i meant {model}", False),
        ("actually {model}, each on one card", True),
        ("oh wait, {model}. one gpu each", True),
        ("make it 32k context", False),
        ("actually 50 users", False),
        ("on a single card", True),
    ],
    "zh": [
        ("不好意思是 {model}，单卡", True),
        ("换成 {model}", False),
        ("改成 {model}，单卡", True),
        ("用单卡跑，换成 {model}", True),
        ("改成 32k 上下文", False),
        ("改成单卡", True),
        ("各一张卡", True),
    ],
}
CASES = [pytest.param(lang, first, cards, model, follow, one, id=f"{lang}-{i}-{j}")
         for lang in FIRST for i, (first, cards, model) in enumerate(FIRST[lang])
         for j, (follow, one) in enumerate(FOLLOW[lang]) if (i + j) % 2 == 0 or j < 2]


def _options_rows(text: str) -> list[str]:
    """The rows of the plan's options table (the one headed 'option' / '方案')."""
    rows, inside = [], False
    for line in text.splitlines():
        if line.startswith(("| option |", "| 方案 |")):
            inside = True
        elif inside and line.startswith("|"):
            rows.append(line)
        elif inside:
            break
    return rows


@pytest.mark.parametrize(("lang", "first", "cards", "model", "follow", "one"), CASES)
def test_a_correction_keeps_the_comparison(lang, first, cards, model, follow, one):
    states = run_states([first, follow.format(model=model)])
    reply = states[-1]["messages"][-1]
    text = reply.content
    names = [find_gpu(c).name for c in cards]
    rows = [r for r in _options_rows(text) if "|---" not in r]
    for name in names:  # each card compared sized again in the plan's table...
        assert any(name in r for r in rows), text
        if one:  # ... and one of each, as said, never the pick alone
            assert any(r.startswith(f"| 1 × {name}") for r in rows), text
    side = f"| | {names[0]} | {names[1]} |"
    assert side in text or f"| | {names[1]} | {names[0]} |" in text, text  # side by side again
    assert text.count(VERDICT[lang]) == 1, text  # and the verdict on the job as it is now
    assert text.index(VERDICT[lang]) > text.index(side if side in text else f"| | {names[1]} |")
    also = payload(reply).get("also") or []
    assert [sorted(c["id"] for c in a["cards"]) for a in also if a["code"] == "compare_cards"] == [sorted(cards)]
    profile = states[-1]["profile"]
    assert not profile.get("only"), profile  # no card locked in: 'only 1 × <the pick>' was the fault
    if model.replace(" ", "") in follow.replace(" ", ""):
        assert profile["model"] != states[0]["profile"]["model"]
    if lang == "en":
        assert not CJK.search(text)


@pytest.mark.parametrize(("first", "follow", "kept"), [
    ("MI300X vs H200 for serving gpt-oss-120b, which is better and why", "show the math", False),
    ("MI300X vs H200 for serving gpt-oss-120b, which is better and why", "what about the L40S?", False),
    ("H100 和 A100 哪个跑 qwen2.5 72b 推理更好", "租还是买？", False),
    ("serve qwen2.5 14b to 20 users", "sorry i meant qwen2.5 7b, on a single card", False),
    ("serve qwen2.5 14b to 20 users", "make it 32k context", False),
    ("部署 qwen2.5 14b，20 个人用", "换成 qwen2.5 7b，单卡", False),
])
def test_no_comparison_is_added_where_none_was_or_another_question_is_asked(first, follow, kept):
    reply = run_states([first, follow])[-1]["messages"][-1]
    also = [a for a in payload(reply).get("also") or [] if a.get("code") == "compare_cards"]
    assert bool(also) is kept, reply.content
    assert VERDICT["en"] not in reply.content and VERDICT["zh"] not in reply.content


@pytest.mark.parametrize("text", [
    "sorry i meant gpt-oss-20b, on a single card", "each on one card", "one card each", "gpt-oss-20b, one gpu each",
    "a single gpu apiece", "one of each", "不好意思是 qwen2.5 32b，单卡", "换成 qwen2.5 32b，单卡", "改成单卡",
    "就用单卡吧", "各一张卡", "每种各一张", "用单卡跑，换成 llama 3.1 8b", "改用单卡部署 qwen2.5 14b",
])
def test_one_card_said_with_no_card_is_a_count_of_one(text):
    u = understand(text, None)
    assert u.card_count == 1 and not u.compare_gpus and not u.whatif_gpus, vars(u)


@pytest.mark.parametrize("text", ["单卡4090能跑多大模型", "qwen2.5 7b 单卡部署要多少显存", "one card is our budget for the 4090"])
def test_one_card_words_beside_a_card_or_a_question_are_no_bare_count(text):
    u = understand(text, None)
    assert not (u.card_count == 1 and u.ask.get("one_card") and not u.cards and not u.updates.get("only")), vars(u)


def _state(turn_one: str, also: list[dict], results: dict | None = None) -> dict:
    from langchain_core.messages import AIMessage, HumanMessage

    return {"messages": [HumanMessage(turn_one), AIMessage("…", additional_kwargs={"gpu_advisor": {"also": also}}),
                         HumanMessage("next")], "results": results or {}}


PAIR = [{"code": "compare_cards", "cards": [{"id": "mi300x"}, {"id": "h200"}]}]


@pytest.mark.parametrize(("also", "expected"), [
    (PAIR, ["mi300x", "h200"]),
    ([{"code": "engine_choice"}, *PAIR], ["mi300x", "h200"]),
    ([{"code": "compare_cards", "cards": [{"id": "h200"}]}], []),
    ([{"code": "rent_buy"}], []),
    ([], []),
])
def test_the_comparison_is_the_last_replys(also, expected):
    assert compared_before(_state("x", also)["messages"]) == expected


@pytest.mark.parametrize(("text", "kept", "counts"), [
    ("sorry i meant gpt-oss-20b", True, {}),
    ("sorry i meant gpt-oss-20b, on a single card", True, {"mi300x": 1, "h200": 1}),
    ("what about in fp8", True, {}),
    ("什么是 KV cache", False, None),
    ("what about the L40S?", False, None),
    ("show the math", False, None),
    ("compare b200 and h100", False, None),
    ("we have 2 h200s", False, None),
])
def test_keep_compared_only_on_a_correction(text, kept, counts):
    u = understand(text, None)
    updates = dict(u.updates)
    assert keep_compared(u, _state("MI300X vs H200", PAIR, {"counts": {}}), updates, fresh=False) is kept
    if kept:
        assert u.compare_gpus == ["mi300x", "h200"] and u.also == "compare_cards" and u.counts == counts
        assert u.card_count is None and "only" not in updates


def test_a_new_job_drops_the_comparison():
    u = understand("sorry i meant gpt-oss-20b", None)
    assert not keep_compared(u, _state("MI300X vs H200", PAIR), dict(u.updates), fresh=True)
    assert not u.compare_gpus and u.also is None


def test_counts_said_with_the_pair_before_are_kept():
    u = understand("make it 32k context", None)
    state = _state("2 3090s vs one 4090", [{"code": "compare_cards", "cards": [{"id": "rtx-3090"}, {"id": "rtx-4090"}]}],
                   {"counts": {"rtx-3090": 2, "rtx-4090": 1}})
    assert keep_compared(u, state, dict(u.updates), fresh=False)
    assert u.counts == {"rtx-3090": 2, "rtx-4090": 1}


MODELS_VERDICT = {"en": "**Verdict** (the models)", "zh": "**结论**"}


@pytest.mark.parametrize(("first", "follow", "lang", "kept"), [
    ("qwen2.5 72b vs llama 3.1 70b for serving 20 users, which is cheaper to host?", "make it 32k context", "en", True),
    ("qwen2.5 72b vs llama 3.1 70b for serving 20 users, which is cheaper to host?", "actually 50 users", "en", True),
    ("qwen2.5 72b vs llama 3.1 70b for serving 20 users, which is cheaper to host?", "sorry i meant qwen2.5 32b", "en",
     False),  # a model said in place of the pair is another question
])
def test_a_correction_keeps_the_models_weighed(first, follow, lang, kept):
    states = run_states([first, follow])
    reply = states[-1]["messages"][-1]
    choice = payload(reply).get("model_choice") or {}
    assert bool(choice) is kept, reply.content
    if kept:
        assert sorted(r["model"] for r in choice["rows"]) == ["llama-3.1-70b", "qwen2.5-72b"]
        assert reply.content.count(MODELS_VERDICT[lang]) == 1
        assert "Qwen2.5 72B" in reply.content and "Llama 3.1 70B" in reply.content
