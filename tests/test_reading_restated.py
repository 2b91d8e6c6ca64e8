"""Things said once more in other words: a model's own size after its name ('deepseek r1 满血版 671b') is
that model, not a generic dense one of that size; a date a service goes live is no deadline to size a
run for, and is said back. Generated from names, fillers, orders and both languages."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_conversation

# (name as typed, catalog id, its own size as typed)
NAMED = [("deepseek r1", "deepseek-r1", "671b"), ("DeepSeek-V3", "deepseek-v3", "671B"),
         ("llama 3.1 405b", "llama-3.1-405b", "405b"), ("qwen2.5 72b", "qwen2.5-72b", "72B"),
         ("glm-4.5", "glm-4.5", "355b"), ("kimi k2", "kimi-k2", "1T")]
FILLERS = {"en": [" {size}", " full {size}", ", the {size} one,", " ({size})", " - yes the full {size} -"],
           "zh": [" {size}", " 满血版 {size}", " {size} 满血版", "（{size}）", " 完整版{size}"]}
JOBS = {"en": ["serve {m} to 20 users", "we want to deploy {m} for our team of 20", "{m} for 20 concurrent users"],
        "zh": ["部署{m}给20个人用", "想上{m}，20人同时用", "{m}，并发20"]}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_models_own_size_said_again_keeps_the_model(lang):
    n = 0
    for (name, model_id, size), filler, job in itertools.product(NAMED, FILLERS[lang], JOBS[lang]):
        text = job.format(m=name + filler.format(size=size))
        u = understand(text, None)
        assert u.updates.get("model") == model_id, (text, u.updates)
        slot = "population" if "team of" in job else "users"  # a team of 20 is its people, not 20 at once
        assert u.updates.get(slot) == 20, (text, u.updates)
        n += 1
    assert n == 90


@pytest.mark.parametrize(("text", "model"), [("serve llama 3.1 8b, or rather a 70b", "70B"),
                                             ("deploy qwen2.5 7b … actually make it 32b", "32B")])
def test_another_size_after_a_name_is_still_another_model(text, model):
    assert understand(text, None).updates.get("model", "").upper().startswith(model[:-1])


GO_LIVE = {"en": ["live by end of next month", "going live by the end of next month", "launch by next month",
                  "in production by end of quarter"],
           "zh": ["下个月底前上线", "下月底之前要上线"]}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_go_live_date_is_read_as_time_from_now(lang):
    for when in GO_LIVE[lang]:
        u = understand(f"{when}, serving llama 3.1 70b" if lang == "en" else f"{when}，部署llama 3.1 70b", None)
        # the end of next month is 4 to 8 weeks away: its short end, 672 h (tests/test_follow.py)
        assert u.updates.get("deadline_hours") in (672.0, 730.0, 1095.0), (when, u.updates)


def test_a_go_live_date_sizes_no_service_and_is_said_back():
    en, = run_conversation(["we need a support chatbot on llama 3.1 70b live by end of next month for 200 agents"])
    assert "A go-live date about 28 days away: noted." in en.content
    assert "deadline" not in en.content.lower()
    zh, = run_conversation(["需要在下个月底前上线，给200个客服用qwen2.5 72b"])
    assert "上线时间大约在 28 天后：已记下。" in zh.content and "截止时间" not in zh.content


def test_a_deadline_for_a_run_is_still_a_deadline():
    u = understand("fine-tune llama 3.1 8b on 20M tokens by end of next month", None)
    assert u.updates["deadline_hours"] == 672.0 and u.updates["phase"] == "fine-tune"


@pytest.mark.parametrize(("text", "hours"), [
    ("下周五之前要处理完一千万条评论 qwen2.5 7b 今天周一", 264.0),  # next week's Friday, from Monday
    ("today is monday, need it done by next friday", 96.0),
    ("today is wednesday, due by friday", 48.0),
    ("今天是周三，下周一之前跑完", 120.0),
])
def test_a_weekday_due_counts_from_the_day_said_to_be_today(text, hours):
    assert understand(text, None).updates["deadline_hours"] == hours


@pytest.mark.parametrize(("text", "tokens", "each"), [
    ("qlora llama 3.2 3b on my discord chats, twenty thousand messages", 1.2e6, "60"),
    ("fine-tune qwen 7b on 50k support tickets", 20e6, "400"),
    ("lora llama 3.1 8b on 30k tweets", 1.8e6, "60"),
    ("lora on 10k examples", 10e6, "1,000"),
])
def test_examples_named_by_their_kind_take_that_kinds_typical_length(text, tokens, each):
    u = understand(text, None)
    assert u.updates["train_tokens"] == tokens
    assert dict(u.notes)["note.example_tokens"]["each"] == each
