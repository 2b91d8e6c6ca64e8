"""The literal question a sizing message asks (round J review, class 1): read as a typed kind, in both
languages, whatever the filler, spelling or order around it."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading.literal import LITERAL_KINDS, literal_kind

MODELS = ("Qwen3-32B", "qwen3 32b", "Llama-3.1-8B", "llama 70b")
FILLERS_EN = ("", "hey, ", "ok so ", "quick one: ")
FILLERS_ZH = ("", "请问", "那个，", "老师好，")

EN = {
    "fits": ("will {m} fit on 2x 3090?", "Will it fit?", "can 4090 run {m}", "is 24GB enough for {m}?",
             "does {m} fit on one A100?", "would this work on my 3090 with {m}"),
    "duration": ("how long will it take to fine-tune {m}?", "How long does training {m} take",
                 "how many hours for {m} on 8 H100s", "what's the ETA for {m}"),
    "monthly": ("what's that per month for {m}?", "how much a month to serve {m}", "monthly cost for {m}?",
                "what is it per mo"),
    "versus": ("A100 or 4090 for {m}", "a100 vs 4090 for {m}?", "would zero2 be faster than zero3 here for {m}",
               "H100 versus H200 for {m}"),
}
ZH = {
    "fits": ("家里两张3090，想跑{m}，能不能不量化直接跑？", "{m}能跑吗", "一张4090跑得动{m}吗", "24G显存够不够跑{m}",
             "{m}放得下吗"),
    "duration": ("微调{m}要多久", "训练{m}需要几个小时", "{m}跑完要多长时间"),
    "monthly": ("部署{m}每月多少钱", "{m}一个月多少", "按月算{m}每个月要多少"),
    "versus": ("{m}用A100还是4090", "A100和4090哪个好，跑{m}", "zero2比zero3快吗，训{m}"),
}


def _cases(table: dict[str, tuple[str, ...]], fillers: tuple[str, ...]) -> list[tuple[str, str]]:
    return [(f + t.format(m=m), kind) for kind, texts in table.items()
            for t, m, f in itertools.product(texts, MODELS, fillers)]


@pytest.mark.parametrize(("text", "kind"), _cases(EN, FILLERS_EN) + _cases(ZH, FILLERS_ZH))
def test_literal_kind_read(text: str, kind: str) -> None:
    assert literal_kind(text) == kind
    assert literal_kind(text.upper()) == kind  # spelling: case does not matter
    assert literal_kind(text.replace("?", "？")) == kind  # full-width punctuation reads the same


@pytest.mark.parametrize("text", [
    "fine-tune llama 8b on 1000 samples", "serve qwen3 32b to 50 users", "微调Qwen3-8B，数据一万条",
    "我有两张3090，部署Qwen3-32B", "I own 4 A100s, plan a LoRA run for Llama 70B",
])
def test_no_literal_question(text: str) -> None:
    assert literal_kind(text) is None


def test_kinds_are_codes() -> None:
    assert LITERAL_KINDS == ("duration", "monthly", "daily", "count", "speed", "more", "fits", "memory", "versus")
    assert all(k.isascii() and k.isidentifier() for k in LITERAL_KINDS)


@pytest.mark.parametrize(("turn", "first"), [
    ("I have 2x 3090, will Qwen3-8B fit, just for me?", "**Yes**: it fits on 2 × NVIDIA GeForce RTX 3090 24GB"),
    ("i have 2 x 3090. can it run qwen3 8b? only me", "**Yes**: it fits on 2 × NVIDIA GeForce RTX 3090 24GB"),
    ("I have 2x 3090, will Qwen3-32B fit unquantized for just me?",
     "## Not whole in F16 on your 2 × NVIDIA GeForce RTX 3090 24GB: Q4_K_M fits whole"),  # the owned cards' headline
    ("家里两张3090，就我自己用，Qwen3-8B能跑吗", "**能**：2 × NVIDIA GeForce RTX 3090 24GB 放得下"),
    ("家里两张3090，就我自己用，Qwen3-8B 放得下吗？", "**能**：2 × NVIDIA GeForce RTX 3090 24GB 放得下"),
])
def test_fits_question_answered_first(turn: str, first: str) -> None:
    from conversation import run_conversation

    reply = run_conversation([turn])[-1].content
    assert reply.splitlines()[0].startswith(first), reply.splitlines()[0]


def test_no_fits_line_without_the_question() -> None:
    from conversation import run_conversation

    reply = run_conversation(["I have 2x 3090, serve Qwen3-8B just for me"])[-1].content
    assert not reply.startswith(("**Yes**", "**No**"))


@pytest.mark.parametrize(("turn", "first"), [
    ("LoRA fine-tune Llama 3.1 8B on 20k samples, how long will it take?",
     "**About 2.9 hours** on 1 × NVIDIA GeForce RTX 4090 24GB"),
    ("用LoRA微调Llama 3.1 8B，数据两万条，要多久？", "**大约 2.9 小时**（1 × NVIDIA GeForce RTX 4090 24GB）"),
    ("serve Qwen3-32B to 20 users 24/7, renting, what's that per month?", "**$1,591 a month** on 2 × NVIDIA L40S 48GB"),
    ("部署Qwen3-32B给20个人用，全天24小时，租卡，每月多少钱？", "**每月 ¥7,665 ($1,073)**（1 × NVIDIA H20 96GB）"),
])
def test_duration_and_monthly_answered_first(turn: str, first: str) -> None:
    from conversation import run_conversation

    reply = run_conversation([turn])[-1].content
    assert reply.splitlines()[0].startswith(first), reply.splitlines()[0]
