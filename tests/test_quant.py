"""A checkpoint's quantization_config sets its native precision and the bytes of its weights."""

from __future__ import annotations

import pytest

from gpu_advisor.knowledge import ConfigError, find_precision, model_from_config, precisions
from gpu_advisor.knowledge.quant import parse_quantization
from gpu_advisor.tools import arch

BASE = {"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
        "num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 128256, "max_position_embeddings": 8192}


@pytest.mark.parametrize("q, precision, bits", [
    ({"quant_method": "gptq", "bits": 4, "group_size": 128}, "gptq-int4", 4 + 20 / 128),
    ({"quant_method": "gptq", "bits": 4, "group_size": 32}, "gptq-int4", 4 + 20 / 32),
    ({"quant_method": "gptq", "bits": 8, "group_size": 128}, "gptq-int8", 8 + 24 / 128),
    ({"quant_method": "gptq", "bits": 4, "group_size": -1}, "gptq-int4", 4 + 20 / 4096),
    ({"quant_method": "awq", "bits": 4, "group_size": 128, "version": "gemm"}, "awq", 4 + 20 / 128),
    ({"quant_method": "awq", "w_bit": 4, "q_group_size": 64}, "awq", 4 + 20 / 64),
    ({"quant_method": "fp8", "activation_scheme": "dynamic", "weight_block_size": [128, 128]}, "fp8", 8),
    ({"quant_method": "mxfp4", "modules_to_not_convert": ["model.layers.*.self_attn", "lm_head"]}, "mxfp4", 4.25),
    ({"quant_method": "bitsandbytes", "load_in_4bit": True, "bnb_4bit_quant_type": "nf4",
      "bnb_4bit_use_double_quant": True}, "nf4", 4 + 8 / 64 + 32 / (64 * 256)),
    ({"quant_method": "bitsandbytes", "_load_in_4bit": True, "bnb_4bit_use_double_quant": False}, "nf4", 4.5),
    ({"quant_method": "bitsandbytes", "load_in_8bit": True}, "int8", 8),
    ({"quant_method": "compressed-tensors", "format": "float-quantized", "config_groups": {"group_0": {
        "weights": {"num_bits": 8, "type": "float", "strategy": "channel"},
        "input_activations": {"num_bits": 8, "type": "float", "dynamic": True}}}, "ignore": ["lm_head"]}, "fp8", 8),
    ({"quant_method": "compressed-tensors", "format": "int-quantized", "config_groups": {"group_0": {
        "weights": {"num_bits": 8, "type": "int", "strategy": "channel"},
        "input_activations": {"num_bits": 8, "type": "int", "dynamic": True}}}}, "w8a8-int8", 8),
    ({"quant_method": "compressed-tensors", "format": "pack-quantized", "config_groups": {"group_0": {
        "weights": {"num_bits": 4, "type": "int", "strategy": "group", "group_size": 128, "symmetric": True}}}},
     "w4a16", 4 + 16 / 128),
    ({"quant_method": "compressed-tensors", "format": "nvfp4-pack-quantized", "config_groups": {"group_0": {
        "weights": {"num_bits": 4, "type": "float", "strategy": "tensor_group", "group_size": 16}}}}, "nvfp4", 4.5),
    ({"quant_method": "modelopt", "quant_algo": "NVFP4"}, "nvfp4", 4.5),
])
def test_quantization_config_sets_the_native_precision_and_bits(q, precision, bits):
    info = parse_quantization(q, row=4096)
    assert info.precision == precision
    assert info.bits_per_weight == pytest.approx(bits)
    assert precision in {p.id for p in precisions()}
    m = model_from_config(BASE | {"quantization_config": q}, name="acme/q", source="test")
    assert m.native_precision == precision
    assert m.native_bits_per_weight == pytest.approx(bits, abs=1e-4)


def test_the_checkpoints_own_group_size_sets_the_bytes():
    g32 = model_from_config(BASE | {"quantization_config": {"quant_method": "gptq", "bits": 4, "group_size": 32}},
                            name="acme/g32", source="test")
    g128 = model_from_config(BASE | {"quantization_config": {"quant_method": "gptq", "bits": 4, "group_size": 128}},
                             name="acme/g128", source="test")
    p = find_precision("gptq-int4")
    embed = 128256 * 4096 * 2
    body = g32.total_params_b * 1e9 - embed
    assert arch.weight_bytes(g32, p) == pytest.approx(embed * 2 + body * (4 + 20 / 32) / 8)
    assert arch.weight_bytes(g32, p) > arch.weight_bytes(g128, p)


def test_modules_kept_in_16_bits_are_named():
    m = model_from_config(BASE | {"quantization_config": {"quant_method": "fp8", "modules_to_not_convert": ["lm_head"]}},
                          name="acme/fp8", source="test")
    assert "kept in 16 bits: lm_head" in m.notes


@pytest.mark.parametrize("q, match", [
    ({"quant_method": "hqq"}, "not one this tool sizes"),
    ({"quant_method": "bitsandbytes"}, "neither load_in_4bit"),
    ({"quant_method": "compressed-tensors"}, "no config_groups"),
    ("gptq", "must be an object"),
])
def test_unknown_or_malformed_quantization_is_a_config_error(q, match):
    with pytest.raises(ConfigError, match=match):
        model_from_config(BASE | {"quantization_config": q}, name="acme/bad", source="test")
