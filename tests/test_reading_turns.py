"""Follow-up turns after a plan: a change said as 'from X to Y' takes the new value, in any order and either
language; a change asked as a question is answered on the plan's cards too, saying whether they still fit.
Generated from fillers crossed with orders and languages, then through the whole graph."""

from __future__ import annotations

import itertools
import re

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import payload, run_conversation

CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")

# (template, slot): {a} the old value, {b} the new one, as written
CHANGES = {
    "en": [("context from {a}k to {b}k", "context"), ("if we go from {a}k to {b}k context", "context"),
           ("what if the context goes from {a}k to {b}k", "context"), ("bump the context from {a}k to {b}k?", "context"),
           ("go from {a}k context to {b}k", "context"),
           ("users from {u} to {v}", "users"), ("from {u} to {v} users", "users"), ("go from {u} users to {v}?", "users"),
           ("what if we go from {u} concurrent users to {v}", "users")],
    "zh": [("上下文从{a}k加到{b}k", "context"), ("把上下文从{a}k改成{b}k", "context"), ("上下文由{a}k提到{b}k", "context"),
           ("用户从{u}个加到{v}个", "users"), ("从{u}人加到{v}人", "users"), ("并发从{u}提到{v}", "users"),
           ("同时在线从{u}人涨到{v}人", "users")],
}
TAILS = {"en": ["", "?", ", do the cards still fit?", " - still enough?", ", would that still work?"],
         "zh": ["", "，卡还够吗", "，还够不够", "呢", "，还能跑吗"]}
VALUES = [(8, 32), (32, 8), (4, 128), (16, 64)]
PEOPLE = [(20, 64), (64, 20), (5, 300), (100, 250)]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_change_from_one_value_to_another_takes_the_new_value(lang):
    n = 0
    for (form, slot), tail, (a, b), (u, v) in itertools.product(CHANGES[lang], TAILS[lang], VALUES, PEOPLE):
        text = form.format(a=a, b=b, u=u, v=v) + tail
        for pending in (None, "utilisation", "users"):
            got = understand(text, pending)
            want = b * 1024 if slot == "context" else v
            assert got.updates.get(slot) == want, (text, pending, got.updates)
            assert not got.problems, (text, pending, got.problems)
            n += 1
    assert n >= 400


def test_a_range_without_from_is_not_a_change():
    assert understand("serve llama 3.1 8b to 20 users with 8k context").updates["users"] == 20


PLAN = {"en": "serve llama-3.1-8b for 20 users with 8k context on 2 L40S, working hours",
        "zh": "部署llama-3.1-8b，20个并发用户，8k上下文，用2张L40S，工作时间用"}
FOLLOW = {"en": ["if we go from 8k to 32k context do the cards still fit?", "what about 64 users instead?",
                 "what about int4?", "and if the context goes from 8k to 16k?"],
          "zh": ["上下文从8k加到32k，卡还够吗", "换成int4呢", "用户从20个加到64个，还够吗", "如果上下文改成16k呢"]}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_change_asked_as_a_question_says_whether_the_same_cards_still_do_it(lang):
    for follow in FOLLOW[lang]:
        first, second = run_conversation([PLAN[lang], follow])
        assert payload(first)["kind"] == "answer" and payload(second)["kind"] == "answer", second.content
        said = "the same 2 × nvidia l40s 48gb" if lang == "en" else "同样的 2 × nvidia l40s 48gb"
        assert said in second.content.lower(), (follow, second.content)
        profile = payload(second)["profile"]
        assert profile["model"] == "llama-3.1-8b" and profile["utilisation"] == 0.24, profile  # the rest is kept
        if lang == "zh":
            assert not re.search(r"\b(still|fits|no longer)\b", second.content)


def test_the_new_value_is_sized_and_the_old_one_is_not():
    _first, second = run_conversation([PLAN["en"], "if we go from 8k to 32k context do the cards still fit?"])
    data = payload(second)
    assert data["profile"]["context"] == 32768
    # the two cards named still hold 32k with the KV cache in FP8 (session 13: an FP8 KV cache that serves the job on
    # the count named is the plan, said as the change taken), not 4 cards with a BF16 cache
    best = data["results"]["recommend"]["best"]
    assert (best["gpu"], best["gpus"], best["kv_precision"]) == ("l40s", 2, "fp8")
    assert "Still fits on the same 2 × NVIDIA L40S 48GB" in second.content and "FP8" in second.content
    assert "0% cheaper" not in second.content and "$2.18 an hour rented, the same as before" in second.content
    _first, third = run_conversation([PLAN["en"], "what about 32 users?"])
    assert payload(third)["profile"]["users"] == 32
    assert "Still fits on the same 2 × NVIDIA L40S 48GB" in third.content


def test_a_change_said_as_a_statement_keeps_its_answer_as_before():
    _first, second = run_conversation([PLAN["en"], "make it 16k context"])
    assert "same 2 ×" not in second.content


# ---------------------------------------------------------------- who the service is for

PUBLIC = {"en": ["a chatbot for our customers", "a customer-facing assistant", "a public API for our app users",
                 "it serves our paying users", "a customer support bot", "open to the public", "for our end users",
                 "an external API", "it's for our SaaS"],
          "zh": ["面向客户的客服机器人", "对外提供服务", "做智能客服", "给客户用的问答机器人", "面向C端用户", "开放公开API"]}
INTERNAL = {"en": ["an internal tool for our team", "for our employees", "in-house assistant for colleagues",
                   "our staff will use it"],
            "zh": ["内部工具，给员工用", "给公司内同事用", "团队内部使用"]}
JOB = {"en": ["serve qwen2.5 14b", "deploy llama 3.1 8b for 40 users"], "zh": ["部署qwen2.5-14b", "用llama 3.1 8b，40人同时用"]}


def _orders(lang, job, clause):
    join = ", " if lang == "en" else "，"
    yield f"{job}{join}{clause}"
    yield f"{clause}{join}{job}"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_service_for_customers_is_read_as_up_around_the_clock_and_said(lang):
    n = 0
    for clause, job in itertools.product(PUBLIC[lang], JOB[lang]):
        for text in _orders(lang, job, clause):
            u = understand(text)
            assert u.updates.get("utilisation") == 1.0, text
            assert "note.public_facing" in dict(u.notes), text
            hours = text + ("; working hours only" if lang == "en" else "；只在工作时间用")
            assert understand(hours).updates.get("utilisation") == 0.24, hours  # hours said win
            n += 1
    assert n >= 24


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_internal_tool_keeps_the_working_hours_default(lang):
    for clause, job in itertools.product(INTERNAL[lang], JOB[lang]):
        for text in _orders(lang, job, clause):
            u = understand(text)
            assert "utilisation" not in u.updates, text
    assert "utilisation" not in understand("给30个客服部署qwen2.5-32b").updates  # support agents are staff


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_customer_service_answer_says_utilisation_in_the_users_language(lang):
    text = {"en": "serve qwen2.5 14b as a chatbot for our customers, 50 users at once, 8k context",
            "zh": "部署qwen2.5-14b做面向客户的客服机器人，50人同时在线，8k上下文"}[lang]
    reply = run_conversation([text])[-1]
    assert payload(reply)["kind"] == "answer", reply.content
    assert payload(reply)["profile"]["utilisation"] == 1.0
    assert ("100% utilisation" if lang == "en" else "100% 利用率") in reply.content
    if lang == "zh":
        assert not re.search(r"\b(utilisation|customers|around the clock)\b", reply.content)


# ---------------------------------------------------------------- answers promised "with the plan"

ASIDES = {"en": [("serve llama 3.1 8b, vllm or sglang?", "SGLang"),
                 ("serve llama 3.1 8b, is the B200 in stock anywhere?", "in stock"),
                 ("serve llama 3.1 8b; where can we rent an H100?", "H100")],
          "zh": [("部署qwen2.5-14b，用vllm还是sglang？", "SGLang"),
                 ("部署qwen2.5-14b，H20现在哪里能买到？", "H20")]}
BETWEEN = {"en": ["what is a kv cache?", "thanks", "hmm", "0 users"], "zh": ["什么是KV缓存？", "谢谢", "嗯", "0人"]}
SLOTS = {"en": ["20", "working hours"], "zh": ["20", "工作时间"]}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_question_asked_beside_a_sizing_is_answered_with_the_plan_whatever_comes_between(lang):
    n = 0
    for (first, marker), between in itertools.product(ASIDES[lang], ["", *BETWEEN[lang]]):
        turns = [first, *([between] if between else []), *SLOTS[lang]]
        replies = run_conversation(turns)
        plan = next((r for r in replies if payload(r)["kind"] == "answer"), None)
        assert plan is not None, (turns, replies[-1].content)
        assert marker in plan.content, (turns, plan.content)
        n += 1
    assert n >= 10


def test_two_questions_asked_at_two_turns_are_both_answered_with_the_plan():
    replies = run_conversation(["serve llama 3.1 8b, vllm or sglang?", "20 users, is the B200 in stock anywhere?",
                                "working hours"])
    plan = replies[-1].content
    assert "SGLang" in plan and "B200" in plan and plan.count("in stock") >= 1
    again = run_conversation(["serve llama 3.1 8b, vllm or sglang?", "20 users, and vllm or sglang?", "working hours"])
    assert again[-1].content.count('say "with SGLang"') == 1  # the same question answered once


def test_a_question_waiting_for_the_plan_is_forgotten_on_start_over():
    replies = run_conversation(["serve llama 3.1 8b, vllm or sglang?", "start over",
                                "serve qwen2.5 7b for 20 users, working hours"])
    assert payload(replies[-1])["kind"] == "answer"
    assert "SGLang" not in replies[-1].content


# ---------------------------------------------------------------- cloud instances compared

INSTANCE_PAIRS = [("p5", "p4d", "h100-sxm", "a100-40gb-sxm"), ("p5.48xlarge", "p4de.24xlarge", "h100-sxm", "a100-80gb-sxm"),
                  ("p5e", "p5", "h200", "h100-sxm"), ("g6e", "g5", "l40s", "a10g"),
                  ("a3-highgpu", "a2-ultragpu", "h100-sxm", "a100-80gb-sxm"), ("a3-ultragpu-8g", "a2-highgpu-8g", "h200", "a100-40gb-sxm"),
                  ("ND H100 v5", "ND A100 v4", "h100-sxm", "a100-40gb-sxm"), ("ND H200 v5", "NDm A100 v4", "h200", "a100-80gb-sxm"),
                  ("Standard_ND96isr_H100_v5", "ND MI300X v5", "h100-sxm", "mi300x")]
COMPARE_FORMS = {"en": ["{a} vs {b}?", "{a} or {b} for this?", "{a} or {b}, which is faster?", "compare {a} and {b}",
                        "should we go with {a} or {b}?"],
                 "zh": ["{a}还是{b}？", "{a}和{b}哪个好？", "{a}跟{b}比怎么样", "对比一下{a}和{b}"]}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_cloud_instances_compared_are_the_cards_they_carry(lang):
    n = 0
    for (a, b, card_a, card_b), form in itertools.product(INSTANCE_PAIRS, COMPARE_FORMS[lang]):
        for x, y, cx, cy in ((a, b, card_a, card_b), (b, a, card_b, card_a)):
            text = form.format(a=x, b=y)
            u = understand(text)
            assert "compare_cards" in u.intents, (text, u.intents)
            assert u.cards == [cx, cy], (text, u.cards)
            assert not u.unknown_model and not u.updates, (text, u.updates, u.unknown_model)
            instances = dict(u.notes)["note.instances"]["instances"]
            assert instances.count("=") == 2, text
            n += 1
    assert n >= 70


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_instances_compared_after_a_plan_get_a_comparison_for_the_job(lang):
    plan = {"en": "serve llama 3.1 70b to 100 users, 8k context, around the clock",
            "zh": "部署llama 3.1 70b，100人同时用，8k上下文，全天候"}[lang]
    ask = {"en": "p5 vs p4d?", "zh": "p5还是p4d？"}[lang]
    first, second = run_conversation([plan, ask])
    assert payload(first)["kind"] == "answer"
    assert payload(second)["kind"] == "info" and payload(second)["topic"] == "compare_cards", second.content
    assert "P5 = 8 × NVIDIA H100 SXM 80GB" in second.content and "P4d = 8 × NVIDIA A100 SXM4 40GB" in second.content
    if lang == "zh":
        assert "按这些云实例搭载的卡来看" in second.content


def test_every_instance_family_names_a_catalog_card():
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.knowledge.clouds import clouds

    assert all(clouds()[name].families for name in ("aws", "azure", "gcp"))  # the instance names people type
    for cloud in clouds().values():
        for family in cloud.families:
            assert find_gpu(family.gpu).id == family.gpu
            assert family.gpu in cloud.gpus, (cloud.id, family.name)


# ---------------------------------------------------------------- a card I had no figures for, described after

UNKNOWN = {"en": [("serve qwen2.5-14b on my Moore Threads MTT S4000", "Moore Threads", True),
                  ("we want to serve qwen2.5-14b on our Biren cards", "Biren", True),
                  ("serve qwen2.5-14b on a MetaX accelerator we rent", "MetaX", False)],
           "zh": [("用我们的摩尔线程MTT S4000部署qwen2.5-14b", "摩尔线程", True),
                  ("在自己的壁仞卡上部署qwen2.5-14b", "壁仞", True),
                  ("租沐曦的卡部署qwen2.5-14b", "沐曦", False)]}
SPECS = {"en": ["it has 48GB and about 768 GB/s", "48 GB of memory, 768 GB/s bandwidth", "768 GB/s bandwidth and 48GB",
                "each card: 48GB, 0.768 TB/s"],
         "zh": ["48G显存，带宽768GB/s", "显存48GB，带宽768 GB/s", "带宽768GB/s，显存48G", "每张卡48GB显存、0.768TB/s带宽"]}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_figures_for_a_card_i_did_not_know_are_read_as_that_card(lang):
    for spec in SPECS[lang]:
        u = understand(spec, "users")
        assert u.card_spec in ("custom:memory=48GB,bandwidth=768GB/s", "custom:memory=48GB,bandwidth=0.768TB/s"), spec
        assert "users" not in u.updates, (spec, u.updates)  # its figures count no people
    n = 0
    for (first, name, mine), spec in itertools.product(UNKNOWN[lang], SPECS[lang]):
        replies = run_conversation([first, spec, "20", "working hours" if lang == "en" else "工作时间"])
        assert name in replies[1].content and payload(replies[1])["kind"] in ("answer", "question"), replies[1].content
        plan = next((r for r in replies if payload(r)["kind"] == "answer"), None)
        assert plan is not None, (first, spec, replies[-1].content)
        cards = payload(plan)["profile"]["owned" if mine else "only"]
        assert cards and cards[0].startswith("custom:memory=48GB") and cards[0].endswith(f"name={name}"), (first, spec, cards)
        assert name in plan.content
        if lang == "zh":
            prose = re.sub(r"```.*?```", "", plan.content + replies[1].content, flags=re.S)  # the launch command is code
            assert not re.search(r"\b(sized|figures|memory|bandwidth)\b", prose)
        n += 1
    assert n >= 12


def test_figures_said_with_the_card_are_used_at_once():
    u = understand("serve qwen2.5-14b on my Moore Threads MTT S4000, 48GB and 768GB/s")
    assert u.card_spec and u.unknown_card == ("Moore Threads", True)
    assert "note.accelerator_unknown" not in dict(u.notes)
    reply = run_conversation(["serve qwen2.5-14b on my Moore Threads MTT S4000, 48GB and 768GB/s, 10 users"])[-1]
    assert payload(reply)["kind"] == "answer"
    assert payload(reply)["profile"]["owned"] == ["custom:memory=48GB,bandwidth=768GB/s,name=Moore Threads"]


def test_memory_and_bandwidth_without_an_unknown_card_change_nothing():
    replies = run_conversation(["serve llama 3.1 8b for 20 users, working hours", "it has 48GB and about 768 GB/s"])
    assert "only" not in payload(replies[0])["profile"] or not payload(replies[0])["profile"]["only"]
    assert payload(replies[-1])["kind"] != "answer" or not (payload(replies[-1]).get("profile") or {}).get("owned")


def test_a_stock_question_waiting_for_the_plan_is_not_answered_after_start_over():
    replies = run_conversation(["serve llama 3.1 8b, is the B200 in stock anywhere?", "start over",
                                "serve qwen2.5 7b for 20 users, working hours"])
    assert "will answer your other question" in replies[0].content
    assert payload(replies[-1])["kind"] == "answer" and "stock" not in replies[-1].content.lower()


@pytest.mark.parametrize(("text", "slot", "value"), [("上下文改成128k呢", "context", 131072), ("上下文改成32k吧", "context", 32768),
                                                     ("哦不对 其实是交互式的 不是离线跑批", "phase", "serve")])
def test_a_sentence_particle_is_no_people_and_interactive_means_served(text, slot, value):
    u = understand(text)
    assert u.updates.get(slot) == value and "users" not in u.updates


def test_a_correction_of_the_server_count_keeps_the_cards_per_server():
    replies = run_conversation(["we have four boxes of 8x A100 80G, full finetune qwen2.5 72b on ~2B tokens",
                                "actually 3 boxes not 4"])
    assert payload(replies[-1])["profile"]["owned"] == ["24x a100-80gb-sxm"]


@pytest.mark.parametrize("text", ["does qwen2.5 72b fit on a single h100 80gb with 32k context?",
                                  "DeepSeek-V3 671B 能不能在一台8卡H20上跑？上下文大概32k"])
def test_a_fit_question_is_sized_for_one_person_and_says_so(text):
    data = payload(run_conversation([text])[-1])
    assert data["kind"] == "answer" and data["profile"]["users"] == 1


@pytest.mark.parametrize(("text", "pending"), [("what if rental was 1.50/hr", "users"), ("buy an 8xH100 box for 280k", "users"),
                                               ("预算砍到一万了", "utilisation")])
def test_a_price_or_budget_typed_at_a_question_is_not_its_answer(text, pending):
    u = understand(text, pending)
    assert pending not in u.updates and not u.problems


@pytest.mark.parametrize(("first", "cut", "monthly"), [
    ("每月两万预算，glm-4 9b做客服，高峰五十人同时在线，工作时间", "预算砍到一万了", 1400.0),
    ("mistral small 24b for 30 concurrent users, budget $3000 a month, working hours", "budget got cut to 1500", 1500.0)])
def test_a_monthly_budget_changed_stays_monthly(first, cut, monthly):
    data = payload(run_conversation([first, cut])[-1])
    assert data["profile"]["budget_usd_per_month"] == monthly and data["profile"]["budget_usd"] is None


@pytest.mark.parametrize(("text", "seq"), [("full fine tune qwen2.5 72b at 8k seq len on 2B tokens", 8000),
                                           ("lora on llama 3.1 8b, 4096 sequence length", 4096),
                                           ("全参微调qwen2.5-7b，4k序列，一亿token", 4000)])
def test_a_sequence_length_said_before_its_label_is_read(text, seq):
    assert understand(text).updates.get("seq_len") == seq
