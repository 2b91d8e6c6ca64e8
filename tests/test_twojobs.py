"""A second model in one message is either the alternative the user weighs ('would X be cheaper', '或者用X会不会更省')
or a second job beside a first that already runs on part of their cards ('currently serving A on 8 of them … add B');
never both served at once unless they say so, and the question asked (cheaper? enough?) is answered first.
Generated over phrasings, word orders, model pairs and both languages."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.reading.message import prepare
from gpu_advisor.assistant.reading.model_choice import models_weighed
from gpu_advisor.assistant.reading.text import readable
from tests.conversation import payload, run_conversation

# (planned model as typed, its id, the alternative as typed, its id)
PAIRS = [("mixtral 8x7b", "mixtral-8x7b", "qwen2.5 coder 32b", "qwen2.5-coder-32b"),
         ("llama 3.1 70b", "llama-3.1-70b", "qwen2.5 72b", "qwen2.5-72b"),
         ("qwen3 32b", "qwen3-32b", "qwen3 30b a3b", "qwen3-30b-a3b")]
ALTERNATIVE = {
    "en": ["we have about 12k dollars a month for inference. thinking {a} for an internal coding assistant, maybe 150 "
           "devs, most active 9 to 6. what can that buy us, and would {b} be cheaper to run?",
           "{a} for 150 devs; is {b} cheaper to run?",
           "would it be cheaper to go with {b}? planning {a} for 150 devs",
           "planning {a} for 150 devs. could we save money with {b}?",
           "so um, {a} for 150 users, or would {b} cost less?",
           "serve {a} to 150 people. would {b} actually be any cheaper"],
    "zh": ["预算每月1.2万美元，打算用{a}给150个开发者做代码助手，或者用{b}会不会更省？",
           "{b}会更便宜吗？我们打算{a}给150人用",
           "{a}给150人，{b}的话会便宜点吗",
           "我们打算{a}给150人用，用{b}成本会更低吗",
           "用{a}给150个开发者，换成{b}是不是更便宜",
           "嗯，准备上{a}给150人用，{b}会不会更划算"],
}
CASES = [(lang, i, pair) for lang in ALTERNATIVE for i in range(len(ALTERNATIVE[lang])) for pair in PAIRS]


@pytest.mark.parametrize(("lang", "i", "pair"), CASES)
def test_a_model_asked_about_as_cheaper_is_weighed_not_served_beside(lang, i, pair):
    a, a_id, b, b_id = pair
    text = ALTERNATIVE[lang][i].format(a=a, b=b)
    assert models_weighed(prepare(readable(text), None)) == [a_id, b_id], text
    u = understand(text)
    assert u.ask.get("models") == [a_id, b_id], text
    assert u.updates["model"] == a_id, text  # the plan is the model they are thinking of
    assert not u.second, text  # no second service at the same time


@pytest.mark.parametrize(("lang", "text"), [("en", ALTERNATIVE["en"][0]), ("zh", ALTERNATIVE["zh"][0]),
                                            ("en", ALTERNATIVE["en"][1]), ("zh", ALTERNATIVE["zh"][3])])
def test_the_cheaper_question_is_answered_first_with_both_models_sized(lang, text):
    reply = run_conversation([text.format(a="mixtral 8x7b", b="qwen2.5 coder 32b")])[-1]
    data = payload(reply)
    assert data["kind"] == "answer", reply.content  # no question back: the comparison is the answer
    choice = data["model_choice"]
    assert {row["model"] for row in choice["rows"]} == {"mixtral-8x7b", "qwen2.5-coder-32b"}
    assert choice["pick"] in {"mixtral-8x7b", "qwen2.5-coder-32b"}
    assert not data["profile"].get("also")  # not two services at once
    first = reply.content.split("\n\n")[0]
    assert "Mixtral 8x7B" in first and "Qwen2.5-Coder 32B" in first
    assert ("按同一个任务分别测算" if lang == "zh" else "each sized for the same job") in first


@pytest.mark.parametrize("text", [
    "serve llama 3.1 70b for 50 users, and qwen2.5 7b for the cheaper tasks",
    "a chatbot on qwen2.5 32b for 30 staff, plus llama 3.1 8b for summaries",
    "部署qwen2.5 32b给30人聊天，同时还要跑一个llama 3.1 8b做摘要",
])
def test_a_second_job_with_no_comparison_asked_stays_a_second_job(text):
    assert models_weighed(prepare(readable(text), None)) == []
    assert understand(text).second


# (cards owned as typed, their id, total, busy, running model typed/id, its users, added model typed/id, its users)
FLEETS = [("H100", "h100-sxm", 16, 8, "llama 3.1 70b", "llama-3.1-70b", 200, "qwen2.5 72b", "qwen2.5-72b", 150),
          ("A100 80GB", "a100-80gb-sxm", 8, 4, "qwen2.5 32b", "qwen2.5-32b", 60, "llama 3.1 8b", "llama-3.1-8b", 40)]
RUNNING = {
    "en": ["our lab owns {t}x {card} (2 nodes, IB). currently serving {a} to ~{ua} users on {k} of them. we want to add "
           "a second model, {b}, for another ~{ub} users. do we have enough or do we need to buy more?",
           "we run {a} for {ua} users on {k} of our {t} {card}s; adding {b} for {ub} users, do we need more gpus?",
           "we have {t} {card}s and {k} of them already serve {a} for {ua} users. want to add {b} for {ub} more "
           "users, enough?",
           "we want to add {b} for {ub} users. we own {t} {card}s and {a} already runs for {ua} users on {k} of "
           "them. is that enough?"],
    "zh": ["我们有{t}张{card}，其中{k}张在跑{a}给{ua}人用，想再上一个{b}给{ub}人，卡够吗",
           "手上{t}张{card}，其中{k}张部署了{a}，{ua}人在用；现在想再部署{b}给{ub}人，需要再买卡吗",
           "我们有{t}张{card}，{k}张已经在跑{a}给{ua}人用，还想加一个{b}给{ub}人用，够不够",
           "想再上一个{b}给{ub}人用。我们有{t}张{card}，其中{k}张在跑{a}，给{ua}人用，够吗"],
}
RUN_CASES = [(lang, i, fleet) for lang in RUNNING for i in range(len(RUNNING[lang])) for fleet in FLEETS]


def _running_text(lang, i, fleet):
    card, _gid, t, k, a, _aid, ua, b, _bid, ub = fleet
    return RUNNING[lang][i].format(card=card, t=t, k=k, a=a, ua=ua, b=b, ub=ub)


@pytest.mark.parametrize(("lang", "i", "fleet"), RUN_CASES)
def test_a_model_running_on_part_of_the_cards_is_kept_and_the_new_one_is_sized(lang, i, fleet):
    _card, gid, t, k, _a, aid, ua, _b, bid, ub = fleet
    text = _running_text(lang, i, fleet)
    u = understand(text)
    assert u.updates["model"] == bid, text  # the model added is the job sized
    assert u.updates.get("users") == ub, text
    assert u.updates["owned"] == [f"{t}x {gid}"], text  # all their cards said back
    assert u.second and u.second["model"] == aid and u.second["running"] == k, text
    assert u.second["users"] == ua, text
    assert "weigh" not in u.intents and not u.ask.get("models"), text  # no choice between the two


@pytest.mark.parametrize(("lang", "i"), [("en", 0), ("zh", 0), ("en", 2), ("zh", 2)])
def test_enough_is_answered_first_for_the_free_cards_and_the_running_model_checked(lang, i):
    fleet = FLEETS[0]
    reply = run_conversation([_running_text(lang, i, fleet)])[-1]
    data = payload(reply)
    assert data["kind"] == "answer", reply.content
    split = data["owned_split"]
    assert split["kind"] == "running" and split["busy"] == 8 and split["free"] == 8
    assert split["holds"] is True  # Llama 3.1 70B for 200 users holds on its own 8 H100
    best = data["results"]["recommend"]["best"]
    assert best["owned"] and best["gpus"] <= 8 and best["gpu"] == "h100-sxm" and best["ok"]
    assert data["profile"]["model"] == "qwen2.5-72b"
    assert reply.content.startswith("**Yes**" if lang == "en" else "**能**"), reply.content[:200]
    assert "8" in reply.content.split("\n\n")[1]  # the headline names the free cards
