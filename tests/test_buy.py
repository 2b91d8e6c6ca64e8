"""What the user says they will buy (how many cards, a budget, a hobbyist's scale) constrains the plan and its
headline (session 15, reviews AL 5, AL 20, AJ 11): never a count or card class nobody asked about."""

from __future__ import annotations

import re

import pytest

from tests.conversation import run_conversation

PRO = "NVIDIA RTX PRO 6000 Blackwell 96GB"
R5090 = "NVIDIA GeForce RTX 5090 32GB"


def _headline(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("## "))


def _verdict(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith(("**Verdict**", "**结论**")))


HOBBY = [
    ("en", "is the rtx pro 6000 blackwell (the 96gb one) worth it over just getting 2x 5090s? hobby use, mostly want "
           "to play with 70b models and maybe some qlora"),
    ("en", "hobby use: is one rtx pro 6000 96gb worth it over 2x rtx 5090? mostly 70b models, maybe some qlora"),
    ("en", "2x 5090s or a single rtx pro 6000 blackwell 96gb for playing with 70b models at home and a bit of qlora, "
           "just me, which is worth it"),
    ("zh", "业余玩玩，rtx pro 6000 96g 值不值得买，还是买两张5090？主要跑70b模型，偶尔qlora"),
]


@pytest.mark.parametrize(("lang", "text"), HOBBY)
def test_hobbyist_weighs_the_two_setups_named_at_the_precision_that_fits_each(lang: str, text: str) -> None:
    reply = run_conversation([text])[0].content
    head = _headline(reply)
    assert not re.search(r"\b8 × ", head), head  # never a server of cards for one hobbyist
    assert PRO in head and "1 × " in head
    # 2 x 5090 holds 70B at 4-bit: it does the job there, and the two are weighed on what buying each costs
    fits = "：放得下" if lang == "zh" else ": fits"
    at = f"2 × {R5090}（q4_k_m）" if lang == "zh" else f"2 × {R5090} in q4_k_m"
    assert at + fits in reply
    verdict = _verdict(reply)
    assert R5090 in verdict and ("购买价" in verdict if lang == "zh" else "to buy" in verdict)
