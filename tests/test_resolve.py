"""Resolving what a person types: model names, HF ids, config.json paths, bare sizes, GPUs, formats."""

from __future__ import annotations

import json

import pytest

from gpu_advisor.knowledge import (
    BadValue,
    ConfigError,
    NotFound,
    find_gpu,
    find_model,
    find_precision,
    model_index,
    models,
    parse_size,
)
from gpu_advisor.knowledge.loader import DATA_DIR
from gpu_advisor.knowledge.resolve import normalise

QWEN3_8B_CONFIG = DATA_DIR / "configs" / "Qwen__Qwen3-8B.json"


# --- models ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("query, model_id", [
    ("llama-3-8b", "llama-3-8b"),
    ("llama 3 70b", "llama-3-70b"),
    ("Llama 3 70B", "llama-3-70b"),
    ("meta-llama/Meta-Llama-3-8B", "llama-3-8b"),
    ("meta-llama/meta-llama-3-8b-instruct", "llama-3-8b"),
    ("META-LLAMA/META-LLAMA-3-8B-INSTRUCT", "llama-3-8b"),
    ("Qwen/Qwen3-8B", "qwen3-8b"),
    ("deepseek-ai/DeepSeek-V3", "deepseek-v3"),
    ("openai/gpt-oss-20b", "gpt-oss-20b"),
])
def test_find_model_by_id_alias_or_hf_id(query, model_id):
    assert find_model(query).id == model_id


@pytest.mark.parametrize("query, model_id", [
    ("Qwen/Qwen2.5-7B-Instruct", "qwen2.5-7b"),   # -Instruct in the catalog's hf_ids
    ("qwen2.5-7b-chat", "qwen2.5-7b"),             # -Chat stripped to the base
    ("qwen3-8b-instruct", "qwen3-8b"),             # -Instruct stripped to the base
    ("google/gemma-2-9b-it", "gemma-2-9b"),         # -it
    ("gemma-2-9b-it", "gemma-2-9b"),
    ("meta-llama/Llama-2-7b-chat", "llama-2-7b"),
    ("mistralai/Mistral-7B-v0.1-Instruct", "mistral-7b-v0.1"),
])
def test_variant_suffixes_resolve_to_the_base_model(query, model_id):
    assert find_model(query).id == model_id


# --- a family word and a size mean the newest such model ------------------------------------------

@pytest.mark.parametrize("query, model_id", [
    ("qwen 72b", "qwen2.5-72b"),      # not Qwen-1 72B (no GQA: 8x the KV cache)
    ("Qwen 72B", "qwen2.5-72b"),
    ("qwen-72b", "qwen2.5-72b"),
    ("qwen72b", "qwen2.5-72b"),
    ("Qwen-72B", "qwen2.5-72b"),      # a person typing the old repo's short name means the family
    ("qwen 72b instruct", "qwen2.5-72b"),
    ("qwen 72b chat", "qwen2.5-72b"),   # "chat" names the chat-tuned model of today, not Qwen-72B-Chat
    ("qwen-72b-chat", "qwen2.5-72b"),
    ("qwen 7b chat", "qwen2.5-7b"),
    ("llama 70b instruct", "llama-3.3-70b"),
    ("千问 72b", "qwen2.5-72b"),
    ("qwen 7b", "qwen2.5-7b"),
    ("qwen 14b", "qwen3-14b"),
    ("qwen 32b", "qwen3-32b"),
    ("qwen 8b", "qwen3-8b"),
    ("qwen 30b", "qwen3-30b-a3b"),
    ("qwen 30b-a3b", "qwen3-30b-a3b"),
    ("qwen 1.8b", "qwen1-1.8b"),      # the only Qwen of that size
    ("llama 70b", "llama-3.3-70b"),
    ("llama 8b", "llama-3.1-8b"),
    ("llama 7b", "llama-2-7b"),       # Code Llama is its own family
    ("llama 405b", "llama-3.1-405b"),
    ("gemma 27b", "gemma-3-27b"),
    ("gemma 9b", "gemma-2-9b"),
    ("mistral 24b", "mistral-small-3.2-24b"),  # 3.2 (2506) on record since session 18
    ("deepseek r1", "deepseek-r1"),
    ("qwen vl 7b", "qwen2.5-vl-7b"),
    ("qwen-vl 72b", "qwen2.5-vl-72b"),
])
def test_family_and_size_resolve_to_the_newest_model(query, model_id):
    assert find_model(query).id == model_id


@pytest.mark.parametrize("query, model_id", [
    ("qwen1 72b", "qwen1-72b"),
    ("qwen1-72b", "qwen1-72b"),
    ("Qwen/Qwen-72B", "qwen1-72b"),
    ("Qwen/Qwen-72B-Chat", "qwen1-72b"),
    ("qwen1 7b", "qwen1-7b"),
    ("Qwen/Qwen-7B", "qwen1-7b"),
    ("qwen2 72b", "qwen2-72b"),
    ("qwen2.5 7b", "qwen2.5-7b"),
    ("llama 3 70b", "llama-3-70b"),
    ("llama 2 70b", "llama-2-70b"),
    ("gemma 2 27b", "gemma-2-27b"),
    ("codellama 7b", "codellama-7b"),
    ("Qwen/Qwen2.5-VL-7B-Instruct", "qwen2.5-vl-7b"),
])
def test_an_explicit_version_still_gives_that_model(query, model_id):
    assert find_model(query).id == model_id


@pytest.mark.parametrize("query", [
    "moonshotai/Kimi-Dev-72B", "moonshotai/Kimi-Dev", "kimi dev", "kimi-dev-72b",
    "someorg/llama-70b",              # an unknown fine-tune is not the newest Llama 70B
    "qwen 13b",                       # no Qwen of that size
])
def test_unknown_names_are_never_swapped_for_another_model(query):
    with pytest.raises(NotFound) as e:
        find_model(query)
    assert e.value.kind == "model"


def test_model_index_holds_every_name_and_the_family_keys():
    index = model_index()
    assert index is model_index()  # built once
    for m in models():
        for name in (m.id, m.name, *m.aliases, *m.hf_ids):
            assert normalise(name) in index, name
        for hf in m.hf_ids:
            assert normalise(hf.split("/", 1)[-1]) in index, hf
    assert index["qwen72b"] == "qwen2.5-72b"
    assert index["qwen7b"] == "qwen2.5-7b"
    assert index["llama70b"] == "llama-3.3-70b"
    assert index["gemma27b"] == "gemma-3-27b"
    assert index["qwenvl7b"] == "qwen2.5-vl-7b"
    assert index["qwenqwen72b"] == "qwen1-72b"
    assert index["qwen172b"] == "qwen1-72b"
    assert index["deepseekr1"] == "deepseek-r1"


def test_explicit_names_win_over_family_keys():
    """Every id, name, alias and full HF id keeps resolving to its own record."""
    index = model_index()
    for m in models():
        for name in (m.id, m.name, *m.aliases, *m.hf_ids):
            assert index[normalise(name)] == m.id, name


def test_config_json_path_is_read_for_the_architecture():
    m = find_model(str(QWEN3_8B_CONFIG))
    cfg = json.loads(QWEN3_8B_CONFIG.read_text())
    assert m.num_layers == cfg["num_hidden_layers"] == 36
    assert m.num_kv_heads == cfg["num_key_value_heads"] == 8
    assert m.num_attention_heads == 32
    assert m.head_dim == 128
    assert m.attention == "gqa"
    assert not m.is_moe
    # 151936 x 4096 x 2 (untied) + 36 x (4096 x 4096 x 2 + 4096 x 1024 x 2 + 3 x 4096 x 12288) = 8.19B
    assert m.total_params_b == pytest.approx(8.19, abs=0.01)
    assert m.active_params_b == m.total_params_b
    assert m.source == str(QWEN3_8B_CONFIG)


def test_moe_config_json_counts_total_and_active():
    m = find_model(str(DATA_DIR / "configs" / "Qwen__Qwen3-30B-A3B.json"))
    assert m.is_moe
    assert (m.num_experts, m.experts_per_token) == (128, 8)
    assert m.total_params_b == pytest.approx(30.5, rel=0.01)
    assert m.active_params_b == pytest.approx(3.35, rel=0.02)


def test_mla_config_json_is_recognised():
    m = find_model(str(DATA_DIR / "configs" / "deepseek-ai__DeepSeek-V2-Lite-Chat.json"))
    assert m.attention == "mla"
    assert m.kv_lora_rank == 512
    assert m.qk_rope_head_dim == 64


def test_directory_holding_config_json_is_accepted(tmp_path):
    model_dir = tmp_path / "my-model"
    model_dir.mkdir()
    (model_dir / "config.json").write_text(QWEN3_8B_CONFIG.read_text())
    m = find_model(str(model_dir))
    assert m.name == "my-model"
    assert m.num_layers == 36


@pytest.mark.parametrize("query, total, active, moe", [
    ("27B", 27.0, 27.0, False),
    ("27b", 27.0, 27.0, False),
    ("26B-A3.8B", 26.0, 3.8, True),
    ("30B-A3B", 30.0, 3.0, True),
    ("500M", 0.5, 0.5, False),
    ("1.5T", 1500.0, 1500.0, False),
])
def test_bare_size_becomes_a_generic_model(query, total, active, moe):
    m = find_model(query)
    assert m.family == "generic"
    assert m.total_params_b == pytest.approx(total)
    assert m.active_params_b == pytest.approx(active)
    assert m.is_moe is moe


def test_bare_moe_size_borrows_an_moe_layout():
    m = find_model("26B-A3.8B")
    assert m.id == "generic-26b-a3.8b"
    assert m.num_experts is not None and m.experts_per_token is not None
    assert "borrowed from" in m.notes


def test_parse_size_returns_none_for_names():
    assert parse_size("llama-3-8b") is None
    assert parse_size("27B") == (27.0, 27.0)
    assert parse_size("26B-A3.8B") == (26.0, 3.8)


def test_typo_raises_not_found_with_suggestions():
    with pytest.raises(NotFound) as e:
        find_model("lama-3-8b")
    assert e.value.suggestions[0] == "llama-3-8b"
    assert "lama-3-8b" in str(e.value)
    assert "closest: llama-3-8b" in str(e.value)


def test_unknown_model_without_neighbours_says_so():
    with pytest.raises(NotFound) as e:
        find_model("gpt-7")
    assert e.value.kind == "model"
    assert e.value.suggestions == []
    assert str(e.value) == "unknown model 'gpt-7'"


def test_empty_model_name_is_not_found():
    with pytest.raises(NotFound):
        find_model("   ")


def test_zero_parameters_is_a_bad_value():
    with pytest.raises(BadValue, match="positive number of parameters"):
        find_model("0B")


def test_negative_size_is_rejected_as_a_bad_value():
    with pytest.raises(BadValue, match="positive number of parameters"):
        find_model("-5B")


def test_absurdly_large_size_is_a_bad_value():
    # 1,000,000,000B = 10^18 parameters; the largest real models are about 2,000B
    with pytest.raises(BadValue, match=r"beyond any model that exists.*check the unit"):
        find_model("1000000000B")


def test_size_just_above_the_limit_is_rejected_and_just_below_accepted():
    assert find_model("10000B").total_params_b == 10_000
    with pytest.raises(BadValue):
        find_model("10001B")


def test_tiny_size_is_a_bad_value():
    with pytest.raises(BadValue, match="below the smallest model"):
        find_model("1M")


def test_active_above_total_is_a_bad_value():
    with pytest.raises(BadValue, match=r"active parameters \(5B\) cannot exceed the total \(3B\)"):
        find_model("3B-A5B")


# --- config.json errors ---------------------------------------------------------------------------

def test_config_missing_num_hidden_layers_raises_config_error(tmp_path):
    cfg = json.loads(QWEN3_8B_CONFIG.read_text())
    del cfg["num_hidden_layers"]
    path = tmp_path / "config.json"
    path.write_text(json.dumps(cfg))
    with pytest.raises(ConfigError, match="num_hidden_layers"):
        find_model(str(path))


def test_config_with_non_positive_field_raises_config_error(tmp_path):
    cfg = json.loads(QWEN3_8B_CONFIG.read_text())
    cfg["hidden_size"] = 0
    path = tmp_path / "zero.json"
    path.write_text(json.dumps(cfg))
    with pytest.raises(ConfigError, match="'hidden_size' must be a positive integer"):
        find_model(str(path))


def test_moe_config_without_routing_raises_config_error(tmp_path):
    cfg = json.loads((DATA_DIR / "configs" / "Qwen__Qwen3-30B-A3B.json").read_text())
    cfg.pop("num_experts_per_tok")
    path = tmp_path / "moe.json"
    path.write_text(json.dumps(cfg))
    with pytest.raises(ConfigError, match="num_experts_per_tok"):
        find_model(str(path))


def test_invalid_json_raises_config_error(tmp_path):
    path = tmp_path / "config.json"
    path.write_text("{ not json")
    with pytest.raises(ConfigError, match="not valid JSON"):
        find_model(str(path))


def test_json_that_is_not_an_object_raises_config_error(tmp_path):
    path = tmp_path / "list.json"
    path.write_text("[1, 2, 3]")
    with pytest.raises(ConfigError, match="JSON object"):
        find_model(str(path))


def test_missing_json_file_raises_config_error(tmp_path):
    with pytest.raises(ConfigError, match="no such file"):
        find_model(str(tmp_path / "nowhere.json"))


# --- GPUs -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("query, gpu_id", [
    ("4090", "rtx-4090"),
    ("rtx4090", "rtx-4090"),
    ("h100", "h100-sxm"),
    ("H100", "h100-sxm"),
    ("a100", "a100-80gb-sxm"),
    ("h100-pcie", "h100-pcie"),
    ("Ascend 910B", "ascend-910b"),
    ("昇腾910B", "ascend-910b"),
])
def test_find_gpu_loosely_spelled(query, gpu_id):
    assert find_gpu(query).id == gpu_id


def test_unknown_gpu_raises_not_found_with_suggestions():
    with pytest.raises(NotFound) as e:
        find_gpu("h1000")
    assert e.value.kind == "GPU"
    assert "h100-sxm" in e.value.suggestions
    assert 1 <= len(e.value.suggestions) <= 3


# --- precisions -----------------------------------------------------------------------------------

@pytest.mark.parametrize("query", [
    "bf16", "fp16", "fp8", "int8", "int4", "gptq-int4", "gptq-int8", "awq", "nf4", "f16",
    "q8_0", "q6_k", "q5_k_m", "q4_k_m", "q4_0", "q3_k_m", "q2_k", "mxfp4",
])
def test_every_named_format_resolves_to_itself(query):
    assert find_precision(query).id == query


@pytest.mark.parametrize("query, pid", [
    ("4-bit", "int4"),
    ("8-bit", "int8"),
    ("Q4_K_M", "q4_k_m"),
    ("q4_K_m", "q4_k_m"),
    ("BF16", "bf16"),
    ("bfloat16", "bf16"),
    ("GPTQ", "gptq-int4"),
    ("Q8_0", "q8_0"),
])
def test_precision_aliases_are_case_insensitive(query, pid):
    assert find_precision(query).id == pid


def test_unknown_precision_raises_not_found():
    with pytest.raises(NotFound) as e:
        find_precision("int3")
    assert e.value.kind == "precision"
    assert "'int3'" in str(e.value)
