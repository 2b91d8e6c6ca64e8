"""'How fast would it be?' gets its figure first (tokens a second for one user on the card asked about), and 'can I
run X on Y' is a yes/no question about fitting, in both languages and whatever the filler."""
from __future__ import annotations

import itertools

import pytest
from conversation import run_conversation

from gpu_advisor.assistant.reading.literal import literal_kind

SPEED = ("how fast would {m} be on my 4090", "{m} on a 3090, how many tokens per second?", "how fast is {m} on 2x a100",
         "what tok/s for {m} on a 4090", "{m} 在 4090 上速度能有多少", "4090 跑 {m} 多快", "{m} 每秒能生成多少 token",
         "{m} 速度怎么样，单卡3090")
FITS = ("can i run {m} on a 3060 12gb", "could we host {m} on one a100?", "can i fit {m} on my 4090",
        "is it possible to run {m} on 2x3090")
MODELS = ("qwen2.5 7b", "Llama-3.1-8B", "glm-4-9b")
FILLERS = ("", "hey, ", "请问 ")


@pytest.mark.parametrize("text", [f + t.format(m=m) for t, m, f in itertools.product(SPEED, MODELS, FILLERS)])
def test_speed_questions_are_read(text):
    assert literal_kind(text) == "speed"


@pytest.mark.parametrize("text", [f + t.format(m=m) for t, m, f in itertools.product(FITS, MODELS, FILLERS)])
def test_can_i_run_is_a_fits_question(text):
    assert literal_kind(text) == "fits"


# (for coding: the 16,384-token context a coding assistant is sized for, knowledge/data/use_cases.yaml)
@pytest.mark.parametrize("text, first", [
    ("想在 3060 12g 上跑 qwen2.5 7b 给自己写代码用 速度能有多少", "**每个用户约 33 token/s**（1 × NVIDIA GeForce RTX 3060 12GB，q8_0）。"),
    ("how fast would qwen2.5 7b be on my 3060 12gb, just me", "**About 35 tokens/s** for one user on 1 × NVIDIA GeForce "
                                                              "RTX 3060 12GB (q8_0)."),
    ("can i run qwen2.5 7b on a 3060 12gb for coding, just me", "**Yes**: it fits on 1 × NVIDIA GeForce RTX 3060 12GB, "
                                                                "9.8 GB of the 12.8 GB usable per GPU (GB are 10⁹ "
                                                                "bytes: the card's 12 GiB are 12.9 GB, less what the "
                                                                "driver keeps)."),
])
def test_the_literal_line_comes_first(text, first):
    reply = run_conversation([text])[0].content
    assert reply.split("\n")[0] == first


def test_no_speed_line_for_a_training_job():
    reply = run_conversation(["how fast would a lora of llama 3.1 8b train on my 4090, 10k examples"])[0].content
    assert "tokens/s** for one user" not in reply
