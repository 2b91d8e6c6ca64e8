"""'一张卡够吗？' / 'is one card enough?' with several cards of their own answers on one of them first and keeps them all
(the 4 owned 3090s became 1 owned and 1 rented when the count was read as the cards owned; found at 80×24)."""
from __future__ import annotations

import itertools

import pytest
from conversation import run_conversation

FIRST = {"zh": "我们组有4张3090，想给内部用，大概50人，部署 qwen2.5 14b",
         "en": "we have 4x 3090 in the lab, serve qwen2.5 14b to about 10 people at once"}
ASKED = {"zh": ["一张卡够吗？", "一张卡行吗", "单卡能跑不", "一块卡够不够"],
         "en": ["is one card enough?", "would one card do?", "on a single card?"]}
HEAD = {"zh": ("**单卡", "**能"), "en": ("**Not on one card", "**Yes", "**On one")}


@pytest.mark.parametrize("lang, asked", [(lang, a) for lang in ("zh", "en") for a in ASKED[lang]])
def test_one_of_their_cards_first_and_all_kept(lang, asked):
    reply = run_conversation([FIRST[lang], asked])[-1]
    data = reply.additional_kwargs["gpu_advisor"]
    assert data["profile"]["owned"] == ["4x rtx-3090"]
    assert str(reply.content).startswith(HEAD[lang]), str(reply.content)[:200]
    assert data.get("one_owned", {}).get("gpus") == 1


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_under_the_card_size_but_over_the_engine_share_says_why(lang):
    reply = run_conversation([FIRST[lang], ASKED[lang][0]])[-1]
    first = str(reply.content).split("\n")[0]
    assert ("推理引擎自己要留出一部分" in first) if lang == "zh" else ("the serving engine leaves" in first)


def test_the_reader_marks_every_one_card_question():
    from gpu_advisor.assistant.reading import understand

    for text in itertools.chain(*ASKED.values()):
        u = understand(text)
        assert u.card_count == 1, text
