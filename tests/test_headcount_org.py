"""An organisation said as what the speaker is ('我们是国企', "we're a hospital") makes a count of people its staff:
a population, only a share of whom generate at once; a count said at once stays at once."""
from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand

ZH_ORGS = ["我们是国企", "我们是一家三甲医院", "我们是央企", "我们是银行", "我司是集团公司", "我们是一所大学", "我们是事业单位"]
ZH_COUNTS = [("大概200人用", 200), ("差不多300个人会用", 300), ("150人左右使用", 150)]
EN_ORGS = ["we're a hospital", "we are a mid-size bank", "we're a state-owned enterprise", "i work at a university",
           "we are a large insurance company"]
EN_COUNTS = [("about 300 people will use it", 300), ("for 200 people", 200), ("roughly 120 people", 120)]


def _people(text: str) -> dict[str, int]:
    u = understand(text).updates
    return {k: u[k] for k in ("users", "population") if k in u}


@pytest.mark.parametrize("org, count", list(itertools.product(ZH_ORGS, ZH_COUNTS)))
def test_chinese_organisation_makes_a_population(org, count):
    words, n = count
    assert _people(f"{org}，想部署qwen3-32b，{words}") == {"population": n}


@pytest.mark.parametrize("org, count", list(itertools.product(EN_ORGS, EN_COUNTS)))
def test_english_organisation_makes_a_population(org, count):
    words, n = count
    assert _people(f"{org}, want to serve llama 3.3 70b, {words}") == {"population": n}


@pytest.mark.parametrize("text, n", [
    ("我们是国企，部署qwen3-32b，并发50个", 50),
    ("我们是银行，200人同时在线，qwen3-32b", 200),
    ("we're a bank, 200 people at once on llama 3.3 70b", 200),
    ("we are a hospital, 40 concurrent users on qwen3-32b", 40),
])
def test_a_count_said_at_once_stays_at_once(text, n):
    assert _people(text) == {"users": n}


@pytest.mark.parametrize("text, n", [("we are a startup, 10 users on qwen3-8b", 10), ("我们是个小团队，30个人用qwen3-8b", 30)])
def test_a_team_or_startup_is_not_an_organisation_of_staff(text, n):
    assert _people(text) == {"users": n}
