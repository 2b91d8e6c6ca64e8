"""A direct follow-up question gets a direct answer (assistant/direct.py): 'would a single h100 do it', 'why not a
couple of h100s', '2张H100够吗', '换成4张A100呢' after a plan open with the verdict for exactly that setup (card and
count), sized at the plan's load by the tools; a question that moved nothing gets no plan reprinted.

Generated over first turn x follow-up shape x card x count x language; each case asserts the verdict code and the
setup sized in the answer's data, that the verdict agrees with the tools' own row for that setup, and that the
first line says that verdict in the user's language."""

from __future__ import annotations

import functools
import itertools

import pytest
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from gpu_advisor.assistant import build_graph
from tests.conversation import run_conversation, unexplained_numbers

FIRST = {
    "moe_e2e": ("en", "qwen3-30b-a3b, p95 <2s full response ~200 tok, 50 concurrent"),
    "buy_itl": ("en", "self host gpt-oss-120b ~300 employees, p99 ITL <50ms, only buy"),
    "zh_serve": ("zh", "部署Qwen2.5-32B给客服用，同时50人在用，全天候，租卡"),
    "zh_train": ("zh", "租卡用LoRA微调Qwen2.5-7B，数据2000万token"),
}

# Follow-up shapes by language: {n} a count in digits, {one} the phrase for one card, {card} as typed.
SHAPES = {
    "en": ["would {n} x {card} do it?", "is {n} {card} enough?", "why not {n}x {card}?",
           "would {n} {card}s do the job", "ok but why not just {n} x {card}", "what about just {n} {card}?"],
    "zh": ["{n}张{card}够吗", "为什么不用{n}张{card}", "那如果用{n}张{card}呢", "{n}张{card}行不行", "换成{n}张{card}呢"],
}
CARDS = {"h100": "h100-sxm", "a100": "a100-80gb-sxm", "l40s": "l40s"}
COUNTS = (1, 2, 4)

VERDICT = {"en": ("**Yes**", "**No**", "**It would work**", "**It falls short**"),
           "zh": ("**够**", "**不够**", "**能**", "**不能**", "**可以用**", "**不行**")}
YES = {"**Yes**", "**够**", "**能**", "**It would work**", "**可以用**"}


def _cases() -> list[tuple[str, str, str, int]]:
    """(first turn, shape, card typed, count): every combination of shape, card and count for each first turn,
    thinned by a fixed sum so each shape meets each card and count somewhere."""
    out = []
    for first, (lang, _text) in FIRST.items():
        for i, (shape, card, n) in enumerate(itertools.product(SHAPES[lang], CARDS, COUNTS)):
            if (i + len(first)) % 3 == 0:
                out.append((first, shape, card, n))
    return out


@functools.cache
def _base(first: str):
    """The graph and the checkpoint after the first turn: each follow-up forks from it."""
    app = build_graph().compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": first}}
    state = app.invoke({"messages": [HumanMessage(FIRST[first][1])]}, config)
    inputs = state["messages"][-1].additional_kwargs["gpu_advisor"]["results"]["inputs"]
    return app, app.get_state(config).config, inputs


def _follow(first: str, text: str):
    app, config, _inputs = _base(first)
    state = app.invoke({"messages": [HumanMessage(text)]}, config)
    return state["messages"][-1]


@pytest.mark.parametrize(("first", "shape", "card", "n"), _cases())
def test_the_setup_asked_is_answered_first(first: str, shape: str, card: str, n: int):
    lang = FIRST[first][0]
    text = shape.format(n=n, card=card)
    reply = _follow(first, text)
    payload = reply.additional_kwargs["gpu_advisor"]
    direct = payload.get("direct")
    assert direct, f"no direct answer to {text!r}: {reply.content[:300]}"
    assert (direct["gpu"], direct["gpus"]) == (CARDS[card], n), text
    assert direct["code"] in ("meets", "short")
    # the verdict is the tools' own: the row of that setup in the results meets every requirement, or not
    rows = [payload["results"]["recommend"]["best"], *payload["results"]["options"]]
    row = next(r for r in rows if r and (r["gpu"], r["gpus"]) == (CARDS[card], n) and not r.get("owned"))
    assert row["ok"] == (direct["code"] == "meets"), (text, row["meets"], row["ok"])
    first_line = reply.content.split("\n", 1)[0]
    said = next(v for v in sorted(VERDICT[lang], key=len, reverse=True) if first_line.startswith(v))
    assert (said in YES) == (direct["code"] == "meets"), first_line
    # the fewest of that card that do it: never the count asked when that one falls short
    if direct["code"] == "short" and direct.get("fewest"):
        assert direct["fewest"] != n
    # every number said comes from a tool result kept in the answer's data
    assert unexplained_numbers(reply.content.split("\n\n", 1)[0], payload["results"]) == [], reply.content[:600]
    # nothing in the plan moved: the plan is named in one line, not reprinted with its table
    if payload["results"]["inputs"] == _base(first)[2]:
        assert "|---|" not in reply.content, reply.content[:600]


def test_a_setup_that_falls_short_says_what_it_misses_and_what_one_card_carries():
    reply = _follow("moe_e2e", "would a single h100 do it")
    direct = reply.additional_kwargs["gpu_advisor"]["direct"]
    assert (direct["gpu"], direct["gpus"], direct["code"]) == ("h100-sxm", 1, "short")
    assert direct["missed"] == "e2e"
    assert direct["one_card_users"] < 50  # one H100 carries fewer than the 50 at once within the 2 s target
    assert reply.content.startswith("**No**")
    assert f"{direct['one_card_users']:,}" in reply.content


@pytest.mark.parametrize(("lang", "turns"), [
    ("zh", ["部署Qwen2.5-72B，同时100人，全天候，租卡", "一张L40S够吗"]),
    ("zh", ["部署Qwen2.5-72B，同时100人，全天候，租卡", "为什么不用1张L40S"]),
    ("en", ["serve qwen2.5 72b to 100 people at once, 24/7, rent", "would a single l40s do it?"]),
    ("en", ["serve qwen2.5 72b to 100 people at once, 24/7, rent", "why not just one l40s"]),
])
def test_one_card_that_cannot_hold_it_says_no_and_the_fewest(lang: str, turns: list[str]):
    reply = run_conversation(turns)[-1]
    direct = reply.additional_kwargs["gpu_advisor"]["direct"]
    assert (direct["gpu"], direct["gpus"], direct["code"], direct["missed"]) == ("l40s", 1, "short", "memory")
    assert direct["fewest"] and direct["fewest"] > 1
    assert direct["one_card_users"] < 100  # one card (in whatever format holds anyone) carries fewer than the 100
    why = "why not" in turns[1] or "为什么不" in turns[1]  # asked as 'why not …': it falls short, not a bare no
    assert reply.content.startswith({("en", False): "**No**", ("en", True): "**It falls short**",
                                     ("zh", False): "**不够**", ("zh", True): "**不行**"}[lang, why])
    assert f"{direct['fewest']} × NVIDIA L40S" in reply.content


def test_how_much_in_total_and_why_not_a_couple_of_h100s():
    reply = _follow("buy_itl", "how much to buy in total? why not a couple of h100s, 16 cards sounds like a lot")
    payload = reply.additional_kwargs["gpu_advisor"]
    direct = payload["direct"]
    assert (direct["gpu"], direct["gpus"]) == ("h100-sxm", 2)
    best = payload["results"]["recommend"]["best"]
    assert direct["plan_purchase_usd"] == best["purchase_usd"]
    assert f"${best['purchase_usd']:,.0f}" in reply.content  # the total purchase of the plan
    assert f"${direct['purchase_usd']:,.0f}" in reply.content  # and of the two H100s (a whole 8-card server)
    assert reply.content.startswith("**It would work**" if direct["code"] == "meets" else "**It falls short**")


@pytest.mark.parametrize(("second", "third", "users"), [
    ("910B 64G，机器是8卡Atlas 800T A2", "同时在用30人左右，够不够", 30),
    ("机器是8卡910B", "同时40人够吗", 40),
])
def test_the_setup_named_is_answered_again_at_the_new_load(second: str, third: str, users: int):
    replies = run_conversation(["国企全国产化，只能昇腾910B，部署Qwen2.5-72B，200人内部用，几张卡", second, third])
    # '只能昇腾910B' is no longer one owned card (h-rate): the first turn asks how many at once, the machine is noted
    assert "8 × Huawei Ascend 910B" in replies[1].content
    direct = replies[-1].additional_kwargs["gpu_advisor"]["direct"]
    assert (direct["gpu"], direct["gpus"]) == ("ascend-910b", 8)
    last = replies[-1].additional_kwargs["gpu_advisor"]
    assert last["profile"]["users"] == users
    assert replies[-1].content.startswith("**够**" if last["direct"]["code"] == "meets" else "**不够**")
    assert f"同时 {users} 人" in replies[-1].content.split("\n", 1)[0]


@pytest.mark.parametrize(("lang", "turns", "count"), [
    ("zh", ["想用QLoRA微调Qwen2.5-72B，手上只有两张3090，能跑吗", "那如果加到4张3090呢"], 4),
    ("en", ["qlora qwen2.5 72b, i have two 3090s, can i run it?", "what if i go to 4 3090s?"], 4),
])
def test_more_of_their_own_card_is_answered_head_on(lang: str, turns: list[str], count: int):
    reply = run_conversation(turns)[-1]
    direct = reply.additional_kwargs["gpu_advisor"]["direct"]
    assert (direct["gpu"], direct["gpus"]) == ("rtx-3090", count)
    yes, no = ("**Yes**", "**No**") if lang == "en" else ("**能**", "**不能**")
    assert reply.content.startswith(yes if direct["code"] == "meets" else no)
    assert "purchase_usd" not in direct and "usd_per_hour" not in direct  # their own card: no rental price


@pytest.mark.parametrize("text", ["ok so can i qlora 70b on a single 48gb card", "can i qlora llama 3.1 70b on one 48gb gpu?"])
def test_one_card_by_memory_gets_yes_or_no_with_memory(text: str):
    reply = run_conversation(["whats the difference between lora and qlora memory wise, like for llama 3.1 70b", text])[-1]
    first = reply.content.split("\n", 1)[0]
    assert first.startswith(("**Yes**", "**No**")), first
    assert "GB" in first and "1 × NVIDIA RTX A6000 48GB" in first


BARE = {"en": ["is {n} enough?", "would {n} do it?", "ok but are {n} gpus enough"], "zh": ["{n}张够吗", "{n}张够不够"]}


@pytest.mark.parametrize(("first", "shape", "n"), [
    (first, shape, n) for first, (lang, _t) in FIRST.items() for shape in BARE[lang] for n in (2, 8)
])  # one card of the plan's ('would a single card do?', '一张卡够吗') is the one-card check (assistant.pinned)
def test_a_bare_count_is_of_the_plans_card(first: str, shape: str, n: int):
    reply = _follow(first, shape.format(n=n))
    payload = reply.additional_kwargs["gpu_advisor"]
    direct = payload.get("direct")
    assert direct, reply.content[:300]
    assert direct["gpus"] == n
    assert direct["gpu"] == payload["results"]["recommend"]["best"]["gpu"]  # the plan's own card
    lang = FIRST[first][0]
    first_line = reply.content.split("\n", 1)[0]
    said = next(v for v in sorted(VERDICT[lang], key=len, reverse=True) if first_line.startswith(v))
    assert (said in YES) == (direct["code"] == "meets"), first_line


@pytest.mark.parametrize(("first", "text", "gpu"), [
    ("buy_itl", "why not h100?", "h100-sxm"), ("buy_itl", "why not a couple of h100s", "h100-sxm"),
    ("zh_serve", "为什么不用H100", "h100-sxm"), ("zh_serve", "为什么不用2张A100", "a100-80gb-sxm"),
])
def test_why_not_a_card_is_answered_as_that_setup(first: str, text: str, gpu: str):
    reply = _follow(first, text)
    payload = reply.additional_kwargs["gpu_advisor"]
    direct = payload["direct"]
    assert direct["gpu"] == gpu
    lang = FIRST[first][0]
    yes, no = ("**It would work**", "**It falls short**") if lang == "en" else ("**可以用**", "**不行**")
    assert reply.content.startswith(yes if direct["code"] == "meets" else no), reply.content[:200]
    best = payload["results"]["recommend"]["best"]
    assert f"{best['gpus']} × {best['gpu_name']}" in reply.content.split("\n\n", 1)[0]  # against the plan, by name


@pytest.mark.parametrize("first", list(FIRST))
def test_the_first_answer_names_one_pick_in_its_headline_table_and_decision(first: str):
    app, config, _inputs = _base(first)
    reply = [m for m in app.get_state(config).values["messages"] if m.type == "ai"][-1]
    payload = reply.additional_kwargs["gpu_advisor"]
    best, decision = payload["results"]["recommend"]["best"], payload["decision"]
    assert (decision["gpus"], decision["gpu"]) == (best["gpus"], best["gpu"])
    headline = reply.content.split("\n", 1)[0]
    assert best["gpu_name"] in headline
    rows = [line for line in reply.content.splitlines() if line.startswith("| ") and "---" not in line][1:]
    assert rows and rows[0].startswith(f"| {best['gpus']} × {best['gpu_name']}"), rows[:2]
