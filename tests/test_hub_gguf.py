"""Issue 8, GGUF repositories: a repository of GGUF files only (no config.json) is sized by the size in its
name for its shape and by its own files for the weights, shards summed, vision projectors left out."""

from __future__ import annotations

import os

import pytest

from gpu_advisor.knowledge import resolve_model
from gpu_advisor.knowledge.resolve import gguf_files_by_precision
from gpu_advisor.tools.inference import InferenceMemoryInput, inference_memory
from tests.hf_cache import offline, place

REPO = "unsloth/Kimi-Dev-72B-GGUF"
# Kimi-Dev-72B has Qwen2.5-72B's shape; sizes as bartowski/Qwen2.5-72B-Instruct-GGUF lists them (Q4_K_M
# 47.42 GB, Q8_0 77.26 GB), the Q8_0 split in two as large uploads are
FILES = {
    "Kimi-Dev-72B-Q4_K_M.gguf": 47_420_000_000,
    "Q8_0/Kimi-Dev-72B-Q8_0-00001-of-00002.gguf": 40_000_000_000,
    "Q8_0/Kimi-Dev-72B-Q8_0-00002-of-00002.gguf": 37_260_000_000,
    "mmproj-Kimi-Dev-72B-f16.gguf": 1_000_000,
}


@pytest.fixture
def cache(tmp_path, monkeypatch):
    hf = tmp_path / "hf"
    snap = place(hf, REPO, {name: b"GGUF" + name.encode() for name in FILES})  # distinct blobs
    for name, size in FILES.items():
        os.truncate((snap / name).resolve(), size)  # sparse: the resolver only reads the size
    with offline(hf, tmp_path / "ours", monkeypatch):
        yield hf


def test_file_names_give_the_precision_and_shards_are_summed():
    files = {"x/Model-Q4_K_M-00001-of-00002.gguf": 10, "x/Model-Q4_K_M-00002-of-00002.gguf": 5,
             "Model-IQ4_XS.gguf": 7, "Model-BF16.gguf": 20, "mmproj-Model-f16.gguf": 3, "README.md": 1,
             "Model-Q9_Z.gguf": 4}
    assert gguf_files_by_precision(files) == {"gguf-bf16": 20, "iq4_xs": 7, "q4_k_m": 15}


def test_a_gguf_only_repository_is_sized_by_its_own_files(cache):
    m = resolve_model(REPO)
    assert m.total_params_b == 72 and m.resolved_from == "name"
    assert m.gguf_file_bytes == {"q4_k_m": 47_420_000_000, "q8_0": 77_260_000_000}
    assert m.native_precision == "q4_k_m"
    assert "GGUF files (their sizes are the weights)" in m.notes
    r = inference_memory(InferenceMemoryInput(model=REPO, precision="q8_0", context=4096))
    assert r.weights_bytes == 77_260_000_000
    default = inference_memory(InferenceMemoryInput(model=REPO, precision="q4_k_m", context=4096))
    assert default.weights_bytes == 47_420_000_000 and default.engine == "llama.cpp"
