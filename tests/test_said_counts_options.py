"""The counts said with the cards are the options ('2x used 3090 or one 5090 … 70b'): a card said as one is weighed
as one card, short of the job or not, never at the count the job would need; a card said with no count ('or rent
H100s') is weighed at the count that does the job."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import payload, run_conversation

ONE = {"en": ["one {b}", "a single {b}", "1x {b}"], "zh": ["一张 {b}", "一块{b}", "1 张 {b}"]}
PAIRS = [("3090", "5090", "rtx-3090", "rtx-5090"), ("4090", "5090", "rtx-4090", "rtx-5090")]


def _text(lang: str, two: str, one: str) -> str:
    return f"2x {two} or {one} for running 70b models locally?" if lang == "en" else f"本地跑 70b 模型，2x {two} 还是{one}？"


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("form", [0, 1, 2])
@pytest.mark.parametrize(("a", "b", "a_id", "b_id"), PAIRS)
def test_a_card_said_as_one_is_read_as_one(lang, form, a, b, a_id, b_id):
    u = understand(_text(lang, a, ONE[lang][form].format(b=b)))
    # h-fixa's counts_said keeps a count of one said as a count ('one 5090': {5090: 1}) beside h-xfail's said_one
    assert u.counts.get(a_id) == 2 and u.counts.get(b_id, 1) == 1 and set(u.counts) <= {a_id, b_id}
    assert u.ask.get("said_one") == [b_id]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(("a", "b", "a_id", "b_id"), PAIRS)
def test_the_card_said_as_one_is_weighed_as_one(lang, a, b, a_id, b_id):
    reply = run_conversation([_text(lang, a, ONE[lang][0].format(b=b))])[-1]
    also = next(x for x in payload(reply).get("also") or [] if x["code"] == "compare_cards")
    sized = {(o["gpu"], o["gpus"]): o["ok"] for o in also["options"]}
    assert sized == {(a_id, 2): True, (b_id, 1): False}  # one 5090 cannot hold a 70B at 4-bit: said why
    assert also["verdict"] == {"code": "only", "pick": a_id}


@pytest.mark.parametrize("text", ["2x 3090 or a 5090 for 70b?", "two 3090s or 5090s for local llm, 70b",
                                  "buy one 8x H20 or rent H100s"])
def test_a_card_said_without_a_count_is_not_said_as_one(text):
    assert not understand(text).ask.get("said_one")
