"""People counted by their job, as a product's beta users or as a team are a population, the same in English and
Chinese (review CT E2, E3, C4): '450 claims adjusters + 60 underwriters will use …' is 510 staff of whom a share is
at once, as '公司有三百个销售和五十个法务要用…' is 350; '~500 beta users' and '500个内测用户' are who uses the product;
'a team of 60' is its members. A word that says at once ('at the same time', 'concurrently', '同时在线') keeps the count
as people at once. When a message trains and serves on the cards it names, the reply says whether each job fits them."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states

# one- and two-word job titles, English and Chinese ('claims adjusters', '理赔专员', '销售代表', '现场工程师')
EN_JOBS = ["underwriters", "nurses", "claims adjusters", "customer support agents", "field engineers", "sales reps"]
ZH_JOBS = ["核保员", "护士", "理赔专员", "销售代表", "现场工程师", "客服专员"]
# each count in digits and in words
EN_COUNTS = {40: ["40", "forty"], 80: ["80", "eighty"], 350: ["350", "three hundred and fifty"],
             510: ["510", "five hundred and ten"]}
ZH_COUNTS = {40: ["40", "四十"], 80: ["80", "八十"], 350: ["350", "三百五十"], 510: ["510", "五百一十"]}
EN_USE = ["{n} {job} will use an internal chat assistant on llama 3.1 70b", "we have {n} {job} who will use it",
          "serve qwen2.5 72b to {n} {job}"]
EN_AT_ONCE = ["{n} {job} at once", "{n} {job} will use it at the same time", "serve qwen2.5 72b to {n} {job} concurrently"]
ZH_USE = ["{n}个{job}要用内部聊天助手", "部署qwen2.5 72b给{n}个{job}用", "{job}{n}人要用"]
ZH_AT_ONCE = ["{n}个{job}同时在线", "{n}个{job}同时使用", "部署qwen2.5 72b给{n}个{job}同时用"]


def _read(text: str) -> tuple[object, object]:
    u = understand(text).updates
    return u.get("population"), u.get("users")


def _cases(counts, jobs, use, at_once):
    for (n, spellings), job, template in itertools.product(counts.items(), jobs, use + at_once):
        for said in spellings:
            yield template.format(n=said, job=job), n, template in at_once


@pytest.mark.parametrize(("text", "n", "at_once"), [*_cases(EN_COUNTS, EN_JOBS, EN_USE, EN_AT_ONCE),
                                                    *_cases(ZH_COUNTS, ZH_JOBS, ZH_USE, ZH_AT_ONCE)])
def test_staff_by_job_is_a_population_unless_said_at_once(text, n, at_once):
    assert _read(text) == ((None, n) if at_once else (n, None)), text


SUMS = [
    ("450 claims adjusters + 60 underwriters will use an internal chat assistant", 510),
    ("four hundred and fifty claims adjusters and sixty underwriters will use it", 510),
    ("we have 300 sales reps and 50 lawyers who will use the knowledge base", 350),
    ("40 nurses plus 40 field engineers", 80),
    ("理赔专员450人和核保员60人要用内部聊天助手", 510),
    ("450个理赔专员和60个核保员要用内部聊天助手", 510),
    ("四百五十个理赔专员加六十个核保员要用", 510),
    ("公司有三百个销售和五十个法务要用内部知识库问答", 350),
    ("四十个护士和四十个现场工程师", 80),
]


@pytest.mark.parametrize(("text", "total"), SUMS)
def test_staff_listed_by_job_add_up_to_one_population(text, total):
    assert _read(text) == (total, None)


@pytest.mark.parametrize(("text", "total", "at_once"), [
    ("450 claims adjusters + 60 underwriters, about 60 at once", 510, 60),
    ("450 claims adjusters + 60 underwriters will use it, peak concurrency 70", 510, 70),
    ("理赔专员450人和核保员60人，同时在线大概60人", 510, 60),
])
def test_a_count_at_once_said_beside_the_staff_sizes_the_cards(text, total, at_once):
    assert _read(text) == (total, at_once)


@pytest.mark.parametrize(("text", "population", "users"), [
    ("serve it to ~500 beta users", 500, None),
    ("we want to serve llama 3.1 8b to 500 beta testers", 500, None),
    ("our pilot users: 200", 200, None),
    ("部署qwen2.5 7b给500个内测用户用", 500, None),
    ("内测用户大概500人", 500, None),
    ("500 beta users at the same time", None, 500),
    ("500个内测用户同时在线", None, 500),
    ("for our team of 60", 60, None),
    ("a team of 25 will use it", 25, None),
    ("a team of 12 will use it", None, 12),  # a team below TEAM_FROM (20) works together: sized as all at once
    ("我们团队十个人用", None, 10),
    ("团队60个人要用", 60, None),
    ("a team of 4", None, 4),
    ("a team of 60 at once", None, 60),
    ("we're a team of 4, serve llama 3.1 8b to 40 users", None, 40),  # the team builds it: no users
])
def test_beta_users_and_teams(text, population, users):
    assert _read(text) == (population, users)


def test_the_founders_who_build_it_are_no_users():
    """Review CT E2: '3 founders + 1 ML eng here' was read as 3 users at once beside the 500 beta users."""
    text = ("3 founders + 1 ML eng here. we want to do weekly DPO runs on Llama-3.1-8B (~20k pref pairs) and also serve "
            "it to ~500 beta users. rent on runpod or buy a box w/ 2x rtx 5090? budget ~25k usd")
    assert _read(text) == (500, None)


# The same message in both languages: the same people read, and the same number at once sized in the reply.
PAIRS = [
    ("450 claims adjusters + 60 underwriters will use an internal chat assistant on qwen2.5 72b, on-prem, buy",
     "450个理赔专员和60个核保员要用内部聊天助手，模型qwen2.5 72b，本地部署，买卡"),
    ("80 field engineers will use qwen2.5 32b, buy",
     "八十个现场工程师要用qwen2.5 32b，买卡"),
    ("serve qwen2.5 7b to 500 beta users, buy",
     "部署qwen2.5 7b给500个内测用户用，买卡"),
]


@pytest.mark.parametrize(("en", "zh"), PAIRS)
def test_english_and_chinese_read_the_same_people(en, zh):
    assert _read(en) == _read(zh)
    assert _read(en)[0] is not None and _read(en)[1] is None


@pytest.mark.parametrize(("en", "zh"), PAIRS[:2])
def test_english_and_chinese_size_the_same_people_at_once(en, zh):
    profiles = [run_states([text], thread=f"people-{i}")[-1]["profile"] for i, text in enumerate((en, zh))]
    assert profiles[0]["population"] == profiles[1]["population"] == _read(en)[0]
    assert profiles[0]["users"] == profiles[1]["users"]
    assert 0 < profiles[0]["users"] < profiles[0]["population"]  # a share of them at once, not all


E2 = ("3 founders + 1 ML eng here. we want to do weekly DPO runs on Llama-3.1-8B (~20k pref pairs) and also serve it "
      "to ~500 beta users. rent on runpod or buy a box w/ 2x rtx 5090? budget ~25k usd")
E2_ZH = ("我们三个创始人加一个算法工程师。每周用 QLoRA 在 Llama-3.1-8B 上跑一次 DPO（两万对偏好数据），还要部署给大概五百个"
         "内测用户。两张 rtx 5090 够吗？租还是买？预算2.5万美元")


@pytest.mark.parametrize(("text", "train_fits", "serve_short"), [
    (E2, "**Fine-tuning fits on 2 × NVIDIA GeForce RTX 5090 32GB** (", "**serving does not hold the load there**"),
    (E2_ZH, "**微调能在 2 × NVIDIA GeForce RTX 5090 32GB 上跑**（", "**部署扛不住这个负载**"),
])
def test_training_and_serving_on_the_cards_named_are_answered_apart(text, train_fits, serve_short):
    """Review CT E2: '**No**: the job does not fit on 2 × RTX 5090 (11.3 GB per GPU needed, 34.0 GB on each)' said no
    from the training's memory, which fits; the serving load is what the two cards miss."""
    state = run_states([text], thread="e2")[-1]
    reply = state["messages"][-1].content
    assert train_fits in reply and serve_short in reply, reply
    assert "the job does not fit on" not in reply and "放不下这个任务" not in reply
    assert state["profile"]["population"] == 500 and "users" in state["profile"]
