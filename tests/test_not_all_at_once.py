"""A count of people said not to be on all at once ('30 colleagues, not all at once', '30个同事用，不是同时在线') is
everyone who uses it, whatever noun names them: the population, sized at the share at once, never the count at once.
Said at once ('30 users at once', '30个人同时用'), the same count stays people at once."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand

EN_COUNTS = ["30 colleagues", "30 people", "30 users", "thirty people", "30 teammates"]
EN_NOT = ["not all at once", "they won't all be on at the same time", "never all at once",
          "not concurrent", "but not simultaneously"]
ZH_COUNTS = ["30个同事", "30个人", "三十个人", "30个用户", "30位同事"]
ZH_NOT = ["不是同时在线", "不会同时用", "大家不会都同时用", "不是所有人同时在用", "不会同时在线"]


def _en() -> list[str]:
    out = []
    for (count, neg), order in itertools.product(itertools.product(EN_COUNTS, EN_NOT), range(2)):
        out.append(f"serve qwen2.5 14b for {count}, {neg}" if order == 0
                   else f"{count} will use qwen2.5 14b ({neg}), what do we need")
    return out


def _zh() -> list[str]:
    out = []
    for (count, neg), order in itertools.product(itertools.product(ZH_COUNTS, ZH_NOT), range(2)):
        out.append(f"给{count}用qwen2.5 14b，{neg}" if order == 0 else f"{neg}，{count}要用qwen2.5 14b，需要什么卡")
    return out


@pytest.mark.parametrize("text", _en() + _zh())
def test_people_said_not_all_at_once_are_a_population(text: str) -> None:
    u = understand(text, None)
    assert u.updates.get("population") == 30, u.updates
    assert "users" not in u.updates
    assert u.updates["model"] == "qwen2.5-14b"


@pytest.mark.parametrize("text", ["serve qwen2.5 14b for 30 users at once", "30个人同时用qwen2.5 14b",
                                  "qwen2.5 14b, 30 concurrent users", "给30个人用qwen2.5 14b"])
def test_people_said_at_once_or_plainly_stay_at_once(text: str) -> None:
    u = understand(text, None)
    assert u.updates.get("users") == 30, u.updates
    assert "population" not in u.updates


@pytest.mark.parametrize(("org", "noun"), itertools.product(
    ["公司里", "办公室的", "部门", "单位里", "医院里的", "律所"], ["30个人", "30个同事", "30位员工"]))
def test_people_of_a_workplace_said_before_the_count_are_its_staff(org: str, noun: str) -> None:
    for text in (f"给{org}{noun}用qwen2.5 14b", f"想部署qwen2.5 14b，{org}{noun}用"):
        u = understand(text, None)
        assert u.updates.get("population") == 30, (text, u.updates)
        assert "users" not in u.updates
    u = understand(f"{org}{noun}同时用qwen2.5 14b", None)
    assert u.updates.get("users") == 30, u.updates
