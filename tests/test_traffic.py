"""The people who use a service and the people generating at once: the tool's numbers, its invariants,
and the conversation that reads a headcount as the first and sizes the cards for the second."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpu_advisor.assistant.reading import understand
from gpu_advisor.tools.traffic import PeakInput, peak_at_once
from tests.conversation import payload, run_conversation


@pytest.mark.parametrize(("people", "at_once"), [(1, 1), (5, 2), (12, 4), (25, 6), (40, 9), (100, 18), (500, 66),
                                                 (1000, 123), (3000, 339), (100_000, 10_221)])
def test_the_people_at_once_are_the_99th_percentile_of_a_tenth(people, at_once):
    assert peak_at_once(PeakInput(people=people)).at_once == at_once


def test_everyone_at_once_when_the_share_is_all():
    assert peak_at_once(PeakInput(people=70, share=1.0)).at_once == 70


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 30_000))
def test_never_more_than_everyone_never_fewer_than_the_mean(people):
    result = peak_at_once(PeakInput(people=people))
    assert 1 <= result.at_once <= people
    assert result.at_once >= result.mean


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 30_000), st.integers(1, 500))
def test_more_people_never_need_fewer_at_once(people, more):
    assert peak_at_once(PeakInput(people=people + more)).at_once >= peak_at_once(PeakInput(people=people)).at_once


POPULATION = {"en": ["about {n} internal users", "our {n} employees", "a staff of {n}", "{n} users in total",
                     "company-wide for {n} people", "{n} registered users", "{n} seats"],
              "zh": ["全院{n}人", "公司有{n}名员工", "给全公司{n}人用", "用户量{n}", "员工{n}人", "注册用户{n}"]}
SIZING = {"en": ["serve llama 3.1 70b", "we want to deploy qwen2.5 32b with 16k context"],
          "zh": ["部署qwen2.5-72b", "想上线qwen2.5 32b，上下文16k"]}
JOINS = {"en": (", ", " for ", ". "), "zh": ("，", " ", "。")}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_headcount_in_any_order_is_the_people_who_use_it_not_the_people_at_once(lang):
    n = 0
    for form, sizing, join, people in itertools.product(POPULATION[lang], SIZING[lang], JOINS[lang], (300, 3000)):
        clause = form.format(n=people)
        for text in (f"{sizing}{join}{clause}", f"{clause}{join}{sizing}"):
            updates = understand(text).updates
            assert updates.get("population") == people, text
            assert "users" not in updates, text
            n += 1
    assert n >= 140


AT_ONCE = {"en": ["{p} employees, about {k} at once", "{k} concurrent out of {p} staff", "our {p} employees, peak concurrency {k}"],
           "zh": ["全院{p}人，高峰同时{k}人", "{p}名员工，并发{k}", "公司有{p}名员工，同时在线大概{k}个"]}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_number_at_once_said_beside_a_headcount_sizes_the_cards(lang):
    for form, (p, k) in itertools.product(AT_ONCE[lang], ((800, 60), (3000, 200))):
        updates = understand(form.format(p=p, k=k)).updates
        assert (updates.get("population"), updates.get("users")) == (p, k), form


@pytest.mark.parametrize(("lang", "text", "at_once"), [
    ("en", "serve llama 3.1 8b for our 800 employees during working hours", 100),
    ("zh", "给全院一千多人用，部署qwen2.5-7b，工作时间用", 123),
])
def test_the_answer_sizes_for_the_people_at_once_and_says_how(lang, text, at_once):
    reply = run_conversation([text])[-1]
    data = payload(reply)
    assert data["kind"] == "answer"  # no question about the people at once: it follows from the headcount
    assert data["profile"]["users"] == at_once
    assert f"{at_once}" in reply.content and "99" in reply.content
    said = "people who use it (not all at once)" if lang == "en" else "人使用（不是同时）"
    assert said in reply.content


def test_a_firms_staff_are_people_who_use_it_and_a_bare_count_of_users_is_all_at_once():
    reply = run_conversation(["serve qwen2.5 32b for 25 lawyers during working hours"])[-1]
    profile = payload(reply)["profile"]
    assert profile["population"] == 25 and 1 <= profile["users"] < 25  # staff: a share of them at once
    assert "people who use it (not all at once)" in reply.content
    reply = run_conversation(["serve qwen2.5 32b for 25 users during working hours"])[-1]
    assert payload(reply)["profile"]["users"] == 25
    assert "25 users, sized as all at once" in reply.content


PEOPLE_WITH_DOCUMENTS = {
    "en": ["{n} paralegals will use {model} to summarise contracts of about {k}k tokens",
           "{model} for {n} analysts who analyse reports of {k}k tokens each",
           "our {n} lawyers extract clauses from {k}k-token contracts with {model}"],
    "zh": ["{n}个法务用{model}总结合同，每份大概{k}k token", "给{n}位律师用{model}分析合同，一份{k}k tokens"]}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_people_asking_about_long_documents_are_served_not_a_batch_job(lang):
    """Summarising is a batch verb, but people who use it and no count of documents or deadline make
    each document one request: the document is the prompt, the context holds it."""
    for form, n, k, model in itertools.product(PEOPLE_WITH_DOCUMENTS[lang], (6, 12), (32, 100),
                                              ("qwen2.5 32b", "llama 3.1 70b")):
        updates = understand(form.format(n=n, k=k, model=model)).updates
        assert updates.get("phase") == "serve" and n in (updates.get("users"), updates.get("population")), form
        assert (updates.get("prompt_tokens") or updates.get("context", 0)) >= k * 1000, form
        assert not {"batch_items", "seq_len"} & updates.keys(), form


def test_a_counted_batch_of_documents_stays_a_batch_job():
    updates = understand("summarise 20,000 contracts of about 10k tokens with qwen2.5 32b").updates
    assert updates["phase"] == "batch" and updates["batch_items"] == 20_000


@pytest.mark.parametrize("follow_up", ["and if we need to fine tune it too, lora, on the same boxes?",
                                       "我们也想用LoRA微调一下它，同样的机器行吗？"])
def test_training_added_to_a_serving_plan_keeps_the_serving(follow_up):
    """'fine tune it too' after a serving plan adds training; it neither replaces the serving nor reads as a
    question about what LoRA is."""
    replies = run_conversation(["serve qwen2.5 14b to 40 concurrent users, 16k context, working hours", follow_up])
    data = payload(replies[-1])
    assert data["kind"] == "answer" and data["profile"]["phase"] == "train-and-serve"
    assert data["profile"]["method"] == "lora" and data["profile"]["users"] == 40


def test_a_large_count_said_at_once_stays_at_once():
    data = payload(run_conversation(["serve llama 3.1 70b to 200 concurrent users during working hours"])[-1])
    assert data["profile"]["users"] == 200 and data["profile"]["population"] is None
