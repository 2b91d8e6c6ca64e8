"""Messages with two parts get both answered: two models on one machine are both sized (each on its own share of
the cards, per-card memory, whether each meets its users) with one yes/no for the whole machine first; a 'does it
fit' question about a machine never headlines 'Buy'.

Generated over joiners, word orders, fillers and both languages; asserts codes and figures (models, card split,
fits, language), not prose.
"""

from __future__ import annotations

import itertools
import re

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.tools.pair import PairInput, pair
from gpu_advisor.tools.recommend import Workload
from tests.conversation import run_conversation

A, B = "llama-3.3-70b", "qwen2.5-coder-32b"
NAMES_A = ["Llama 3.3 70B", "llama3.3 70b", "llama-3.3-70b"]
NAMES_B = ["Qwen2.5-Coder 32B", "qwen2.5 coder 32b", "qwen2.5-coder-32b"]
JOIN_EN = [" and ", " & ", ", "]
JOIN_ZH = ["和", "跟", "、", "与"]

EN = ["I want to run two models on one 8xH100 node: {a} for chat{j}{b} for code, 30 users each. Does it fit?",
      "{a} for chat{j}{b} for code on one 8xH100 node, 30 users each, will it fit?",
      "we have a node with 8 H100s; {a}{j}{b} together, 30 concurrent users on each. enough?",
      "can one 8x h100 server host {a}{j}{b} at the same time for 30 users each?"]
ZH = ["我想在一台8卡H100上同时跑{a}（聊天）{j}{b}（写代码），各30个人用，放得下吗？",
      "一台8卡H100，同时部署{a}{j}{b}，每个模型30人，够吗？",
      "8张H100上跑 {a}{j}{b}，各30个用户，能不能放下",
      "想在8卡H100服务器上同时部署两个模型：{a} 给聊天用，{b} 给写代码用，每个30人并发，放得下吗"]


def _cases(templates: list[str], joins: list[str]) -> list[str]:
    out = []
    for i, (t, j, a, b) in enumerate(itertools.product(templates, joins, NAMES_A, NAMES_B)):
        if i % 3 == 0:  # a spread of the combinations, every template and joiner kept
            out.append(t.format(a=a, b=b, j=j))
    return out


@pytest.mark.parametrize("text", _cases(EN, JOIN_EN) + _cases(ZH, JOIN_ZH))
def test_two_models_side_by_side_are_both_read(text: str) -> None:
    u = understand(text)
    assert u.updates["model"] == A, text
    assert u.second is not None and u.second["model"] == B, text
    assert u.second["together"] is True, text
    assert u.updates.get("users") == 30 and u.second["users"] == 30, text  # "30 users each", "各30个人"
    assert not [k for k, _v in u.notes if k == "note.model_other"], text  # both sized: no "you named X too"


@pytest.mark.parametrize("text", ["compare llama 3.1 8b and qwen2.5 7b on a 4090",
                                  "llama 3.1 8b vs qwen2.5 7b, which is faster on a 4090?",
                                  "llama 3.1 8b还是qwen2.5 7b，哪个在4090上更快？"])
def test_a_comparison_is_not_two_models_served(text: str) -> None:
    assert understand(text).second is None


def test_split_puts_each_model_on_its_own_cards() -> None:
    first = Workload.model_validate({"phase": "serve", "model": A, "users": 30})
    second = Workload.model_validate({"phase": "serve", "model": B, "users": 30})
    r = pair(PairInput(first=first, second=second, gpu="h100-sxm", gpus=8, together=True))
    assert [(s.model, s.gpus, s.tp) for s in r.split] == [(A, 4, 4), (B, 4, 4)]
    assert all(s.ok and s.per_gpu_bytes < s.capacity_bytes for s in r.split)
    one = Workload.model_validate({"phase": "serve", "model": "qwen2.5-7b", "users": 1})
    copies = pair(PairInput(first=one, second=one, gpu="rtx-4090", gpus=2, together=True))
    assert [(s.gpus, s.tp) for s in copies.split] == [(1, 1), (1, 1)]  # one copy per card
    apart = pair(PairInput(first=first, second=second, gpu="h100-sxm", gpus=8, together=False))
    assert apart.split == []  # taking turns: no split


def _reply(text: str):
    return run_conversation([text])[-1]


CONV = [("I want to run two models on one 8xH100 node: Llama 3.3 70B for chat and Qwen2.5-Coder 32B for code, 30 users "
         "each. Does it fit?", "en", [4, 4]),
        ("run llama 3.3 70b and qwen2.5-coder 32b on one 8xH100 node, 30 users each, does it fit?", "en", [4, 4]),
        ("我想在一台8卡H100上同时跑Llama 3.3 70B（聊天）和Qwen2.5-Coder 32B（写代码），各30个人用，放得下吗？", "zh", [4, 4]),
        ("一台8卡H100，同时部署Llama 3.3 70B和Qwen2.5-Coder 32B，每个模型30人，够吗？", "zh", [4, 4]),
        ("on 4x A100 80GB: qwen2.5 32b for 20 users and llama 3.1 8b for 50 users, both at once, does it fit?", "en",
         [2, 2]),
        ("4张A100 80G，qwen2.5 32b 20人用，llama 3.1 8b 50人用，同时跑，行不行？", "zh", [2, 2]),
        ("llama 3.1 8b on gpu 0 and qwen2.5 7b on gpu 1 of my 2x rtx 4090, 5 users each, does it fit?", "en", [1, 1]),
        ("两张4090，每张卡跑一个qwen2.5 7b，能行吗", "zh", [1, 1]),
        ("two instances of qwen2.5 7b on my two rtx 4090s, one per card, 3 users each, does it fit?", "en", [1, 1]),
        ("2x rtx 4090: one copy of llama 3.1 8b on each card for 4 users each, will it work?", "en", [1, 1])]


@pytest.mark.parametrize("text,lang,split", CONV)
def test_both_models_sized_with_a_verdict_first(text: str, lang: str, split: list[int]) -> None:
    m = _reply(text)
    kw = m.additional_kwargs["gpu_advisor"]
    pair_result = kw["results"]["pair"]
    assert [s["gpus"] for s in pair_result["split"]] == split, text
    copies = len({s["model"] for s in pair_result["split"]}) == 1  # the same model twice: one copy per share
    assert kw["pinned"]["code"] == ("copies_yes" if copies else "split_yes") and kw["pinned"]["fits"] is True, text
    assert kw["pinned"]["split"] == split, text
    first = m.content.split("\n\n")[0]
    assert first.startswith("**Yes**" if lang == "en" else "**能**"), text
    head = next(p for p in m.content.split("\n\n") if p.startswith("## "))
    assert not re.search(r"\bBuy\b|购买|Rent\b|租用", head), head  # a fit question about a machine: never "buy"
    for s in pair_result["split"]:  # each model's own GB per card is said
        assert f"{s['per_gpu_bytes'] / 1e9:.1f} GB" in m.content, text
    if lang == "zh":
        assert "You named" not in m.content and "named" not in m.content


@pytest.mark.parametrize("text,lang", [("does llama 3.3 70b fit on one 8xH100 node for 100 users?", "en"),
                                       ("llama 3.3 70b 100个人用，一台8卡H100放得下吗？", "zh"),
                                       ("will qwen2.5 32b fit on a single 8x h100 server for 30 users?", "en"),
                                       ("qwen2.5 32b，30人用，一台8卡H100服务器装得下吗", "zh")])
def test_a_fit_question_about_a_machine_never_headlines_buy(text: str, lang: str) -> None:
    m = _reply(text)
    head = next(p for p in m.content.split("\n\n") if p.startswith("## "))
    assert head.startswith("## It fits" if lang == "en" else "## 放得下"), head
    assert m.additional_kwargs["gpu_advisor"]["pinned"]["fits"] is True


# ---------------------------------------------------------------- two questions in one message: each answered first

TWO_Q = [("how many GPUs do I need for llama 3.1 70b for 50 users, and how much will it cost per month?", "en"),
         ("serving qwen2.5 32b to 40 people: how many A100s do I need and what's the monthly cost?", "en"),
         ("for qwen2.5 32b with 40 users, what's the monthly cost and how many cards do we need?", "en"),
         ("qwen2.5 32b 给40个人用，需要几张A100？每个月多少钱？", "zh"),
         ("llama 3.1 70b 50人并发，要几张卡，一个月要花多少钱", "zh"),
         ("一个月要花多少钱？要几张卡？qwen2.5 32b，40个人用", "zh")]


@pytest.mark.parametrize("text,lang", TWO_Q)
def test_count_and_month_both_answered_first(text: str, lang: str) -> None:
    m = _reply(text)
    kw = m.additional_kwargs["gpu_advisor"]
    assert kw["kind"] == "answer", text  # answered now, not a clarifying question first
    best = kw["results"]["recommend"]["best"]
    cards = f"{best['gpus']} × {best['gpu_name']}"
    before = m.content.split("\n## ")[0]  # everything above the plan's headline
    assert cards in before, text
    month = "a month" if lang == "en" else "每月"
    assert month in before, text
    count_at = before.index("You need" if lang == "en" else "需要")
    month_at = before.index(month if lang == "en" else "**每月")
    asked_count_first = min(text.find(w) for w in ("how many", "几张", "要几") if w in text) < min(
        text.find(w) for w in ("month", "一个月", "每个月") if w in text)
    assert (count_at < month_at) == asked_count_first, text  # in the order asked


FIT_SPEED = [("does qwen2.5 14b fit on a 4090 and how fast will it be?", "en"),
             ("qwen2.5 14b 一张4090 放得下吗 速度怎么样", "zh"),
             ("qwen2.5 14b 一张4090 能放下吗？速度多少？", "zh"),
             ("llama 3.1 8b on one rtx 4090: does it fit and what's the throughput?", "en")]


@pytest.mark.parametrize("text,lang", FIT_SPEED)
def test_fit_and_speed_both_answered_first(text: str, lang: str) -> None:
    m = _reply(text)
    before = m.content.split("\n## ")[0]
    assert before.startswith("**Yes**" if lang == "en" else "**能**"), text
    assert ("tokens/s" if lang == "en" else "token/s") in before, text
    head = next(p for p in m.content.split("\n\n") if p.startswith("## "))
    assert not re.search(r"\bBuy\b|\bRent\b|购买|租用", head), head


# ---------------------------------------------------------------- 'good enough for daily use?': a direct yes or no

DAILY = [("qwen2.5 14b on a single rtx 4090, good enough for daily use?", "en", True),
         ("is llama 3.1 8b on a 3060 12gb usable for everyday chat?", "en", True),
         ("llama 3.1 8b on one rtx 4090 - is that ok for day-to-day use?", "en", True),
         ("qwen2.5 32b 4bit 一张3090 够不够日常用", "zh", True),
         ("一张4090跑qwen2.5 14b日常用够吗", "zh", True),
         ("一张4090跑qwen2.5 14b，日常使用可以吗", "zh", True)]


@pytest.mark.parametrize("text,lang,yes", DAILY)
def test_daily_use_gets_a_yes_or_no_first(text: str, lang: str, yes: bool) -> None:
    m = _reply(text)
    kw = m.additional_kwargs["gpu_advisor"]
    assert kw["kind"] == "answer", text
    first = m.content.split("\n\n")[0]
    want = ("**Yes, good enough" if lang == "en" else "**够日常用**") if yes else ("**No" if lang == "en" else "**不够")
    assert first.startswith(want), first
    o = kw["results"]["recommend"]["best"]
    assert o["gpus"] == 1 and f"{o['decode_tokens_per_s']:.0f}" in first, first  # the speed it is judged on
    assert kw["profile"]["users"] in (None, 1), text  # one person's everyday use
    head = next(p for p in m.content.split("\n\n") if p.startswith("## "))
    assert not re.search(r"\bBuy\b|\bRent\b|购买|租用", head), head


@pytest.mark.parametrize("text,lang", [
    ("serve qwen2.5 72b for 100 users and llama 3.1 8b for 200 users on 8 H100, both fit?", "en"),
    ("8卡H100，qwen2.5 72b 给100人用，另外llama 3.1 8b给200人用，放得下吗", "zh")])
def test_two_models_that_do_not_fit_get_a_no_and_no_fits_headline(text: str, lang: str) -> None:
    m = _reply(text)
    kw = m.additional_kwargs["gpu_advisor"]
    assert kw["pinned"]["code"] in ("no", "none") and kw["pinned"]["fits"] is False, text
    assert m.content.startswith("**No**" if lang == "en" else "**不能**"), text
    head = next(p for p in m.content.split("\n\n") if p.startswith("## "))
    assert not head.startswith(("## It fits", "## 放得下")) and not re.search(r"\bBuy\b|购买", head), head
    assert "Llama 3.1 8B" in head, head  # the one that needs cards of its own
