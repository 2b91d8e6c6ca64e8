"""Models from the Hugging Face Hub, driven offline by a fixture cache laid out as huggingface_hub does."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from gpu_advisor.knowledge import (
    ConfigError,
    NotFound,
    find_precision,
    hub,
    resolve_model,
    show_model,
    size_in_name,
)
from gpu_advisor.tools import arch
from gpu_advisor.tools.inference import InferenceMemoryInput, inference_memory
from tests.hf_cache import FIXTURES, NAMED_REPOS, named_cache, offline, place, safetensors_bytes

# Published sizes (billions) of the models issue 8 names: the model cards / Hub pages.
PUBLISHED_B = {
    "moonshotai/Kimi-Dev-72B": 72.7,            # Qwen2.5-72B base: 72.7B
    "ibm-granite/granite-3.3-8b-instruct": 8.17,
    "mistralai/Mistral-Nemo-Instruct-2407": 12.2,
    "microsoft/Phi-4-mini-instruct": 3.84,
}


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An offline Hugging Face cache with the named models, and an empty summary cache."""
    hf = tmp_path / "hf"
    named_cache(hf)
    with offline(hf, tmp_path / "ours", monkeypatch):
        yield hf


def _llama_tensors(layers=2, h=64, inter=128, vocab=256, kv=2, heads=4, dtype="BF16", tied=False):
    d = h // heads
    t = {"model.embed_tokens.weight": (dtype, [vocab, h]), "model.norm.weight": (dtype, [h])}
    for i in range(layers):
        p = f"model.layers.{i}."
        t |= {p + "self_attn.q_proj.weight": (dtype, [h, h]), p + "self_attn.k_proj.weight": (dtype, [kv * d, h]),
              p + "self_attn.v_proj.weight": (dtype, [kv * d, h]), p + "self_attn.o_proj.weight": (dtype, [h, h]),
              p + "mlp.gate_proj.weight": (dtype, [inter, h]), p + "mlp.up_proj.weight": (dtype, [inter, h]),
              p + "mlp.down_proj.weight": (dtype, [h, inter]), p + "input_layernorm.weight": (dtype, [h]),
              p + "post_attention_layernorm.weight": (dtype, [h])}
    if not tied:
        t["lm_head.weight"] = (dtype, [vocab, h])
    return t


TINY = {"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
        "num_key_value_heads": 2, "intermediate_size": 128, "vocab_size": 256, "max_position_embeddings": 2048}


# --- the models the issue names --------------------------------------------------------------------

IN_CATALOG = {"mistralai/Mistral-Nemo-Instruct-2407": "mistral-nemo-12b"}  # added to the catalog later

@pytest.mark.parametrize("repo", NAMED_REPOS)
def test_every_named_model_resolves_from_the_fixture_cache_and_is_sized(cache, repo):
    m = resolve_model(repo)
    assert abs(m.total_params_b - PUBLISHED_B[repo]) / PUBLISHED_B[repo] < 0.015
    r = inference_memory(InferenceMemoryInput(model=repo, precision="bf16", context=8192))
    assert r.weights_bytes == pytest.approx(m.total_params_b * 1e9 * 2)
    assert r.kv_cache_bytes > 0
    if repo in IN_CATALOG:  # the catalog knows it by name now: catalog names win (test_catalog_names_still_win)
        assert m.resolved_from == "catalog" and m.id == IN_CATALOG[repo]
        return
    assert m.resolved_from == "hf-cache"
    assert m.name == repo and r.model == repo
    assert "config.json" in m.source and m.revision


def test_named_shapes_are_read_from_the_config(cache):
    from gpu_advisor.knowledge import find_model, model_from_config

    nemo = show_model("mistralai/Mistral-Nemo-Instruct-2407")
    assert (nemo["layers"], nemo["heads"], nemo["kv_heads"], nemo["head_dim"]) == (40, 32, 8, 128)
    assert nemo["attention"] == "gqa"
    config = json.loads((FIXTURES / "mistralai__Mistral-Nemo-Instruct-2407.json").read_text())
    read = model_from_config(config, name="nemo", source="fixture")
    assert abs(read.total_params_b - find_model("mistral nemo").total_params_b) < 0.01  # the catalog = the config
    phi = show_model("microsoft/Phi-4-mini-instruct")
    assert phi["tied_embeddings"] and phi["parameters"]["embeddings_and_head"] == 200064 * 3072
    json.dumps(phi)  # --json prints it as is


def test_repo_ids_are_matched_without_regard_to_case(cache):
    assert resolve_model("MOONSHOTAI/kimi-dev-72b").name == "moonshotai/Kimi-Dev-72B"


def test_catalog_names_still_win(cache):
    assert resolve_model("meta-llama/Meta-Llama-3-8B").id == "llama-3-8b"
    assert resolve_model("llama-3-8b").resolved_from == "catalog"


# --- the checkpoint's own counts -------------------------------------------------------------------

def test_parameter_counts_per_dtype_come_from_the_safetensors_headers(cache):
    tensors = _llama_tensors()
    place(cache, "acme/tiny-llama", {"config.json": TINY, "model.safetensors": safetensors_bytes(tensors)})
    m = resolve_model("acme/tiny-llama")
    expected = sum(_numel(s) for _, s in tensors.values())
    assert m.params_by_dtype == {"BF16": expected}
    assert m.total_params_b == pytest.approx(expected / 1e9, abs=1e-7)  # norms counted too
    assert "safetensors headers" in m.notes


def test_vision_tower_is_the_checkpoint_minus_the_language_model(cache):
    tensors = _llama_tensors() | {"vision_tower.patch_embed.weight": ("BF16", [1000, 600])}
    config = {"model_type": "llava", "text_config": TINY, "vision_config": {"hidden_size": 32}}
    place(cache, "acme/tiny-vl", {"config.json": config, "model.safetensors": safetensors_bytes(tensors)})
    m = resolve_model("acme/tiny-vl")
    assert m.modality == "vision-language"
    assert m.vision_params_b * 1e9 == pytest.approx(600_000 + 2 * 64 * 2 + 64, rel=0.02)  # tower + norms


def test_a_partial_safetensors_download_is_not_trusted(cache):
    place(cache, "acme/broken", {"config.json": TINY, "model.safetensors": b"\x00\x01"})
    m = resolve_model("acme/broken")
    assert m.params_by_dtype == {} and "computed from config.json" in m.notes


def test_malformed_config_in_the_cache_is_a_config_error(cache):
    place(cache, "acme/bad", {"config.json": "{not json"})
    with pytest.raises(ConfigError):
        resolve_model("acme/bad")
    place(cache, "acme/nolayers", {"config.json": {"model_type": "llama", "hidden_size": 8}})
    with pytest.raises(ConfigError, match="num_hidden_layers"):
        resolve_model("acme/nolayers")


# --- offline, unreachable, gated ---------------------------------------------------------------------

def test_offline_falls_back_to_the_size_in_the_name_and_says_so(cache):
    m = resolve_model("someorg/Some-Finetune-13B-Instruct")
    assert m.resolved_from == "name" and m.total_params_b == 13
    assert "HF_HUB_OFFLINE is set" in m.notes and "size in its name" in m.notes
    r = inference_memory(InferenceMemoryInput(model="someorg/Some-Finetune-13B-Instruct"))
    assert any("size in its name" in a for a in r.assumptions)


def test_offline_without_a_size_in_the_name_is_not_found_with_the_reason(cache):
    with pytest.raises(NotFound) as e:
        resolve_model("someorg/mystery-model")
    assert "HF_HUB_OFFLINE" in e.value.reason and "states no size" in str(e.value)


def test_network_is_off_unless_the_process_allows_it(cache, monkeypatch):
    monkeypatch.delenv("HF_HUB_OFFLINE")
    called = []
    monkeypatch.setattr(hub, "fetch", lambda repo: called.append(repo))
    m = resolve_model("someorg/other-7b")
    assert called == [] and "look-ups are off" in m.notes
    hub.allow_network(True)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")  # HF_HUB_OFFLINE wins over the process switch
    assert resolve_model("someorg/other-8b").resolved_from == "name" and called == []


def test_gated_model_gets_one_clear_line(cache, monkeypatch):
    monkeypatch.delenv("HF_HUB_OFFLINE")
    monkeypatch.delenv("HF_TOKEN", raising=False)
    hub.allow_network(True)

    def gated(repo):
        raise hub.HubGated(hub.gated_message(repo))

    monkeypatch.setattr(hub, "fetch", gated)
    with pytest.raises(hub.HubGated) as e:
        resolve_model("meta-llama/Llama-4-Gated-400B")
    msg = str(e.value)
    assert "\n" not in msg and "gated" in msg and "hf auth login" in msg and "HF_TOKEN" in msg


def test_missing_repo_on_the_hub_is_not_found(cache, monkeypatch):
    monkeypatch.delenv("HF_HUB_OFFLINE")
    hub.allow_network(True)

    def missing(repo):
        raise hub.HubMissing(f"there is no model '{repo}' on the Hub")

    monkeypatch.setattr(hub, "fetch", missing)
    with pytest.raises(NotFound, match="no model 'acme/typo-7b' on the Hub"):
        resolve_model("acme/typo-7b")


def test_a_fetch_is_remembered_in_the_summary_cache(cache):
    m = hub.HubModel(repo_id="acme/remembered", revision="abc", config=TINY, params_by_dtype={"BF16": 123},
                     bytes_by_dtype={"BF16": 246}, origin="hub", fetched="2026-11-01")
    hub._save_summary(m)
    back = hub.from_summary("acme/remembered")
    assert back is not None and back.origin == "summary-cache" and back.params_by_dtype == {"BF16": 123}
    assert resolve_model("acme/remembered").resolved_from == "hub"


def test_hf_cache_location_follows_the_environment(monkeypatch, tmp_path):
    for name in ("HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE", "HF_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HF_HOME", str(tmp_path / "home"))
    assert hub.hf_cache_dir() == tmp_path / "home" / "hub"
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "c"))
    assert hub.hf_cache_dir() == tmp_path / "c"


def test_size_in_name():
    assert size_in_name("moonshotai/Kimi-Dev-72B") == (72, 72)
    assert size_in_name("Qwen/Qwen3-30B-A3B-Instruct-2507") == (30, 3)
    assert size_in_name("mistralai/Mixtral-8x7B-v0.1") is None
    assert size_in_name("microsoft/Phi-4-mini-instruct") is None


def test_importing_knowledge_and_tools_does_not_import_huggingface_hub():
    code = "import sys; from gpu_advisor import knowledge; import gpu_advisor.tools.inference; from gpu_advisor import tools; print('huggingface_hub' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "HF_HUB_OFFLINE": "1"})
    assert out.stdout.strip() == "False"


# --- the opt-in real download ---------------------------------------------------------------------

@pytest.mark.network
@pytest.mark.skipif(not os.environ.get("GPU_ADVISOR_NETWORK_TESTS"),
                    reason="network test: set GPU_ADVISOR_NETWORK_TESTS=1 and run pytest -m network")
def test_real_hub_download(tmp_path, monkeypatch):  # pragma: no cover
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hf"))
    monkeypatch.setenv("GPU_ADVISOR_CACHE_DIR", str(tmp_path / "ours"))
    hub.allow_network(True)
    try:
        m = resolve_model("Qwen/Qwen2.5-0.5B")  # catalog-free, ungated, small
        if m.resolved_from == "catalog":
            m = resolve_model("HuggingFaceTB/SmolLM2-135M")
        assert m.resolved_from == "hub" and m.params_by_dtype
    finally:
        hub.allow_network(False)


def _numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def test_quantized_checkpoint_bytes_are_the_stored_bytes(cache):
    q = {"quant_method": "gptq", "bits": 4, "group_size": 32}
    tensors = {"model.embed_tokens.weight": ("F16", [256, 64]), "lm_head.weight": ("F16", [256, 64]),
               "model.layers.0.mlp.down_proj.qweight": ("I32", [16, 128]),
               "model.layers.0.mlp.down_proj.scales": ("F16", [4, 128])}
    place(cache, "acme/tiny-gptq", {"config.json": TINY | {"quantization_config": q},
                                    "model.safetensors": safetensors_bytes(tensors)})
    m = resolve_model("acme/tiny-gptq")
    assert m.native_precision == "gptq-int4" and m.native_bits_per_weight == pytest.approx(4 + 20 / 32)
    stored = 256 * 64 * 2 * 2 + 16 * 128 * 4 + 4 * 128 * 2
    assert m.checkpoint_bytes == stored
    assert arch.weight_bytes(m, find_precision("gptq-int4")) == pytest.approx(stored)
    # Another format is still sized from the parameter count
    assert arch.weight_bytes(m, find_precision("bf16")) == pytest.approx(m.total_params_b * 2e9)
