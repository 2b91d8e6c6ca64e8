"""Groups of people named by job are summed in Chinese as in English (review CV #6: '给12345热线坐席一百二十人和各委办局
工作人员四百人用' was read as 400 people and 120 at once, where '180 call-centre agents and 25 supervisors' is 205); a
preference to rent or buy is recorded only where the user said one (a 省级政务云 got '倾向：租' from the '云' of its
name); an unknown model keeps the Chinese part of its name ('昆仑-MoE-60B-A6B' was said back as 'MoE-60B-A6B', CV #8).
Generated: group forms crossed with number spellings, joining words, frames and a stated concurrency, both languages."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states

# The forms a Chinese group of people is said in: job first counted in people, or a count and a classifier first.
ZH_FORMS = ["{j}{n}人", "{j}{n}个人", "{j}有{n}人", "{n}名{j}", "{n}个{j}", "{n}位{j}"]
# (the first group's number as said, its value), the same for the second
ZH_FIRST = [("120", 120), ("一百二十", 120), ("两百", 200), ("一千二", 1200), ("1.2万", 12000)]
ZH_SECOND = [("400", 400), ("四百", 400), ("两百", 200), ("80", 80)]
ZH_JOBS = [("热线坐席", "工作人员"), ("客服", "销售"), ("医生", "护士"), ("老师", "学生"), ("客服坐席", "各委办局工作人员"),
           ("律师", "实习生")]
ZH_JOIN = ["和", "及", "以及", "、", "，", "加上", "还有"]
ZH_FRAMES = ["准备部署 Qwen3-32B，给{g}用", "部署 Qwen3-32B 供{g}使用", "部署Qwen3-32B让{g}用", "{g}要用 Qwen3-32B",
             "信创要求只能用国产卡，{g}都要用 GLM-4.5，大概要多少张昇腾910B？"]
# a concurrency said after the groups (the people at once, as said), or none
ZH_AT_ONCE = [("", None), ("，并发三十", 30), ("，同时在线50", 50), ("，高峰并发大概40", 40)]


def _zh_cases() -> list[tuple[str, int, int | None]]:
    """Every form crossed with every joining word (both groups in that form, and the two forms mixed), each with the
    numbers, jobs, frames and concurrency taken in turn."""
    cases = []
    pairs = [(f, f) for f in ZH_FORMS] + [(a, b) for a, b in itertools.permutations(ZH_FORMS, 2) if a[0] != b[0]]
    for k, ((first, second), join) in enumerate(itertools.product(pairs, ZH_JOIN)):
        (a, av), (b, bv) = ZH_FIRST[k % len(ZH_FIRST)], ZH_SECOND[k // len(ZH_FIRST) % len(ZH_SECOND)]
        j1, j2 = ZH_JOBS[k % len(ZH_JOBS)]
        at_once, users = ZH_AT_ONCE[k % len(ZH_AT_ONCE)]
        groups = first.format(j=j1, n=a) + join + second.format(j=j2, n=b)
        cases.append((ZH_FRAMES[k % len(ZH_FRAMES)].format(g=groups) + at_once, av + bv, users))
    return cases


@pytest.mark.parametrize(("text", "population", "users"), _zh_cases())
def test_zh_groups_named_by_job_are_summed(text: str, population: int, users: int | None) -> None:
    u = understand(text).updates
    assert u.get("population") == population, (text, u)
    assert u.get("users") == users, (text, u)  # a concurrency said stays the people at once; none said, none read


@pytest.mark.parametrize(("first", "at_once"), list(itertools.product(ZH_FIRST, ZH_AT_ONCE)))
def test_zh_the_cv6_sentence_over_numbers(first: tuple[str, int], at_once: tuple[str, int | None]) -> None:
    text = (f"我们是省级政务云，信创要求只能用国产卡。准备部署 GLM-4.5（那个355B的MoE），给12345热线坐席{first[0]}人和各委办局"
            f"工作人员四百人用{at_once[0]}，大概要多少张昇腾910B？")
    u = understand(text)
    assert u.updates.get("population") == first[1] + 400, (text, u.updates)
    assert u.updates.get("users") == at_once[1], (text, u.updates)  # 12345 is the hotline's number, no people
    assert ("note.people_listed", {"parts": f"{first[1]:,} + 400", "n": f"{first[1] + 400:,}"}) in u.notes


@pytest.mark.parametrize("text", [
    "12345热线坐席一百二十人和工作人员四百人用，每天5万条对话",
    "给客服120人和销售400人用，文档300页，8卡服务器",
    "客服120人、销售400人，知识库5万条，手册300页",
    "96110专线坐席120人以及工作人员四百人使用",
])
def test_zh_numbers_that_are_no_people_are_not_summed(text: str) -> None:
    u = understand(text).updates
    assert u.get("population") == 520 and u.get("users") is None, (text, u)


@pytest.mark.parametrize(("text", "updates"), [
    ("40个客服和5张卡", {"population": 40}),  # cards listed after people are no people
    ("给客服120人用，并发三十", {"users": 30}),  # one group: no sum
])
def test_zh_counts_that_are_no_groups_stay_apart(text: str, updates: dict[str, int]) -> None:
    u = understand(text).updates
    assert {k: u.get(k) for k in updates} == updates, (text, u)


EN_GROUPS = [("180", "call-centre agents"), ("25", "supervisors"), ("120", "nurses"), ("40", "support agents"),
             ("400", "doctors"), ("12", "lawyers")]
EN_JOIN = ["and", "plus", "+", ", and", "&"]
EN_FRAMES = ["{g} will use Qwen3-32B", "serve Qwen3-32B for {g}", "Qwen3-32B as an assistant for {g}. how many gpus?"]
EN_AT_ONCE = [("", None), (", 40 at once", 40), (", peak concurrency 50", 50)]


@pytest.mark.parametrize(("pair", "join", "frame", "at_once"), [
    (pair, join, EN_FRAMES[k % len(EN_FRAMES)], EN_AT_ONCE[k % len(EN_AT_ONCE)])
    for k, (pair, join) in enumerate(itertools.product(itertools.combinations(EN_GROUPS, 2), EN_JOIN))])
def test_en_groups_named_by_job_are_summed(pair, join: str, frame: str, at_once) -> None:
    (a, ja), (b, jb) = pair
    text = frame.format(g=f"{a} {ja} {join} {b} {jb}") + at_once[0]
    u = understand(text).updates
    assert u.get("population") == int(a) + int(b), (text, u)
    assert u.get("users") == at_once[1], (text, u)


# Sentences that say nothing of renting or buying: no preference is recorded.
NEUTRAL = ["部署 Qwen3-32B 给50人用", "信创要求只能用国产卡，部署 GLM-4.5 给客服120人和销售400人用，要多少张昇腾910B？",
           "准备上线 Qwen3-32B，同时在线30人", "serve qwen3-32b for 50 users", "how many gpus for llama 3.1 70b, 200 staff?",
           "180 call-centre agents and 25 supervisors will use Qwen3-32B"]
# The positive control: renting or buying said, in both languages.
SAID = [("部署 Qwen3-32B 给50人用，想租卡", "rent"), ("部署 Qwen3-32B 给50人用，打算买卡", "buy"),
        ("we want to rent gpus to serve qwen3-32b for 50 users", "rent"),
        ("we'll buy the cards to serve qwen3-32b for 50 users", "buy")]
# An organisation that runs its own hardware: never a rented cloud ('政务云' is theirs, not one to rent from).
SELF_HOSTED = ["我们是省级政务云，部署 Qwen3-32B 给500人用", "部署在我们的私有云上，Qwen3-32B 给500人用",
               "专有云环境，Qwen3-32B 给500人用，要几张卡", "私有化部署 Qwen3-32B 给500人用",
               "we run our own data centre, serve qwen3-32b for 500 staff, how many h100s?",
               "serve qwen3-32b on our private cloud for 500 staff", "on-prem, serve qwen3-32b for 500 staff"]


@pytest.mark.parametrize("text", NEUTRAL)
def test_no_preference_unless_said(text: str) -> None:
    u = understand(text).updates
    assert "preference" not in u, (text, u)


@pytest.mark.parametrize(("text", "preference"), SAID)
def test_a_preference_said_is_recorded(text: str, preference: str) -> None:
    assert understand(text).updates.get("preference") == preference, text


@pytest.mark.parametrize("text", SELF_HOSTED)
def test_self_hosted_is_never_a_rented_cloud(text: str) -> None:
    u = understand(text).updates
    assert u.get("preference") == "buy", (text, u)


def test_the_cv6_conversation() -> None:
    state = run_states(["我们是省级政务云，信创要求只能用国产卡。准备部署 GLM-4.5（那个355B的MoE），给12345热线坐席一百二十人和"
                        "各委办局工作人员四百人用，大概要多少张昇腾910B？"])[-1]
    profile = state["profile"]
    assert profile["population"] == 520 and profile.get("users") != 120, profile
    assert profile.get("preference") != "rent", profile
    reply = state["messages"][-1].content
    assert "120 + 400 = 520" in reply and "倾向：租" not in reply and "倾向于租" not in reply, reply


CJK_PARTS = ["昆仑", "盘古", "九章", "星河"]
LATIN_PARTS = [("MoE-60B-A6B", "60B-A6B"), ("Chat-38B", "38B"), ("Pro-72B", "72B")]
NAME_FRAMES = ["公司自研了一个 {name} 模型，想部署给200人用", "我们有个{name}要部署，多少张卡", "{name} 怎么部署",
               "we trained {name} in house, serve it for 200 users"]


@pytest.mark.parametrize(("cjk", "latin", "join", "frame"),
                         list(itertools.product(CJK_PARTS, LATIN_PARTS, ["-", ""], NAME_FRAMES)))
def test_unknown_names_keep_their_chinese_part(cjk: str, latin: tuple[str, str], join: str, frame: str) -> None:
    name = f"{cjk}{join}{latin[0]}"
    u = understand(frame.format(name=name))
    assert u.unknown_model == name, (frame.format(name=name), u.unknown_model)
    assert u.updates.get("model") == latin[1], (frame.format(name=name), u.updates)


@pytest.mark.parametrize(("text", "name"), [
    ("准备部署Zephyrix-47B给200人用", "Zephyrix-47B"),  # words before a name are none of it
    ("用Zephyrix-47B部署", "Zephyrix-47B"),
    ("我们的Zephyrix-47B要部署", "Zephyrix-47B"),
    ("如果Zephyrix-47B太贵呢", "Zephyrix-47B"),
])
def test_words_before_a_latin_name_are_no_part_of_it(text: str, name: str) -> None:
    assert understand(text).unknown_model == name, text
