"""Two things side by side in one question: people counted then their context ('50 concurrent users at
32k'), and two models weighed against each other ('is qwen3 235b better than llama 3.3 70b for code?')."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import payload, run_conversation

PEOPLE = ["users", "concurrent users", "people", "agents", "analysts", "simultaneous users"]
CONTEXTS = [("8k", 8192), ("32k", 32768), ("128k", 131072)]


def test_people_counted_then_at_a_k_count_is_their_context():
    for people, (ctx, tokens), n, lead in itertools.product(PEOPLE, CONTEXTS, (12, 50, 300),
                                                            ("serve qwen3 32b for", "how many gpus for", "")):
        text = f"{lead} {n} {people} at {ctx}".strip()
        u = understand(text, None)
        staff = people.split()[-1] in ("analysts", "nurses", "engineers", "developers", "students")
        count = u.updates.get("population" if staff else "users")  # staff are a head-count (reading.headcount)
        assert count == n and u.updates.get("context") == tokens, (text, u.updates)
    assert understand("with concurrency at 50", None).updates.get("users") == 50


PAIRS = {"en": ["is {a} actually better than {b} for code?", "{a} or {b}: which is smarter for legal drafting?",
                "is {a} really better than {b}"],
         "zh": ["{a}和{b}哪个写代码更强", "{a}比{b}更聪明吗", "{a}跟{b}哪个效果好"]}
MODELS = [("qwen3 235b", "llama 3.3 70b"), ("deepseek v3", "qwen2.5 72b"), ("glm-4.5", "kimi k2")]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_two_models_weighed_are_a_quality_question_about_both(lang):
    for form, (a, b) in itertools.product(PAIRS[lang], MODELS):
        text = form.format(a=a, b=b)
        u = understand(text, None)
        assert "quality" in u.intents, (text, u.intents)
        assert u.subject is not None and u.subject.count("|") == 1, (text, u.subject)
        assert "model" not in u.updates, (text, u.updates)


def test_the_quality_reply_names_both_models():
    reply, = run_conversation(["is qwen3 235b actually better than llama 3.3 70b for code?"])
    assert reply.content.startswith("I size hardware; I can't judge whether Qwen3 235B-A22B or Llama 3.3 70B is "
                                    "better for that.")
    assert payload(reply)["kind"] == "info"
    zh, = run_conversation(["qwen2.5 72b和deepseek v3哪个写代码更强"])
    assert zh.content.startswith("我只测算硬件，判断不了 Qwen2.5 72B 和 DeepSeek-V3 哪个更适合这件事。")


@pytest.mark.parametrize(("text", "sized", "other"), [
    ("我有张4090 想本地跑qwen3 14b 顺便试试glm4 9b", "glm-4-9b", "Qwen3 14B"),
])
def test_a_second_model_named_beside_the_first_is_said_not_dropped(text, sized, other):
    u = understand(text, None)
    assert u.updates["model"] == sized
    assert dict(u.notes)["note.model_other"]["others"] == other


def test_two_models_served_side_by_side_are_both_sized():
    # two models joined by a plain 'and' to serve are both sized on the plan's cards (tests/test_two_parts.py),
    # never one sized and the other only named
    u = understand("serve llama 3.1 8b and qwen2.5 7b to 10 users", None)
    assert u.updates["model"] == "llama-3.1-8b" and u.second["model"] == "qwen2.5-7b"
    assert "note.model_other" not in dict(u.notes)


@pytest.mark.parametrize("text", ["serve llama 3.1 8b, actually qwen2.5 7b", "qwen2.5 7b还是llama 3.1 8b好"])
def test_a_model_replaced_or_weighed_is_no_second_model(text):
    assert "note.model_other" not in dict(understand(text, None).notes)


def test_a_count_of_ones_own_notes_is_the_training_set():
    u = understand("rtx 4060 8gb laptop, want to qlora finetune llama 3.2 3b on like 2000 of my own notes", None)
    assert u.updates["owned"] == ["1x rtx-4060-laptop"] and u.updates["train_tokens"] == 600_000


def test_mistral_large_2_is_known_by_the_names_people_use():
    from gpu_advisor.knowledge import find_model

    model = find_model("mistral large 2")
    assert model.id == "mistral-large-2-123b" and model.num_layers == 88
    per_layer = 2 * 12288 * 12288 + 2 * 12288 * 1024 + 3 * 12288 * 28672
    assert model.total_params_b == pytest.approx((88 * per_layer + 2 * 32768 * 12288) / 1e9, rel=0.005)
    u = understand("mistral large 2 on prem only, N+1 redundancy, 50 concurrent analysts, 32k context, fp8 is ok", None)
    assert u.updates["model"] == "mistral-large-2-123b" and u.updates["users"] == 50


@pytest.mark.parametrize("text", ["gpt-oss 120b 部署给公司内部两百人用", "集团内部两百人用qwen2.5 32b", "院内两百人用的问答助手"])
def test_people_inside_the_company_are_who_uses_it_not_who_is_on_at_once(text):
    u = understand(text, None)
    assert u.updates.get("population") == 200 and "users" not in u.updates, (text, u.updates)


@pytest.mark.parametrize(("text", "check"), [
    ("what if only 2 of the nodes are free", lambda u: dict(u.notes)["note.servers_without_cards"] == {"servers": "2"}),
    ("maybe 40 chatting at the same time at peak", lambda u: u.updates.get("users") == 40),
    ("could i do a small lora finetune of the gemma one on this card", lambda u: "model" not in u.updates),
    ("游戏本是4070 8g显存 想本地跑qwen3 8b", lambda u: u.updates.get("owned") == ["1x rtx-4070-laptop"]),
    ("五年呢", lambda u: u.prices == {"horizon_months": 60} and "rent_buy" in u.intents),
    ("and over 5 years?", lambda u: u.prices == {"horizon_months": 60}),
    ("could we use AMD cards to save money", lambda u: "amd" not in (u.updates.get("exclude") or ["amd"])),
    ("and if we had until next monday instead?", lambda u: u.updates.get("deadline_hours") == 24.0),
])
def test_follow_ups_people_type(text, check):
    u = understand(text, None)
    assert check(u), (text, u.updates, u.notes, u.prices)


def test_a_machine_rent_and_price_said_with_its_card_count_are_the_machines():
    u = understand("阿里云8卡H20每月十二万 买一台一百一十万 电费每月大概八千 利用率80% 三年 租还是买", None)
    assert u.prices["rent_usd_per_month_machine"] == pytest.approx(120000 * 0.14)
    assert u.prices["buy_usd_machine"] == pytest.approx(1100000 * 0.14)
    assert u.prices["horizon_months"] == 36


def test_a_bank_with_an_availability_target_gets_no_consumer_cards():
    u = understand("银行 两千员工 qwen3-32b 32k 首字一秒内 99.95% 私有化", None)
    assert u.updates["uptime"] == 99.95 and "utilisation" not in u.updates
    assert understand("we use them 95% of the time", None).updates["utilisation"] == 0.95
    reply, = run_conversation(["银行 两千员工 qwen3-32b 32k 首字一秒内 99.95% 私有化"])
    best = payload(reply)["results"]["recommend"]["best"]
    from gpu_advisor.knowledge import find_gpu

    assert find_gpu(best["gpu"]).segment != "consumer"


def test_a_quote_with_a_decimal_price_is_no_card_you_own():
    u = understand("we got a quote of $2.10/hr per H100 from lambda, is that good", None)
    assert "owned" not in u.updates


def test_a_card_named_after_a_stock_or_price_question_asks_the_same_about_it():
    _first, second = run_conversation(["H100现在还能买到吗 明年价格会降吗", "那B200呢"])
    assert payload(second)["topic"] == "forecast"
    assert "NVIDIA B200 180GB (HGX)" in second.content and "你打算用这个模型做什么" not in second.content


PROMPT_THEN_OUTPUT = {"en": ["{p} prompts and {o} output tokens", "prompts are about {p}, output {o}",
                             "prompt length {p}, outputs of {o} tokens", "serve it with {p} prompts and {o} tokens out"],
                      "zh": ["输入长度{p}左右 输出长度{o}", "prompt长度{p} 输出{o}", "提示词长度大概{p}，输出{o} token",
                             "输入{p} 输出{o}"]}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_prompt_length_then_an_output_length_are_both_lengths(lang):
    """'8k prompts and 500 output tokens' is a length of each, not 8,000 prompts to run; '输出长度500' too."""
    for form, (p, tokens), o in itertools.product(PROMPT_THEN_OUTPUT[lang], [("2k", 2000), ("8k", 8000), ("6k", 6000)],
                                                 (300, 500, 1000)):
        text = form.format(p=p, o=o)
        u = understand(text, None)
        out = u.updates.get("batch_output_tokens", u.updates.get("output_tokens"))
        assert u.updates.get("prompt_tokens") == tokens and out == o, (text, u.updates)
        assert "batch_items" not in u.updates, (text, u.updates)


def test_k_prompts_with_a_deadline_and_nothing_else_are_prompts_to_run():
    assert understand("run 8k prompts through llama 8b overnight", None).updates["batch_items"] == 8000


STAFF = {"en": ["doctors", "nurses", "employees", "students", "lawyers", "engineers", "internal users"],
         "zh": ["名医生", "个学生", "个员工", "名护士", "名律师", "个内部员工"]}
STAFF_FORMS = {"en": ["serve qwen2.5 72b for about {n} {who}", "{n} {who} will use llama 3.3 70b", "for {n} {who}"],
               "zh": ["给{n}{who}用qwen2.5 72b", "qwen2.5 72b 部署给{n}{who}", "大概{n}{who}会用"]}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_hundred_or_more_staff_are_who_uses_it_not_who_is_at_once(lang):
    """'for about 300 doctors', '给300名医生用': the staff of an organisation, a share of them at once (tools.traffic);
    twelve of them, or the same count said to be at once, size the cards as they are."""
    for form, who, n in itertools.product(STAFF_FORMS[lang], STAFF[lang], (120, 300, 2000)):
        text = form.format(n=n, who=who)
        u = understand(text, None)
        assert u.updates.get("population") == n and "users" not in u.updates, (text, u.updates)
    for text in ["for 4 nurses", "给3个学生用", "300 concurrent doctors", "for 300 doctors at once"]:
        u = understand(text, None)  # fewer than five staff, or staff said at once: the cards serve them all
        assert "population" not in u.updates and u.updates["users"] in (4, 3, 300), (text, u.updates)
    for text in ["for 40 nurses", "给30个学生用"]:  # five or more staff are an organisation's head-count too
        assert "users" not in understand(text, None).updates


AT_ONCE = {"en": ["{p} users, {c} at once", "{p} people use it, {c} at the same time", "{p} staff, peak concurrency {c}"],
           "zh": ["{p}人用，同时{c}个", "{p}个用户 并发{c}", "{p}人用 高峰{c}人", "用户{p}个，同时在线{c}"]}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_everyone_and_those_at_once_are_two_counts_in_any_form(lang):
    """'200人用，同时30个': 200 use it, 30 at once size the cards."""
    for form, (p, c) in itertools.product(AT_ONCE[lang], [(200, 30), (500, 50), (80, 12)]):
        text = form.format(p=p, c=c)
        u = understand(text, None)
        assert u.updates.get("users") == c and u.updates.get("population") == p, (text, u.updates)


@pytest.mark.parametrize(("lang", "forms"), [
    ("en", ["{a} {x} and {b} {y}", "for {a} {x} plus {b} {y}", "{a} {x} & {b} {y} will use it"]),
    ("zh", ["{a}名{x}和{b}名{y}用", "给{a}个{x}加上{b}个{y}用"])])
def test_two_groups_of_staff_add_up_to_everyone_who_uses_it(lang, forms):
    """'30k students and 2k faculty': 32,000 people use the service, not the last count alone."""
    groups = {"en": [("students", "faculty"), ("doctors", "nurses"), ("engineers", "staff")],
              "zh": [("医生", "护士"), ("学生", "老师"), ("员工", "工程师")]}[lang]
    for form, (x, y), (a, b) in itertools.product(forms, groups, [(3000, 200), (30000, 2000)]):
        text = form.format(a=a, b=b, x=x, y=y)
        assert understand(text, None).updates.get("population") == a + b, text


@pytest.mark.parametrize("text", ["can i run qwen3 14b to chat with it offline", "i want to use it offline, qwen3 8b on my mac",
                                  "chat offline with llama 3.1 8b locally"])
def test_offline_beside_chatting_is_no_batch_job(text):
    assert understand(text, None).updates.get("phase") != "batch"


@pytest.mark.parametrize("text", ["run 2m prompts offline", "offline batch of 10k docs with qwen2.5 7b"])
def test_an_offline_job_is_still_a_batch_job(text):
    assert understand(text, None).updates.get("phase") == "batch"


@pytest.mark.parametrize("text", ["想本地跑deepseek r1蒸馏版聊天玩玩", "run deepseek r1 distill locally", "deepseek-r1 distilled on my laptop"])
def test_a_distill_without_its_size_is_not_the_full_model(text):
    """'deepseek r1蒸馏版' is one of six distills, not the 671B model: never sized as R1 itself."""
    assert understand(text, None).updates.get("model") != "deepseek-r1"
    assert understand("r1 distill qwen 32b", None).updates["model"] == "deepseek-r1-distill-qwen-32b"


@pytest.mark.parametrize("card", ["h20", "a100", "l40s", "a6000"])
def test_a_cards_own_digits_are_no_count_of_the_next_card(card):
    """'H20 4090都能买': the 20 of H20 counts no 4090s."""
    from gpu_advisor.assistant.reading.message import prepare

    for text in [f"{card} 4090都能买", f"{card} h100 both ok", f"{card}、5090都行"]:
        assert all(n == 1 for *_s, n in prepare(text, None).gpus), text


def test_a_price_on_demand_is_no_budget():
    for text in ["runpod is $2.69 on demand", "lambda has h100 at $2.49 on-demand"]:
        assert "budget_usd" not in understand(text, None).updates, text


@pytest.mark.parametrize("form", ["{a} {b}都能买", "{a}和{b}都可以", "{a}、{b}都可以，部署qwen2.5 7b", "外企，{a} {b}都能买，要部署glm-4-9b"])
def test_two_cards_said_available_are_the_choice(form):
    """'H20 4090都能买': the plan chooses between the cards named, not a third one."""
    for a, b, ids in [("H20", "4090", ["h20", "rtx-4090"]), ("l20", "a800", ["l20", "a800-80gb-sxm"])]:
        text = form.format(a=a, b=b)
        assert sorted(understand(text, None).updates.get("only") or []) == sorted(ids), text


@pytest.mark.parametrize("text", ["租的话每卡每小时大概8块钱", "每小时大约2.5元", "每卡每小时约6块", "租的话每小时大概10元一张"])
def test_a_rent_per_hour_said_with_about_is_no_budget(text):
    """'每卡每小时大概8块钱' is what a card costs an hour, not a budget of ¥8."""
    assert not {"budget_usd", "budget_usd_per_month"} & set(understand(text, None).updates), text
