"""Issue 8, counted right: with pipeline parallelism the token embeddings sit on the first stage and the
output head on the last, so the fullest stage holds its share of the layers plus one vocabulary x hidden
matrix, not an even split of everything."""

from __future__ import annotations

import pytest

from gpu_advisor.tools.inference import InferenceMemoryInput, inference_memory

# Llama 3.1 8B: vocabulary 128,256 x hidden 4,096 = 525.3M values per matrix, untied (two matrices)
MATRIX = 128_256 * 4_096


@pytest.mark.parametrize("pp", [2, 4])
def test_the_fullest_stage_holds_the_layers_share_and_one_embedding_matrix(pp):
    r = inference_memory(InferenceMemoryInput(model="llama-3.1-8b", precision="bf16", pp=pp, context=4096))
    body = r.weights_bytes - 2 * MATRIX * 2
    assert r.per_gpu_weights_bytes == pytest.approx(body / pp + MATRIX * 2)
    assert any("the token embeddings on the first stage" in a for a in r.assumptions)


def test_tensor_parallelism_still_splits_a_stage_evenly():
    r = inference_memory(InferenceMemoryInput(model="llama-3.1-8b", precision="bf16", pp=4, gpus=2, context=4096))
    body = r.weights_bytes - 2 * MATRIX * 2
    assert r.per_gpu_weights_bytes == pytest.approx((body / 4 + MATRIX * 2) / 2)


def test_without_pipeline_stages_nothing_changes():
    one = inference_memory(InferenceMemoryInput(model="llama-3.1-8b", precision="bf16", context=4096))
    assert one.per_gpu_weights_bytes == one.weights_bytes
