"""One group of a head-count sum put right is applied, and its number takes no other role (review: '团队有3个算法工程师和
10个产品经理要用内部代码助手…' then '不对，是30个产品经理，不是10个' still sized 13 users, and showed '利用率 30%' under
'你说的': the 30 of '30个产品经理' was read as a 30% utilisation at the utilisation question).

The groups of a sum are kept by job (reading.people_groups, assistant.user_groups); a later message that says one
group's number again ('actually 30 PMs, not 10', 'PM有30个不是10个', 'make that 5 engineers') replaces that group and
the sum is added up again; a count of people named by a job is never a utilisation, a context or a budget."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states

FIRST = {"zh": "团队有3个{a}和10个{b}要用内部代码助手，模型用 Qwen2.5-Coder-32B，预算二十万人民币，买卡还是租云",
         "en": "an internal coding assistant for 3 {a} and 10 {b}, qwen2.5 coder 32b, budget $30k, buy or rent?"}
# Group nouns as typed in each language -> the job the reader keeps them as. Some sums are people at once (users),
# some the people who use it (population): the correction keeps the slot that held the sum.
NOUNS = {"zh": {"算法工程师": "engineer", "产品经理": "product_manager", "PM": "product_manager", "设计师": "designer",
                "运营": "operations", "数据科学家": "data_scientist", "律师": "lawyer", "销售": "sales"},
         "en": {"ml engineers": "engineer", "engineers": "engineer", "product managers": "product_manager",
                "PMs": "product_manager", "data scientists": "data_scientist", "designers": "designer",
                "analysts": "analyst", "devs": "developer"}}
PAIRS = {"zh": [("算法工程师", "产品经理"), ("设计师", "运营"), ("数据科学家", "产品经理"), ("律师", "销售")],
         "en": [("ml engineers", "product managers"), ("engineers", "PMs"), ("data scientists", "designers"),
                ("devs", "designers")]}
# A correction of one group: {n} the new count, {job} the group's noun; {old} the count ruled out where said.
FIXES = {"zh": ["不对，是{n}个{job}，不是{old}个", "{job}是{n}个", "{job}有{n}个不是{old}个", "说错了，{job}其实有{n}个",
                "不好意思，是{n}个{job}", "等等，{job}是{n}个，不是{old}个", "{n}个{job}，不是{old}个"],
         "en": ["actually {n} {job}, not {old}", "sorry, {n} {job}", "make that {n} {job}",
                "i meant {n} {job} instead of {old}", "wait, there are {n} {job}, not {old}", "oops typo: {n} {job} not {old}",
                "correction: {job} are {n}, not {old}", "{n} {job}, not {old}"]}
THIRTY = {"zh": ["30", "三十"], "en": ["30", "thirty"]}
OLD = {"zh": {10: "10", 3: "3"}, "en": {10: "10", 3: "three"}}
# The slots a bare number can answer at a question: a count of people named by a job fills none of them.
NOT_PEOPLE = ("utilisation", "context", "budget_usd", "budget_usd_per_month", "batch_items")


@pytest.mark.parametrize(("lang", "a", "b"), [(lang, a, b) for lang in PAIRS for a, b in PAIRS[lang]])
def test_the_groups_of_a_sum_are_kept_by_job(lang, a, b):
    u = understand(FIRST[lang].format(a=a, b=b))
    assert u.ask["user_groups"] == [(NOUNS[lang][a], 3), (NOUNS[lang][b], 10)]
    assert 13 in (u.updates.get("users"), u.updates.get("population"))


@pytest.mark.parametrize(("lang", "template", "noun", "n", "pending"), [
    (lang, template, noun, n, pending) for lang in FIXES for template in FIXES[lang] for noun in NOUNS[lang]
    for n in THIRTY[lang] for pending in (None, "utilisation", "context")])
def test_one_group_said_again_is_read_as_its_correction(lang, template, noun, n, pending):
    text = template.format(n=n, job=noun, old=OLD[lang][10])
    u = understand(text, pending)
    assert u.ask.get("group_fixed") == (NOUNS[lang][noun], 10 if "{old}" in template else None, 30), text
    assert not set(NOT_PEOPLE) & set(u.updates), (text, u.updates)


@pytest.mark.parametrize(("lang", "text"), [
    ("zh", "不对，是30个产品经理，不是10个"), ("zh", "PM有三十个"), ("zh", "产品经理是30个"),
    ("en", "actually 30 PMs, not 10"), ("en", "sorry, thirty data scientists"), ("en", "make that 30 engineers")])
@pytest.mark.parametrize("pending", ["utilisation", "context", "batch_items"])
def test_a_count_of_people_answers_no_other_question(lang, text, pending):
    assert not set(NOT_PEOPLE) & set(understand(text, pending).updates)


@pytest.mark.parametrize("text", ["also 20 designers", "plus 20 more PMs", "还有20个设计师", "另外再加20个产品经理"])
def test_a_group_added_is_no_correction(text):
    assert "group_fixed" not in understand(text).ask


@pytest.mark.parametrize(("text", "share"), [("9 am to 6 pm", 0.375), ("30", 0.3), ("about 30% of the time", 0.3)])
def test_a_bare_share_or_a_time_of_day_still_answers_the_utilisation_question(text, share):
    assert understand(text, "utilisation").updates.get("utilisation") == share


# The whole conversation: the corrected group, the sum added up again in the slot that held it, no utilisation said.
CONVERSATIONS = [
    ("zh", ("算法工程师", "产品经理"), "产品经理", FIXES["zh"][0], "30"),
    ("zh", ("算法工程师", "产品经理"), "PM", FIXES["zh"][2], "三十"),
    ("zh", ("设计师", "运营"), "运营", FIXES["zh"][1], "三十"),
    ("zh", ("设计师", "运营"), "设计师", FIXES["zh"][5], "30"),
    ("zh", ("数据科学家", "产品经理"), "数据科学家", FIXES["zh"][3], "30"),
    ("zh", ("律师", "销售"), "销售", FIXES["zh"][6], "三十"),
    ("en", ("ml engineers", "product managers"), "PMs", FIXES["en"][0], "30"),
    ("en", ("ml engineers", "product managers"), "engineers", FIXES["en"][2], "thirty"),
    ("en", ("engineers", "PMs"), "product managers", FIXES["en"][6], "thirty"),
    ("en", ("data scientists", "designers"), "data scientists", FIXES["en"][1], "30"),
    ("en", ("data scientists", "designers"), "designers", FIXES["en"][4], "thirty"),
    ("en", ("devs", "designers"), "devs", FIXES["en"][3], "30"),
]


@pytest.mark.parametrize(("lang", "pair", "noun", "template", "n"), CONVERSATIONS)
def test_the_corrected_group_is_added_up_again(lang, pair, noun, template, n):
    a, b = pair
    first = FIRST[lang].format(a=a, b=b)
    fixed_first = NOUNS[lang][noun] == NOUNS[lang][a]
    fix = template.format(n=n, job=noun, old=OLD[lang][3 if fixed_first else 10])
    before, after = run_states([first, fix])
    held = "users" if before["profile"].get("users") == 13 else "population"
    assert before["profile"][held] == 13
    assert after["profile"][held] == (30 + 10 if fixed_first else 3 + 30), fix
    groups = [(NOUNS[lang][a], 30 if fixed_first else 3), (NOUNS[lang][b], 10 if fixed_first else 30)]
    assert [tuple(g) for g in after["profile"]["user_groups"]] == groups
    assert after["profile"].get("utilisation") != 0.3
    assert after["profile"].get("utilisation") is None or "utilisation" in after["defaulted"]  # assumed, not said
    assert f"{sum(n for _j, n in groups)}" in after["messages"][-1].content


# The engine's side (assistant.user_groups), on profiles as kept.
KEPT = (("developer", 3), ("product_manager", 10))


@pytest.mark.parametrize(("held", "fixed", "total", "groups"), [
    ("users", ("product_manager", 10, 30), 33, (("developer", 3), ("product_manager", 30))),
    ("population", ("product_manager", None, 30), 33, (("developer", 3), ("product_manager", 30))),
    ("users", ("developer", None, 5), 15, (("developer", 5), ("product_manager", 10))),
    ("users", ("engineer", 3, 5), 15, (("developer", 5), ("product_manager", 10))),  # no group of its job: the 3 ruled out
])
def test_the_group_put_right_is_added_up_in_the_slot_that_held_the_sum(held, fixed, total, groups):
    from gpu_advisor.assistant.policy import Profile
    from gpu_advisor.assistant.user_groups import regroup

    profile = Profile(**{held: 13, "user_groups": KEPT})
    updates = {"users": fixed[2], "utilisation": None} if held == "users" else {"population": fixed[2]}
    note = regroup(updates, profile, {"group_fixed": fixed, "count_fixed": (10, 30)})
    assert updates[held] == total and updates["user_groups"] == groups
    assert ({"users", "population"} - {held}).isdisjoint(updates)
    assert note == ("note.people_listed", {"parts": " + ".join(str(n) for _j, n in groups), "n": str(total)})


@pytest.mark.parametrize(("profile_said", "fixed"), [
    ({"users": 20}, ("product_manager", 10, 30)),  # the groups no longer add up to the count: kept as they are
    ({"users": 13}, ("designer", None, 30)),  # no group of that job, no number ruled out
    ({"users": 13}, ("engineer", 7, 30)),  # no group of that job, nor with that number
])
def test_no_group_named_is_no_recount(profile_said, fixed):
    from gpu_advisor.assistant.policy import Profile
    from gpu_advisor.assistant.user_groups import regroup

    updates = {"users": 30}
    assert regroup(updates, Profile(**profile_said, user_groups=KEPT), {"group_fixed": fixed}) is None
    assert updates == {"users": 30, "user_groups": None}


def test_groups_said_are_kept_with_their_sum_and_dropped_when_the_count_is_said_again():
    from gpu_advisor.assistant.policy import Profile
    from gpu_advisor.assistant.user_groups import regroup

    updates: dict = {"population": 13}
    regroup(updates, Profile(), {"user_groups": [("designer", 3), ("operations", 10)]})
    assert updates["user_groups"] == (("designer", 3), ("operations", 10))
    later: dict = {"users_range": (20, 100)}
    regroup(later, Profile(population=13, user_groups=updates["user_groups"]), {})
    assert later["user_groups"] is None
