"""Two number roles from the final review of session 22: a count "in" after a count "out" is the prompt ('200 tokens
out and 1500 in each': the 1,500 was lost, review CA #3), and a deadline said as what someone gives ('老板说只给两天',
'boss says we only get two days': 'Sorry, I didn't understand that', review BY #10)."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand

OUTS, INS = [("200", 200), ("two hundred", 200), ("~300", 300)], [("1500", 1500), ("2k", 2000), ("1,200", 1200)]
JOINS = [" and ", " / ", ", "]
TAILS = [" each", "", " per ticket"]


@pytest.mark.parametrize("out,inp,join,tail", list(itertools.product(OUTS, INS, JOINS, TAILS)))
def test_in_after_out_is_the_prompt(out, inp, join, tail) -> None:
    text = f"2 million tickets to classify with llama 3.1 8b, roughly {out[0]} tokens out{join}{inp[0]} in{tail}, 5 days"
    u = understand(text, None)
    assert (u.updates.get("batch_input_tokens"), u.updates.get("batch_output_tokens")) == (inp[1], out[1]), u.updates


GIVEN = {"zh": ["老板说只给{n}天", "只给{n}天", "老板只给{n}天时间", "上面只给了我们{n}天"],
         "en": ["boss says we only get {n} days", "they only gave us {n} days", "we just get {n} days now"]}
DAYS = {"zh": [("两", 2), ("3", 3), ("五", 5)], "en": [("two", 2), ("3", 3), ("five", 5)]}


@pytest.mark.parametrize("lang,form,days", [(lang, f, d) for lang in GIVEN for f in GIVEN[lang] for d in DAYS[lang]])
def test_days_given_are_the_deadline(lang, form, days) -> None:
    u = understand(form.format(n=days[0]), None)
    assert u.updates.get("deadline_hours") == days[1] * 24, (form, u.updates)


def test_a_count_given_people_is_no_deadline() -> None:
    assert understand("只给30个人用", None).updates.get("deadline_hours") is None
