"""A speed wish asked as a question ('will it be usable speed wise', '速度能用吗') asks the speed: the answer says it
first, at the usual 4-bit file, and no target is set that pushes the weights below 4 bits (review round O, O2 C2: a
32B model on an M3 Max was put in Q2_K to reach an assumed 15 tokens/s for coding). 'Not too slow' stays a wish."""
from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.reading.literal import literal_kind

EN = ["will it be usable speed wise", "would it be usable speed-wise?", "is it ok speed wise", "will that be fast enough speed wise"]
ZH = ["速度能用吗", "速度上够用吗", "速度跟得上吗"]
EN_JOBS = ["got a macbook pro m3 max 64gb, want to run qwen2.5 32b locally for coding, {said}",
           "{said}? qwen2.5 32b on my 4090"]
ZH_JOBS = ["我有一台 m3 max 64g 想本地跑 qwen2.5 32b 写代码，{said}", "一张4090 跑 qwen2.5 32b，{said}"]


@pytest.mark.parametrize("said, job", list(itertools.product(EN, EN_JOBS)) + list(itertools.product(ZH, ZH_JOBS)))
def test_a_speed_question_sets_no_target_and_asks_the_speed(said, job):
    text = job.format(said=said)
    assert understand(text).updates.get("min_tokens_per_s") is None
    assert literal_kind(text) == "speed"


@pytest.mark.parametrize("text", ["run qwen2.5 32b on my 4090, not too slow please", "4090 跑 qwen2.5 32b，速度别太慢"])
def test_a_wish_stays_a_comfortable_speed(text):
    assert understand(text).updates.get("min_tokens_per_s") == 15.0
