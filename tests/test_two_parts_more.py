"""Two-part questions and corrections inside one message (h-twopart): a weight-format comparison gets each
format's published gap, its memory, a speed note and a verdict; two questions in one message each keep their own
model and job and both are answered; a correction in the same message replaces every slot it names."""

from __future__ import annotations

from typing import Any

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import payload, run_conversation, unexplained_numbers


def _results(reply: Any) -> dict[str, Any]:
    data = payload(reply)
    assert unexplained_numbers(reply.content, data.get("results") or {}) == [], reply.content
    return dict(data.get("results") or {})


def _zh(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


# ---------------------------------------------------------------- FP8 against INT4, weighed with no plan

WEIGH = {
    "en": ["fp8 vs int4 for a {m} model — which one loses more quality and why?",
           "when would i pick FP8 vs INT4 for serving a {m} model",
           "int4 or fp8 for a {m}, which is better?",
           "which loses more accuracy on a {m}: int4 or fp8",
           "for a {m} model should i go with fp8 or int4? trade-offs?",
           "fp8 vs int4 which loses more quality"],
    "zh": ["{m}模型用fp8还是int4，选哪个", "FP8和INT4哪个精度损失更大", "{m} 的模型，INT4 和 FP8 哪个掉点更多，为什么",
           "部署{m}模型，什么时候用FP8，什么时候用INT4", "int4 跟 fp8 对 {m} 模型来说哪个更好"],
}


@pytest.mark.parametrize(("lang", "phrase", "size"),
                         [(lang, p, s) for lang, ps in WEIGH.items() for p in ps for s in ("70B", "32B")])
def test_two_formats_weighed_get_gaps_memory_speed_and_a_verdict(lang: str, phrase: str, size: str) -> None:
    text = phrase.format(m=size)
    reply = run_conversation([text])[0]
    data = _results(reply)
    verdict = data["precision_verdict"]
    assert set(verdict["formats"]) == {"fp8", "int4"}, reply.content
    assert verdict["loses_more"] == "int4"
    assert verdict["gaps"] == {"fp8": [0, 0], "int4": [1, 3]}
    assert verdict["sources"]["int4"].startswith("arXiv:")
    assert verdict["gb_per_b_params"]["int4"] < verdict["gb_per_b_params"]["fp8"]
    if "{m}" in phrase:  # the size named: each format's memory for it
        rows = {r["precision"]: r for r in data["precision_compare"]["rows"]}
        assert data["precision_compare"]["model"] == size
        assert rows["int4"]["weights_bytes"] < rows["fp8"]["weights_bytes"]
    assert ("结论" if lang == "zh" else "Verdict") in reply.content
    assert _zh(reply.content) == (lang == "zh")


@pytest.mark.parametrize(("lang", "pair", "loser"), [
    ("en", "bf16 vs int4, which is better", "int4"), ("en", "q8 or q4 which loses more", "int4"),
    ("zh", "BF16和FP8选哪个", "fp8"), ("zh", "8bit和4bit哪个好", "int4")])
def test_any_two_widths_weighed_name_the_narrower_loser(lang: str, pair: str, loser: str) -> None:
    reply = run_conversation([pair])[0]
    assert _results(reply)["precision_verdict"]["loses_more"] == loser, reply.content


def test_a_sizing_with_users_stays_a_sizing() -> None:
    """'serve llama 3.1 70b to 50 users, fp8 or int4?' is a plan to make, not a format comparison alone."""
    u = understand("serve llama 3.1 70b to 50 users, fp8 or int4 which is better?")
    assert not u.ask.get("verdict") or u.updates.get("users")
