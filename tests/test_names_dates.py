"""Names, counts and dates read right in Chinese and English (review Y, session 13): a model named in Chinese
characters is said to be unknown and sized as a generic model of its size; a weekday deadline is a range of days
whose short end is taken and said; counted servers ('八卡机') are counted; a 'will N x X cope' question sizes on that
setup, whole."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_conversation, run_states

# ---------------------------------------------------------------- unknown model names in Chinese characters

CJK_NAMES = [("盘古星河-38B", "38B"), ("盘古星河38B", "38B"), ("星火-13B", "13B"), ("书生浦语 20B", "20B"),
             ("鹏城脑海-200B", "200B"), ("盘古-30B-A3B", "30B-A3B")]
CJK_FORMS = ["{n} 推理要多大显存，并发大概50", "部署{n}给50个人用要几张卡", "我们自研的{n}，要什么卡", "想跑{n}，50并发",
             "{n}要几张卡"]


@pytest.mark.parametrize(("name", "size"), CJK_NAMES)
def test_a_model_named_in_chinese_characters_is_unknown_with_its_size(name: str, size: str):
    for form in CJK_FORMS:
        u = understand(form.format(n=name))
        assert u.unknown_model and u.unknown_model.replace(" ", "") == name.replace(" ", ""), (form, u.unknown_model)
        assert u.updates.get("model") in (None, size), u.updates  # sized as a generic model of that size


@pytest.mark.parametrize("text", ["想跑38B", "一个38B模型要几张卡", "这个38B的要多少显存", "大概38B", "参数量38B",
                                  "规模38B左右", "模型是38B", "盘古大模型38B", "跑个38B", "部署38B-A3B", "训练一个7B",
                                  "小模型7B", "从32B换成70B", "通义千问72B", "千问32b", "32B还是70B"])
def test_chinese_words_before_a_size_are_no_model_name(text: str):
    assert understand(text).unknown_model is None, text


@pytest.mark.parametrize(("text", "lang"), [("盘古星河-38B 推理要多大显存，并发大概50", "zh"),
                                            ("what gpus do i need to serve Zephyrix-47B for 50 concurrent users", "en"),
                                            # an English sentence naming a Chinese model is answered in English
                                            # (h-lang2: reply language by the share of words)
                                            ("serve 星火-13B for 50 concurrent users", "en"),
                                            ("Zephyrix-47B 推理要多大显存，并发大概50", "zh")])
def test_the_reply_says_the_model_is_unknown_and_asks_for_its_config(text: str, lang: str):
    reply = run_conversation([text])[0].content
    if lang == "zh":
        assert "我不认识模型" in reply and "稠密模型" in reply and "config.json" in reply, reply
    else:
        assert "I don't know the model" in reply and "generic" in reply and "config.json" in reply, reply


# ---------------------------------------------------------------- weekday deadlines: a range, the short end taken

DAYS = {"monday": ("一", 0), "wednesday": ("三", 2), "friday": ("五", 4), "sunday": ("日", 6)}
NEXT_FORMS = {"en": ["fine-tune qwen2.5 7b on 1B tokens by next {d}", "need it done before next {d}, full finetune llama 3.1 8b",
                     "deadline is next {d}. lora qwen2.5 14b on 50k examples"],
              "zh": ["下周{z}之前要出结果，微调qwen2.5 7b，1B token", "微调qwen2.5 7b 1B token，下周{z}前要训完",
                     "下个星期{z}前交付，全参微调qwen2.5 7b", "下礼拜{z}之前要跑完，lora qwen2.5 14b"]}
COMING_FORMS = {"en": ["fine-tune qwen2.5 7b on 1B tokens by {d}", "deadline is this {d}, lora qwen2.5 14b",
                       "need results before {d}, fine-tune llama 3.1 8b"],
                "zh": ["周{z}前要出结果，微调qwen2.5 7b，1B token", "这周{z}之前要训完，lora qwen2.5 14b",
                       "星期{z}前交付，全参微调qwen2.5 7b"]}


@pytest.mark.parametrize(("lang", "day"), itertools.product(["en", "zh"], DAYS))
def test_next_weeks_day_is_its_shortest_days_said_as_a_range(lang: str, day: str):
    zh, index = DAYS[day]
    for form in NEXT_FORMS[lang]:
        u = understand(form.format(d=day, z=zh))
        assert u.updates.get("deadline_hours") == (index + 1) * 24, (form, day, u.updates)
        spans = [v for k, v in u.notes if k == "reply.deadline_weekday_span"]
        assert spans and spans[0]["short"] == str(index + 1) and spans[0]["long"] == str(index + 7), (form, u.notes)


@pytest.mark.parametrize(("lang", "day"), itertools.product(["en", "zh"], DAYS))
def test_the_coming_day_is_one_to_seven_days_the_short_end_taken(lang: str, day: str):
    zh, _index = DAYS[day]
    for form in COMING_FORMS[lang]:
        u = understand(form.format(d=day, z=zh))
        assert u.updates.get("deadline_hours") == 24, (form, day, u.updates)
        spans = [v for k, v in u.notes if k == "reply.deadline_weekday_span"]
        assert spans and (spans[0]["short"], spans[0]["long"]) == ("1", "7"), (form, u.notes)


def test_today_said_makes_the_weekday_exact():
    assert understand("today is tuesday; summarise 200k docs with llama 3.1 8b by friday").updates["deadline_hours"] == 72
    assert understand("today is Monday and I must summarise 200k docs with llama 3.1 8b by Friday"
                      ).updates["deadline_hours"] == 96


@pytest.mark.parametrize(("text", "said"), [
    ("我们手上有8张4090，想全参微调deepseek-r1-distill-qwen-32b，能行吗？下周三之前要出结果",
     "我把“下周三”理解为从现在起 3 到 9 天（我不知道今天是星期几），按最短的 72 小时算"),
    ("we already have 2x rtx 4090 in a workstation. can we lora finetune qwen2.5 14b on ~20k examples? deadline is friday",
     'I read "Friday" as 1 to 7 days from now (I have no calendar) and took the short end, 24 h'),
    ("部署qwen3 32b给20个人用，下周三之前要上线", "按最短的 72 小时算"),
])
def test_the_reply_says_the_range_and_the_short_end(text: str, said: str):
    reply = run_conversation([text])[0].content
    assert said in reply, reply
    assert "192 小时" not in reply and "192 h" not in reply, reply


# ---------------------------------------------------------------- servers counted by their cards ('A800八卡机')

BOXES = {"zh": ["A800八卡机{q}", "一台A800八卡机{q}", "八卡A800机器{q}", "8卡A800服务器{q}", "A800 8卡机{q}", "八卡机A800{q}",
                "A800八卡服务器{q}", "8卡的A800{q}", "A800的8卡机{q}"],
         "en": ["an eight-GPU A800 box, {q}", "an 8-way A800 node, {q}", "A800 8-way node, {q}", "an A800 eight-gpu box, {q}",
                "an 8-gpu A800 server, {q}", "a single 8-way A800 box, {q}", "an 8x A800 node, {q}",
                "an 8-gpu server with A800s, {q}"]}
QUESTIONS = {"zh": ["能跑deepseek v3吗", "跑deepseek v3够不够"], "en": ["can it run deepseek v3?", "is it enough for deepseek v3?"]}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_server_counted_by_its_cards_is_that_many_cards(lang: str):
    for form, q in itertools.product(BOXES[lang], QUESTIONS[lang]):
        u = understand(form.format(q=q))
        cards = (u.updates.get("owned") or []) + (u.updates.get("only") or [])
        assert cards == ["8x a800-80gb-sxm"], (form, q, u.updates)


@pytest.mark.parametrize("text", ["两台A800八卡机能跑deepseek v3吗", "A800八卡服务器两台，能跑deepseek v3吗",
                                  "2台8卡A800能跑deepseek v3吗", "two 8-way A800 nodes, can they run deepseek v3?"])
def test_two_servers_counted_by_their_cards_are_sixteen(text: str):
    u = understand(text)
    assert (u.updates.get("owned") or []) + (u.updates.get("only") or []) == ["16x a800-80gb-sxm"], u.updates


# ---------------------------------------------------------------- 'is N x X enough?' sizes on that setup

ENOUGH = {"zh": ["2台8卡A100跑qwen3 235b够不够", "两台8卡A100，跑qwen3 235b够吗", "2台A100 8卡服务器能跑qwen3 235b吗",
                 "跑qwen3 235b，2台8卡A100够不够", "两台A100八卡机扛得住qwen3 235b吗"],
          "en": ["would 2 servers of 8 A100 be enough for qwen3 235b?", "is 2 servers of 8 A100 enough for qwen3 235b?",
                 "qwen3 235b on two 8-way A100 nodes, enough?", "can 2 servers each with 8 A100 handle qwen3 235b?"]}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_counted_setup_asked_if_enough_is_read_whole(lang: str):
    for text in ENOUGH[lang]:
        u = understand(text)
        assert (u.updates.get("owned") or []) + (u.updates.get("only") or []) == ["16x a100-80gb-sxm"], (text, u.updates)


@pytest.mark.parametrize(("text", "lang"), [("2台8卡A100跑qwen3 235b够不够", "zh"),
                                            ("will 2 servers of 8x A100 cope with qwen3 235b for 100 users?", "en")])
def test_the_answer_is_on_the_whole_setup_never_a_rented_part(text: str, lang: str):
    state = run_states([text])[-1]
    reply = state["messages"][-1].content
    head = next(line for line in reply.splitlines() if line.startswith("## "))
    assert "16" in head and ("租用" not in head and "Rent" not in head), head
    assert head.startswith("## 放得下") or head.startswith("## It fits"), head  # a yes on the setup named


# ---------------------------------------------------------------- people corrected from items stay people

def test_nurses_corrected_from_items_are_never_items_again():
    replies = run_conversation(["need a server for 40 nurses to ask questions about our clinical notes, thinking llama "
                                "3.1 70b. dont want cloud (HIPAA), budget arround 30k usd",
                                "serve users, its 40 nurses not items lol. maybe 10 using it at the same time"])
    for reply in replies:
        assert "items" not in reply.content, reply.content
    assert "10 users" in replies[-1].content


@pytest.mark.parametrize("text", ["周一到周五用，部署qwen3 32b给50人", "工作日周一至周五白天用，部署qwen3 32b给50人",
                                  "deploy qwen3 32b for 50 people, monday to friday", "星期一到星期五上班时间用，qwen3 32b"])
def test_weekdays_said_as_a_range_are_days_of_use_not_a_deadline(text: str):
    u = understand(text)
    assert "deadline_hours" not in u.updates and not [k for k, _v in u.notes if k == "reply.deadline_weekday_span"], u


@pytest.mark.parametrize(("text", "name"), [("kimi k3 推理要几张卡，并发20", "kimi k3"), ("用 kimi k3 部署给客服", "kimi k3"),
                                            ("kimi k3 微调要几张卡", "kimi k3"), ("serve kimi k3 for 20 users", "kimi k3")])
def test_an_unknown_name_said_back_holds_no_word_the_chinese_was_rewritten_to(text: str, name: str):
    u = understand(text)  # an unknown release of a family on record is sized as its newest record, said with its name
    assert u.unknown_model == name or ("note.model_family_stand_in", {"typed": name, "base": "Kimi K2 (1T-A32B)"}) in u.notes
