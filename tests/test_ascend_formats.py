"""Checkpoints in formats Ascend's engines cannot load (FP8, MXFP4, NVFP4) are converted to W8A8 INT8 on
Ascend cards and said so; on CUDA cards the checkpoint's own format stays (vllm-ascend issue #7131: the
published gpt-oss MXFP4 weights fail there)."""
from __future__ import annotations

import pytest
from conversation import run_conversation

from gpu_advisor.knowledge import find_precision
from gpu_advisor.knowledge.loader import gpus, models
from gpu_advisor.tools.recommend import Workload, serving_precision

CONVERTED = [m for m in models() if m.native_precision and find_precision(m.native_precision).unconverted_stacks]
ASCEND = [g for g in gpus() if g.stack == "cann"]


def test_the_formats_marked_are_the_fp8_and_fp4_ones():
    marked = {p for p in ("fp8", "mxfp4", "nvfp4", "bf16", "int8", "w8a8-int8", "awq")
              if find_precision(p).unconverted_stacks}
    assert marked == {"fp8", "mxfp4", "nvfp4"}
    assert {m.id for m in CONVERTED} >= {"gpt-oss-120b", "gpt-oss-20b", "deepseek-v3"}
    assert ASCEND


@pytest.mark.parametrize("model", CONVERTED, ids=lambda m: m.id)
def test_every_such_checkpoint_is_w8a8_on_every_ascend_card(model):
    w = Workload(model=model.id)
    for gpu in ASCEND:
        assert serving_precision(w, model, gpu) == "w8a8-int8"
    assert serving_precision(w, model, next(g for g in gpus() if g.id == "h20")) == model.native_precision


def test_a_format_the_user_asks_for_is_kept():
    model = next(m for m in models() if m.id == "gpt-oss-120b")
    assert serving_precision(Workload(model=model.id, serve_precision="bf16"), model, ASCEND[0]) == "bf16"


@pytest.mark.parametrize("turns, words", [
    (["gpt-oss-120b 部署给 60 个人同时用，只用国产卡，昇腾910B 要几张", "全天候"], "加载不了模型官方的 mxfp4 权重"),
    (["serve gpt-oss-120b for 60 concurrent users on huawei ascend 910b only", "24/7"], "cannot load the checkpoint's own mxfp4"),
    (["we need gpt-oss-20b for 20 users at once, domestic chips only, 910B", "around the clock"], "converted to w8a8-int8"),
])
def test_the_reply_says_the_conversion(turns, words):
    reply = run_conversation(turns)[-1].content
    assert words in reply
    assert "Ascend 910B" in reply.split("\n", 1)[0]
