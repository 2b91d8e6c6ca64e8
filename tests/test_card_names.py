"""Card names are shown as they are in every language's reply: they hold a vendor, a model and a memory size, never
English prose ('per die', 'card', 'package'), which would put English words into a Chinese reply (review AD/AF)."""

from __future__ import annotations

import re

from gpu_advisor.knowledge import find_gpu, gpus

PROSE = re.compile(r"\b(?:per|each|card|cards|package|chip|chips|die|with|of|and|the|for)\b", re.IGNORECASE)


def test_no_card_name_holds_english_prose():
    prose = {g.id: g.name for g in gpus() if PROSE.search(g.name)}
    assert not prose, prose


def test_the_ascend_npus_are_named_per_npu():
    assert find_gpu("ascend-910c").name == "Huawei Ascend 910C NPU 64GB"
    assert find_gpu("ascend-310p").name == "Huawei Ascend 310P NPU 48GB"
