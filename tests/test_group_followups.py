"""Follow-ups that change one named group of the people counted before, the budget's currency, and how long it is used
(reviews CUA #2, CUB #1 turn 2, CUB #5 turn 2 and its probe):

- 'what if we double the physicians to 160 and keep the nurses' after '250 nurses and 80 physicians' was 'Sorry, I
  didn't understand that'; '如果只给研发用呢' after '研发两百人，测试六十人' was '抱歉，我没看懂'; 'add 40 customer success reps'
  after '3 backend engs + 6 sales ppl' dropped the 9 people; '改成200人' after 260 people who use it was 200 at once.
  Each change (double, halve, set, add, remove, only, keep) applies to the groups kept by job and the people who use it
  are added up again, the number at once estimated from them (tools.traffic);
- 'sorry budget is 35k EUR' was refused while the old $35,000 was kept: euros and pounds are converted at the dated
  rate kept in knowledge data, and the rate is said;
- 'who'll use it all day', '整天都在用' still asked how busy the GPUs are: read as the working day, said as assumed."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.policy import Profile
from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.user_groups import changed_groups, regroup
from gpu_advisor.knowledge import rules
from gpu_advisor.tools.traffic import PeakInput, peak_at_once
from tests.conversation import run_states

# ------------------------------------------------------------------ the reader: the change said of each group

# Job nouns as typed -> the job kept. Three groups by job in each language.
JOBS = {"en": [("nurses", "nurse"), ("physicians", "doctor"), ("testers", "tester")],
        "zh": [("研发", "developer"), ("测试", "tester"), ("客服", "support")]}
ALT = {"en": {"nurses": "nurse", "physicians": "doctors", "testers": "QA"},
       "zh": {"研发": "研发", "测试": "测试人员", "客服": "客服"}}
NUMBERS = {"en": [("160", 160), ("forty", 40), ("two hundred", 200)], "zh": [("160", 160), ("四十", 40), ("两百", 200)]}
# (template, change, whether it carries the number): {j} the job, {n} the number.
CHANGES = {
    "en": [("what if we double the {j}", "times", 2.0), ("double the {j} and keep the rest", "times", 2.0),
           ("halve the {j}", "times", 0.5), ("what if we cut the {j} in half?", "times", 0.5),
           ("triple the {j}", "times", 3.0),
           ("what if the {j} go up to {n}", "set", None), ("make the {j} {n}", "set", None),
           ("double the {j} to {n}", "set", None),
           ("add {n} {j}", "add", None), ("{n} more {j}", "add", None), ("plus another {n} {j}", "add", None),
           ("drop the {j}", "remove", None), ("without the {j}?", "remove", None), ("remove the {j}", "remove", None),
           ("only the {j}", "only", None), ("what if it's just for the {j}", "only", None),
           ("what if only {j} use it", "only", None)],
    "zh": [("{j}翻倍", "times", 2.0), ("如果{j}翻一倍呢", "times", 2.0), ("{j}减半", "times", 0.5),
           ("{j}改成{n}人", "set", None), ("{j}加到{n}人", "set", None), ("再加{n}个{j}", "add", None),
           ("去掉{j}", "remove", None), ("不给{j}用了", "remove", None), ("{j}不用了", "remove", None),
           ("只给{j}用", "only", None), ("如果只给{j}用呢", "only", None), ("如果只有{j}呢", "only", None)]}


def _reader_cases():
    for lang, templates in CHANGES.items():
        for template, change, factor in templates:
            for noun, job in JOBS[lang]:
                for spelled, n in NUMBERS[lang] if "{n}" in template else [("", None)]:
                    yield lang, template.format(j=noun, n=spelled), job, change, factor if factor else n


@pytest.mark.parametrize(("lang", "text", "job", "change", "number"), list(_reader_cases()))
def test_each_change_of_a_named_group_is_read(lang, text, job, change, number):
    said = understand(text).ask.get("group_change") or []
    assert (job, change, number) in [(j, c, n) for j, c, n in said], (text, said)


@pytest.mark.parametrize(("text", "want"), [
    ("what if we double the physicians to 160 and keep the nurses", [("doctor", "set", 160), ("nurse", "keep", None)]),
    ("double the doctors, keep the nurses", [("doctor", "times", 2.0), ("nurse", "keep", None)]),
    ("医生翻倍，护士不变", [("doctor", "times", 2.0), ("nurse", "keep", None)]),
    ("研发三百人，测试不变", [("developer", "set", 300), ("tester", "keep", None)]),
])
def test_a_group_kept_as_it_is_is_read_beside_the_change(text, want):
    assert understand(text).ask.get("group_change") == want


@pytest.mark.parametrize("text", ["keep the nurses", "护士不变", "250 nurses and 160 physicians",
                                  "what if we double the users", "only 3 of the h100s", "drop the context to 8k"])
def test_no_change_of_a_group_is_read_without_one(text):
    assert "group_change" not in understand(text).ask


# ------------------------------------------------------------------ the engine: the groups after the changes

KEPT = (("nurse", 250), ("doctor", 80), ("tester", 30))


@pytest.mark.parametrize(("changes", "groups"), [
    ([("doctor", "times", 2.0), ("nurse", "keep", None)], (("nurse", 250), ("doctor", 160), ("tester", 30))),
    ([("doctor", "set", 160)], (("nurse", 250), ("doctor", 160), ("tester", 30))),
    ([("nurse", "times", 0.5)], (("nurse", 125), ("doctor", 80), ("tester", 30))),
    ([("nurse", "add", 40)], (("nurse", 290), ("doctor", 80), ("tester", 30))),
    ([("support", "add", 40)], (*KEPT, ("support", 40))),
    ([("tester", "remove", None)], (("nurse", 250), ("doctor", 80))),
    ([("nurse", "only", None)], (("nurse", 250),)),
    ([("nurse", "only", None), ("doctor", "only", None)], (("nurse", 250), ("doctor", 80))),
    ([("doctor", "remove", None), ("tester", "times", 2.0)], (("nurse", 250), ("tester", 60))),
])
def test_the_changes_apply_to_the_groups_kept(changes, groups):
    assert changed_groups(KEPT, changes) == groups


@pytest.mark.parametrize("changes", [
    [("nurse", "keep", None)], [("lawyer", "remove", None)], [("lawyer", "times", 2.0)], [("lawyer", "only", None)],
    [("nurse", "only", None), ("doctor", "only", None), ("tester", "only", None)],  # all of them: nothing changes
    [("nurse", "remove", None), ("doctor", "remove", None), ("tester", "remove", None)],  # nobody left: no recount
])
def test_no_change_of_a_group_kept_is_no_recount(changes):
    assert changed_groups(KEPT, changes) is None


@pytest.mark.parametrize("held", ["users", "population"])
def test_the_changed_groups_are_added_up_in_the_slot_that_held_the_sum(held):
    updates: dict = {"users": 40} if held == "users" else {}
    note = regroup(updates, Profile(**{held: 360, "user_groups": KEPT}), {"group_change": [("tester", "remove", None)]})
    assert updates[held] == 330 and updates["user_groups"] == KEPT[:2]
    assert note == ("note.people_listed", {"parts": "250 + 80", "n": "330"})


def test_one_group_left_is_said_as_that_group():
    updates: dict = {}
    note = regroup(updates, Profile(population=360, user_groups=KEPT), {"group_change": [("doctor", "only", None)]})
    assert updates["population"] == 80 and note == ("note.people_one_group", {"n": "80"})


@pytest.mark.parametrize(("ask", "profile", "want"), [
    ({"people_bare": True}, {"population": 260, "users": 38}, {"population": 200, "users": None}),
    ({}, {"population": 260, "users": 38}, {"users": 200}),  # said at once (no bare count): as said
    ({"people_bare": True}, {"users": 38}, {"users": 200}),  # no population before: as said
])
def test_a_bare_count_after_a_population_is_the_population(ask, profile, want):
    updates: dict = {"users": 200}
    regroup(updates, Profile(**profile), ask)
    assert updates == want


@pytest.mark.parametrize(("text", "pending", "bare"), [
    ("改成200人", None, True), ("make it 300 people", None, True), ("actually 300 users", None, True),
    ("改成两百人", None, True), ("200 at once", None, False), ("改成同时200人", None, False),
    ("200 concurrent users", None, False), ("make it 300 people", "users", False)])
def test_a_count_of_people_said_with_no_word_for_at_once_is_bare(text, pending, bare):
    assert understand(text, pending).ask.get("people_bare", False) is bare


# ------------------------------------------------------------------ whole conversations

def _at_once(people: int) -> int:
    return peak_at_once(PeakInput(people=people)).at_once


FIRST = {
    "en2": "hospital network here - 250 nurses and 80 physicians will use gemma-3-27b to summarize shift notes",
    "en3": "an internal assistant on qwen2.5 32b for 120 developers, 40 testers and 60 designers, rent or buy?",
    "zh2": "想部署 Qwen2.5-32B 给研发用，研发两百人，测试六十人，需要什么配置",
    "zh3": "内部助手用 Qwen2.5-32B，研发一百二十人，测试四十人，客服六十人，买卡还是租",
    "en_small": "we're a 9 person startup, 3 backend engs + 6 sales ppl, want a self-hosted chat assistant on "
                "Qwen3-Next-80B-A3B. budget ~35k usd. rent or buy?",
}
CONVERSATIONS = [
    ("en2", "what if we double the physicians to 160 and keep the nurses", 410, (("nurse", 250), ("doctor", 160))),
    ("en2", "double the physicians", 410, (("nurse", 250), ("doctor", 160))),
    ("en2", "what if only the nurses use it", 250, (("nurse", 250),)),
    ("en2", "add forty more nurses", 370, (("nurse", 290), ("doctor", 80))),
    ("en3", "drop the testers", 180, (("developer", 120), ("designer", 60))),
    ("en3", "halve the designers", 190, (("developer", 120), ("tester", 40), ("designer", 30))),
    ("zh2", "如果只给研发用呢", 200, (("developer", 200),)),
    ("zh2", "测试翻倍", 320, (("developer", 200), ("tester", 120))),
    ("zh3", "去掉客服", 160, (("developer", 120), ("tester", 40))),
    ("zh3", "研发改成三百人", 400, (("developer", 300), ("tester", 40), ("support", 60))),
    ("en_small", "add 40 customer success reps who'll use it all day", 49,
     (("engineer", 3), ("sales", 6), ("customer_success", 40))),
]


@pytest.mark.parametrize(("first", "followup", "people", "groups"), CONVERSATIONS)
def test_a_changed_group_recounts_the_people_who_use_it(first, followup, people, groups):
    before, after = run_states([FIRST[first], followup])
    assert before["profile"]["user_groups"], before["profile"]
    profile = after["profile"]
    assert profile["population"] == people and profile["users"] == _at_once(people), (followup, profile)
    assert tuple(tuple(g) for g in profile["user_groups"]) == groups
    reply = after["messages"][-1].content
    assert f"{people:,}" in reply and "didn't understand" not in reply and "没看懂" not in reply


@pytest.mark.parametrize(("first", "followup", "people"), [
    ("zh2", "改成200人", 200), ("zh2", "改成两百人", 200), ("en2", "make it 300 people", 300),
    ("en3", "actually 500 users", 500)])
def test_a_bare_count_after_a_population_stays_a_population(first, followup, people):
    _before, after = run_states([FIRST[first], followup])
    assert after["profile"]["population"] == people and after["profile"]["users"] == _at_once(people)


def test_a_count_said_at_once_after_a_population_is_at_once():
    _before, after = run_states([FIRST["zh2"], "改成同时50人"])
    assert after["profile"]["users"] == 50


# ------------------------------------------------------------------ budgets in other currencies

CURRENCIES = {"EUR": ["{n} EUR", "€{n}", "{n} euros"], "GBP": ["£{n}", "{n} GBP", "{n} pounds", "{n} quid"],
              "USD": ["${n}", "{n} usd", "{n} dollars"], "CNY": ["{n} rmb", "¥{n}", "{n} yuan"]}
AMOUNTS = [("35k", 35_000), ("35,000", 35_000), ("20 thousand", 20_000)]
BUDGET_SAID = ["sorry budget is {m}", "our budget: {m}", "we can spend {m}", "budget of {m}, buy or rent?"]


def _rate(currency: str) -> float:
    r = rules()
    return {"USD": 1.0, "CNY": r.usd_per_cny}.get(currency) or r.usd_per_currency[currency]


@pytest.mark.parametrize(("said", "currency", "form", "spelled", "amount"), [
    (said, cur, form, spelled, amount) for said in BUDGET_SAID for cur, forms in CURRENCIES.items() for form in forms
    for spelled, amount in AMOUNTS])
def test_a_budget_in_a_currency_is_converted_at_the_rate_kept(said, currency, form, spelled, amount):
    text = said.format(m=form.format(n=spelled))
    u = understand(text)
    assert u.updates.get("budget_usd") == pytest.approx(amount * _rate(currency)), (text, u.updates)
    converted = [v for k, v in u.notes if k == "note.currency_converted"]
    if currency in ("USD", "CNY"):
        assert not converted
    else:
        assert converted == [{"amount": f"{amount:,} {currency}", "rate": f"{_rate(currency):g}", "currency": currency,
                              "usd": f"${amount * _rate(currency):,.0f}", "as_of": str(rules().usd_per_currency_as_of)}]


@pytest.mark.parametrize(("text", "usd"), [("预算三万五欧元", 35_000 * 1.16), ("预算两万英镑", 20_000 * 1.33)])
def test_a_chinese_budget_in_euros_or_pounds_is_converted(text, usd):
    assert understand(text).updates.get("budget_usd") == pytest.approx(usd)


@pytest.mark.parametrize(("lang", "restated", "usd", "rate_said"), [
    ("en", "sorry budget is 35k EUR", 40_600, "1.16 USD per EUR"),
    ("en", "actually the budget is £30,000", 39_900, "1.33 USD per GBP"),
    ("zh", "不好意思，预算是三万五欧元", 40_600, "1 EUR = 1.16 美元")])
def test_a_budget_restated_in_another_currency_replaces_the_one_before(lang, restated, usd, rate_said):
    first = {"en": "want a self-hosted chat assistant on qwen2.5 32b for 40 staff. budget ~35k usd. rent or buy?",
             "zh": "想给40个员工部署 Qwen2.5-32B 聊天助手，预算二十五万人民币，买还是租"}[lang]
    _before, after = run_states([first, restated])
    assert after["profile"]["budget_usd"] == pytest.approx(usd)
    assert rate_said in after["messages"][-1].content


# ------------------------------------------------------------------ 'all day'

WORKING = 0.24  # the utilisation table's working hours (words/time.yaml)


@pytest.mark.parametrize("text", [
    "add 40 customer success reps who'll use it all day", "they use it all day", "used all day long",
    "our analysts will be on it all day", "all-day use by the support team", "it runs all day",
    "整天都在用", "他们一整天都用", "客服整天都开着"])
def test_all_day_is_the_working_day_said_as_assumed(text):
    u = understand(text)
    assert u.updates.get("utilisation") == WORKING, (text, u.updates)
    assert ("note.all_day", {}) in u.notes


@pytest.mark.parametrize("text", ["all day and night", "they use it all day every day", "all day, every day",
                                  "all day and all night", "24/7"])
def test_all_day_and_night_is_around_the_clock(text):
    u = understand(text)
    assert u.updates.get("utilisation") == 1.0 and ("note.all_day", {}) not in u.notes


def test_all_day_answers_the_question_how_busy():
    _before, after = run_states([FIRST["en2"] + ", on rented cards", "they use it all day"])
    assert after["profile"]["utilisation"] == WORKING
    assert 'I read "all day" as the working day' in after["messages"][-1].content
