"""Issue 8, engines as data: which serving engines run on which hardware (knowledge/data/engines.yaml),
and every answer that picks a card picks an engine that runs there."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpu_advisor.knowledge import also_runs, engine_for, engines, find_gpu, gpus
from gpu_advisor.knowledge.schema import Engine
from gpu_advisor.tools.common import ToolError
from gpu_advisor.tools.inference import InferenceMemoryInput, inference_memory
from gpu_advisor.tools.recommend import Workload, recommend
from gpu_advisor.tools.throughput import SpeedInput, speed


def test_the_engines_the_issue_names_are_data():
    names = {e.name for e in engines()}
    assert {"vLLM", "SGLang", "llama.cpp", "MLX (mlx-lm)", "TensorRT-LLM"} <= names
    assert all(e.source and e.as_of for e in engines())


def test_every_nvidia_and_amd_card_in_the_catalog_names_its_architecture():
    missing = [g.id for g in gpus() if g.vendor in ("nvidia", "amd") and g.arch is None]
    assert missing == []


@pytest.mark.parametrize(("gpu", "sized", "expected"), [
    ("ascend-910b", "vllm", "vLLM-Ascend"),
    ("ascend-910c", "vllm", "vLLM-Ascend"),
    ("gaudi-3", "vllm", "vLLM (Gaudi plugin)"),
    ("gaudi-3", "llama.cpp", None),           # no Gaudi backend in llama.cpp
    ("apple-m3-max-128gb", "vllm", None),     # no vLLM on a Mac (only a community plugin)
    ("apple-m3-max-128gb", "llama.cpp", "llama.cpp"),
    ("mi300x", "vllm", "vLLM"),
    ("h100-sxm", "vllm", "vLLM"),
    ("ryzen-ai-max-395", "llama.cpp", "llama.cpp"),
])
def test_the_engine_named_for_a_card(gpu, sized, expected):
    assert engine_for(sized, find_gpu(gpu)) == expected


def test_engines_that_also_run_on_a_card():
    assert also_runs("vllm", find_gpu("ascend-910b")) == ["SGLang", "MindIE", "LMDeploy", "llama.cpp"]
    assert "TGI (Text Generation Inference)" not in also_runs("vllm", find_gpu("h100-sxm"))  # maintenance mode
    assert also_runs("llama.cpp", find_gpu("apple-m2-ultra-192gb")) == ["MLX (mlx-lm)"]
    assert "TensorRT-LLM" in also_runs("vllm", find_gpu("l40s"))
    assert "TensorRT-LLM" not in also_runs("vllm", find_gpu("t4"))  # Turing: community support only
    assert "SGLang" not in also_runs("llama.cpp", find_gpu("ryzen-ai-max-395"))


def test_an_engine_record_with_an_unknown_architecture_is_refused():
    with pytest.raises(ValueError, match="min_arch 'kepler'"):
        Engine.model_validate({"id": "x", "name": "X", "sized_as": "vllm", "source": "test", "as_of": "2026-01-01",
                               "runs_on": [{"stack": "cuda", "min_arch": "kepler"}]})


def test_figures_for_an_engine_that_does_not_run_on_the_card_are_refused():
    with pytest.raises(ToolError, match=r"llama\.cpp does not run on Intel Gaudi 3"):
        inference_memory(InferenceMemoryInput(model="llama-3-8b", precision="q4_k_m", gpu="gaudi-3"))
    with pytest.raises(ToolError, match="vllm does not run on Apple M3 Max"):
        speed(SpeedInput(model="llama-3-8b", precision="int8", gpu="apple-m3-max-128gb", engine="vllm"))


def test_on_a_mac_the_default_engine_is_one_that_runs_there():
    r = speed(SpeedInput(model="llama-3-8b", precision="bf16", gpu="apple-m3-max-128gb"))
    assert r.engine == "llama.cpp"


def test_the_cli_refuses_an_engine_that_does_not_run_on_the_card_in_one_line(capsys):
    from gpu_advisor.tui.cli import main

    assert main(["size", "inference", "-m", "llama-3-8b", "--precision", "q4_k_m", "--gpu", "gaudi-3"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0
    assert "llama.cpp does not run on Intel Gaudi 3" in err and "vLLM (Gaudi plugin)" in err


def test_the_math_names_the_engine_on_the_card_and_the_others():
    r = inference_memory(InferenceMemoryInput(model="qwen2.5-72b", precision="int8", gpu="ascend-910b", gpus=4))
    assert "engine vLLM-Ascend (sized as vllm; also runs here: SGLang, MindIE, LMDeploy, llama.cpp); KV cache in BF16" \
        in r.assumptions


def test_a_batch_job_on_a_mac_runs_on_llama_cpp():
    rec = recommend(Workload(phase="batch", model="llama-3-8b", owned=["apple-m3-max-128gb"],
                             batch_items=1000, batch_input_tokens=500, batch_output_tokens=200))
    mac = rec.owned_options[0]
    assert (mac.engine, mac.runtime) == ("llama.cpp", "llama.cpp")
    assert mac.precision == "q8_0"


def test_gguf_weights_on_gaudi_have_no_engine_and_the_answer_says_so():
    rec = recommend(Workload(phase="serve", model="llama-3-8b", serve_precision="q4_k_m", owned=["gaudi-3"],
                             users=4))
    gaudi = rec.owned_options[0]
    assert gaudi.serves is False and not gaudi.ok
    assert "no engine runs q4_k_m weights on Intel Gaudi 3 128GB (OAM)" in gaudi.reasons


workloads = st.fixed_dictionaries({
    "phase": st.sampled_from(["serve", "batch", "train-and-serve", "production"]),
    "model": st.sampled_from(["llama-3-8b", "qwen2.5-72b", "qwen3-30b-a3b", "llama-3.1-70b"]),
    "users": st.sampled_from([1, 4, 50]),
    "region": st.sampled_from(["global", "china"]),
    "owned": st.sampled_from([[], ["apple-m2-ultra-192gb"], ["8x ascend-910b"], ["8x gaudi-3"], ["2x rtx-4090"],
                              ["ryzen-ai-max-395"], ["8x mi300x"]]),
})


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec=workloads)
def test_every_option_with_an_engine_names_one_that_runs_on_its_card(spec):
    rec = recommend(Workload(**spec))
    for o in rec.options + rec.owned_options + ([rec.best] if rec.best else []):
        if o.engine is not None and o.serves is not None and o.serve_per_gpu_bytes:
            assert o.runtime is not None and o.runtime == engine_for(o.engine, find_gpu(o.gpu)), o


def test_gpus_show_lists_the_engines_that_run_on_a_card(capsys):
    from gpu_advisor.tui.cli import main

    assert main(["gpus", "show", "ascend-910b"]) == 0
    out = capsys.readouterr().out
    assert "engines                vLLM-Ascend, SGLang, MindIE, LMDeploy, llama.cpp, transformers" in out
    assert main(["gpus", "show", "M3 Max 30-core 36GB", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["memory_bandwidth_gbps"] == 300 and [e["name"] for e in data["engines"]] == [
        "llama.cpp", "MLX (mlx-lm)", "transformers"]
    assert main(["gpus", "show", "M4 Max 32GB"]) == 2
    assert capsys.readouterr().err.strip() == "gpu-advisor: Apple sold the M4 Max with 36, 48, 64 or 128 GB, not 32 GB"


def test_the_catalog_json_names_each_cards_engines(capsys):
    from gpu_advisor.tui.cli import main

    assert main(["gpus", "--json"]) == 0
    by_id = {g["id"]: g for g in json.loads(capsys.readouterr().out)}
    assert by_id["gaudi-3"]["engines"] == ["vLLM (Gaudi plugin)", "SGLang", "TGI on Gaudi", "transformers"]
    assert "TensorRT-LLM" not in by_id["t4"]["engines"] and "TensorRT-LLM" in by_id["h100-sxm"]["engines"]
