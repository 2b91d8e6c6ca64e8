"""Follow-ups that change topic, name a model loosely, or say a date relative to today (task h-follow).

Generated two-turn conversations, both languages: what is kept and what starts afresh, which model is sized,
and the deadline hours read."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states

# ---------------------------------------------------------------- another job in the same conversation

ORG = {"en": "we have two 8x A100 servers and want to serve Qwen2.5-72B to 300 people",
       "zh": "我们有两台8卡A100服务器，想部署Qwen2.5-72B给300人用"}
OWNED = ["16x a100-80gb-sxm"]

# (message, the model it names): a job for home use, or a question said to be another one
FRESH = {"en": [("at home I want to run qwen2.5 14b for fun, which card?", "qwen2.5-14b"),
                ("another question: what card for running qwen2.5 14b on my home pc?", "qwen2.5-14b"),
                ("separately, llama 3.1 8b just for me at home, what gpu?", "llama-3.1-8b"),
                ("different question: fine-tune llama 3.1 8b with qlora on 10k samples", "llama-3.1-8b"),
                ("on another note, I want to play with qwen2.5 7b at home", "qwen2.5-7b")],
         "zh": [("家里想跑个Qwen2.5 14B自己玩，用什么卡", "qwen2.5-14b"),
                ("换个问题，在家跑llama 3.1 8b自己用，买什么显卡", "llama-3.1-8b"),
                ("另外一个事，家用电脑想跑qwen2.5 7b玩玩，什么卡够", "qwen2.5-7b"),
                ("换个问题，用qlora微调llama 3.1 8b，1万条数据", "llama-3.1-8b"),
                ("问个别的：自己在家玩qwen2.5 14b要什么显卡", "qwen2.5-14b")]}


@pytest.mark.parametrize(("lang", "said"), [(lang, said) for lang in FRESH for said in FRESH[lang]])
def test_another_job_starts_fresh_and_says_what_was_kept(lang: str, said: tuple[str, str]):
    text, model = said
    first, second = run_states([ORG[lang], text])
    assert first["profile"]["owned"] == OWNED
    profile = second["profile"]
    assert profile["model"] == model, (text, profile)
    assert not profile.get("owned"), (text, profile)  # the 16 data-centre A100s are not this job's
    assert profile.get("users") != 300 and profile.get("population") != 300, (text, profile)
    reply = second["messages"][-1].content
    assert "A100 SXM4 80GB（共 16" not in reply and "16 GPUs, 2 servers" not in reply, reply
    assert say(lang, "slot.owned.label") in reply.split("\n\n")[:2][-1], reply  # what was left out, said first
    best = (second.get("results") or {}).get("recommend", {}).get("best") or {}
    assert not best or (best.get("gpus", 0) <= 2 and not best.get("owned")), best


# (message, the slot that moves and its value): ordinary follow-ups keep the servers, the people and the model
KEPT = {"en": [("what about int4?", "precision", "int4"), ("and for 100 users?", "users", 100),
               ("make it 32k context", "context", 32768), ("what about qwen2.5 32b?", "model", "qwen2.5-32b"),
               ("ok and in fp8", "precision", "fp8")],
        "zh": [("用int4呢", "precision", "int4"), ("换成32k上下文", "context", 32768),
               ("如果是100个人呢", "users", 100), ("换成qwen2.5 32b呢", "model", "qwen2.5-32b"),
               ("那用fp8呢", "precision", "fp8")]}


@pytest.mark.parametrize(("lang", "said"), [(lang, said) for lang in KEPT for said in KEPT[lang]])
def test_a_follow_up_of_the_plan_keeps_everything(lang: str, said: tuple[str, str, object]):
    text, slot, value = said
    _first, second = run_states([ORG[lang], text])
    profile = second["profile"]
    assert profile["owned"] == OWNED, (text, profile)
    assert profile[slot] == value, (text, profile)
    if slot != "users":
        assert profile["users"] == 300, (text, profile)
    if slot != "model":
        assert profile["model"] == "qwen2.5-72b", (text, profile)
    assert say(lang, "fresh.nothing") not in second["messages"][-1].content.split("\n\n")[1]


def test_a_second_job_said_beside_the_first_is_no_new_topic():
    for text in ("and also fine-tune llama 3.1 8b with qlora on the same servers", "同时还要用这些卡微调llama 3.1 8b"):
        _first, second = run_states([ORG["en"], text])
        assert second["profile"]["owned"] == OWNED, (text, second["profile"])


# ---------------------------------------------------------------- a distill's parent named loosely

DISTILL = {"en": "deepseek r1 distill qwen 32b for 40 users, working hours",
           "zh": "deepseek r1 distill qwen 32b 给40人用，工作时间"}
LOOSE = {"en": [("what about R1 in fp8?", "fp8"), ("R1 in int4?", "int4"), ("and with r1 at fp8", "fp8"),
                ("how about deepseek r1 in int4", "int4")],
         "zh": [("R1用fp8呢", "fp8"), ("换成R1 int4呢", "int4"), ("那deepseek r1用int4呢", "int4"),
                ("r1 fp8 的话呢", "fp8")]}
FULL = {"en": ["what about the full R1 in fp8?", "the full 671b R1 then", "what about the real R1?",
               "let's do the full deepseek r1 instead", "what about the undistilled one?"],
        "zh": ["用满血版呢", "换满血版R1", "不要蒸馏版，用满血R1", "那满血的deepseek r1呢", "换成完整版R1"]}


@pytest.mark.parametrize(("lang", "said"), [(lang, said) for lang in LOOSE for said in LOOSE[lang]])
def test_a_distills_parent_named_with_a_setting_keeps_the_distill(lang: str, said: tuple[str, str]):
    text, precision = said
    first, second = run_states([DISTILL[lang], text])
    profile = second["profile"]
    assert profile["model"] == "deepseek-r1-distill-qwen-32b", (text, profile)
    assert profile["precision"] == precision, (text, profile)
    # the distill is what was sized, on the plan before (h-fixa's 32,768-token reasoning context puts 40 users on
    # 8 x 80 GB, so 'at most 4 cards' no longer tells the 32B from the 671B)
    assert second["results"]["recommend"]["model_name"] == "DeepSeek-R1-Distill-Qwen-32B", text
    before, best = first["results"]["recommend"]["best"], second["results"]["recommend"]["best"]
    assert (best["gpus"], best["gpu"], best["precision"]) == (before["gpus"], before["gpu"], precision), best
    assert "671" in second["messages"][-1].content.split("\n\n")[1]  # the full model said apart, first


@pytest.mark.parametrize(("lang", "text"), [(lang, text) for lang in FULL for text in FULL[lang]])
def test_the_full_model_meant_is_sized_and_the_switch_said_first(lang: str, text: str):
    _first, second = run_states([DISTILL[lang], text])
    assert second["profile"]["model"] == "deepseek-r1", (text, second["profile"])
    first_words = second["messages"][-1].content.split("\n\n")[1]
    assert "671" in first_words and "DeepSeek-R1-Distill-Qwen-32B" in first_words, first_words


@pytest.mark.parametrize(("first", "text", "model"), [
    ("deepseek r1 distill llama 70b for 40 users, working hours", "the 70B in int4?", "deepseek-r1-distill-llama-70b"),
    ("deepseek r1 distill llama 70b 给40人用，工作时间", "70B那个用int4呢", "deepseek-r1-distill-llama-70b"),
    ("qwen2.5-coder 32b for 20 developers, working hours", "what about Qwen in int4?", "qwen2.5-coder-32b"),
    ("qwen2.5-coder 32b 给20个开发用，工作时间", "qwen用int4呢", "qwen2.5-coder-32b")])
def test_a_loose_name_of_the_model_sized_keeps_it(first: str, text: str, model: str):
    _a, second = run_states([first, text])
    assert second["profile"]["model"] == model and second["profile"]["precision"] == "int4", second["profile"]


# ---------------------------------------------------------------- dates said relative to today

JOB = {"en": "fine-tune llama 3.1 8b with qlora on 100k samples", "zh": "用qlora微调llama 3.1 8b，10万条数据"}
NEXT_MONTH_END = {"en": ["by the end of next month", "must finish before the end of next month",
                         "needs to be trained by end of next month", "deadline: end of next month"],
                  "zh": ["下个月底前要训完", "下月底之前训完", "下个月底之前必须训好", "要在下个月底前完成"]}
SPANS = {"en": [("in two weeks", 336.0), ("within 2 weeks", 336.0), ("must be done in 10 days", 240.0)],
         "zh": [("两周内要训完", 336.0), ("10天之内要训完", 240.0)]}
DATES = {"en": ["must finish before Christmas", "by March 15", "by the end of the year", "due by the 15th of march",
                "before new year"],
         "zh": ["圣诞节前训完", "3月15日前要训完", "年底前训完", "5月底之前训完", "春节前要训完", "12月20号之前要训完"]}


def _both(lang: str, words: str) -> list[str]:
    sep = ", " if lang == "en" else "，"
    return [JOB[lang] + sep + words, words + sep + JOB[lang]]


@pytest.mark.parametrize(("lang", "words"), [(lang, w) for lang in NEXT_MONTH_END for w in NEXT_MONTH_END[lang]])
def test_the_end_of_next_month_is_its_short_end_said(lang: str, words: str):
    for text in _both(lang, words):
        u = understand(text)
        assert u.updates.get("deadline_hours") == 672.0, (text, u.updates)
        assert ("reply.deadline_next_month_end", {"short": "4", "long": "8", "hours": "672"}) in u.notes, u.notes


@pytest.mark.parametrize(("lang", "said"), [(lang, s) for lang in SPANS for s in SPANS[lang]])
def test_a_span_from_now_is_read_in_hours(lang: str, said: tuple[str, float]):
    words, hours = said
    for text in _both(lang, words):
        assert understand(text).updates.get("deadline_hours") == hours, text


@pytest.mark.parametrize(("lang", "words"), [(lang, w) for lang in DATES for w in DATES[lang]])
def test_a_date_without_today_is_asked_not_guessed(lang: str, words: str):
    for text in _both(lang, words):
        u = understand(text)
        assert "deadline_hours" not in u.updates, (text, u.updates)
        assert any(key == "reply.deadline_date" for key, _v in u.notes), (text, u.notes)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_deadline_read_is_checked_and_said_in_the_answer(lang: str):
    for words in NEXT_MONTH_END[lang][:2]:
        state, = run_states([JOB[lang] + (", " if lang == "en" else "，") + words + (" not sure" if lang == "en" else "")])
        reply = state["messages"][-1].content
        assert state["profile"]["deadline_hours"] == 672.0
        assert "672" in reply and ("4" in reply and "8" in reply), reply


def test_no_follow_up_of_a_date_says_a_deadline():
    for lang, words in itertools.product(("en", "zh"), ("before Christmas", "圣诞节前")):
        state, = run_states([JOB[lang] + " " + words])
        assert state["profile"].get("deadline_hours") is None


@pytest.mark.parametrize(("lang", "text", "model"), [
    ("en", "fine-tune llama 3.1 8b with qlora on 10k samples", "llama-3.1-8b"),
    ("en", "we want to fine-tune qwen2.5 7b with lora on 20k examples", "qwen2.5-7b"),
    ("zh", "用qlora微调llama 3.1 8b，1万条数据", "llama-3.1-8b"),
    ("zh", "想用lora微调qwen2.5 7b，2万条样本", "qwen2.5-7b")])
def test_a_new_model_for_a_new_kind_of_job_is_a_fresh_plan(lang: str, text: str, model: str):
    _first, second = run_states([ORG[lang], text])
    profile = second["profile"]
    assert profile["model"] == model and profile["phase"] == "fine-tune", profile
    assert not profile.get("owned") and profile.get("users") is None, profile
