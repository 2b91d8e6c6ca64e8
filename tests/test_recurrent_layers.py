"""Issue 8, hybrid layers: linear-attention (gated DeltaNet) and state-space (Mamba) layers keep a fixed
state per sequence, not a KV cache that grows with the context; the config says which layers are which."""

from __future__ import annotations

import pytest

from gpu_advisor.knowledge import model_from_config
from gpu_advisor.tools import arch
from gpu_advisor.tools.inference import InferenceMemoryInput, inference_memory

# Qwen/Qwen3-Next-80B-A3B-Instruct config.json (the fields that matter; transformers'
# Qwen3NextConfig has the same defaults): 48 layers, one full-attention layer in four.
QWEN3_NEXT = {
    "model_type": "qwen3_next", "hidden_size": 2048, "num_hidden_layers": 48, "num_attention_heads": 16,
    "num_key_value_heads": 2, "head_dim": 256, "intermediate_size": 5120, "moe_intermediate_size": 512,
    "shared_expert_intermediate_size": 512, "num_experts": 512, "num_experts_per_tok": 10, "vocab_size": 151936,
    "max_position_embeddings": 262144, "full_attention_interval": 4, "linear_conv_kernel_dim": 4,
    "linear_key_head_dim": 128, "linear_value_head_dim": 128, "linear_num_key_heads": 16,
    "linear_num_value_heads": 32, "tie_word_embeddings": False,
}
# gated DeltaNet state per layer: 32 value heads x 128 x 128, plus a 3-step conv window over q, k, v
# (2 x 2048 + 4096 channels); fp32 as the reference implementations keep it
DELTANET_LAYER_BYTES = (32 * 128 * 128 + 3 * (2 * 2048 + 4096)) * 4


def test_qwen3_next_has_36_linear_attention_layers_and_their_state():
    m = model_from_config(QWEN3_NEXT, name="Qwen3-Next-80B-A3B", source="test")
    assert m.recurrent_layers == 36
    assert m.recurrent_state_bytes == 36 * DELTANET_LAYER_BYTES == 79_036_416
    assert "linear-attention or state-space layers" in m.notes


def test_only_the_full_attention_layers_grow_with_the_context():
    m = model_from_config(QWEN3_NEXT, name="Qwen3-Next-80B-A3B", source="test")
    per_token = 12 * 2 * 2 * 256 * 2  # 12 layers x K and V x 2 KV heads x 256 x 2 bytes
    assert arch.kv_cache_bytes(m, 16, 8192, 1) == 8192 * per_token + 79_036_416
    assert arch.kv_cache_bytes(m, 16, 16384, 2) - arch.kv_cache_bytes(m, 16, 8192, 2) == 2 * 8192 * per_token


def test_the_answer_states_the_fixed_state_as_an_approximation(monkeypatch):
    m = model_from_config(QWEN3_NEXT, name="Qwen3-Next-80B-A3B", source="test")
    monkeypatch.setattr("gpu_advisor.tools.inference.resolve_model", lambda _name: m)
    r = inference_memory(InferenceMemoryInput(model="qwen3-next", precision="bf16", context=8192, batch=4))
    assert r.kv_cache_bytes == pytest.approx(4 * (8192 * 12 * 2048 + 79_036_416))
    assert any("36 of 48 layers keep a fixed state (79 MB per sequence)" in a for a in r.assumptions)


def test_nemotron_h_pattern_counts_mamba_and_mlp_only_blocks():
    cfg = {"model_type": "nemotron_h", "hidden_size": 4096, "num_hidden_layers": 8, "num_attention_heads": 32,
           "num_key_value_heads": 8, "head_dim": 128, "intermediate_size": 16384, "vocab_size": 131072,
           "hybrid_override_pattern": "M-M*-M-M", "mamba_num_heads": 128, "mamba_head_dim": 64,
           "ssm_state_size": 128, "n_groups": 8, "conv_kernel": 4}
    m = model_from_config(cfg, name="nemotron-h-test", source="test")
    assert m.recurrent_layers == 7                       # all but the one '*' attention block
    inner = 128 * 64
    assert m.recurrent_state_bytes == 4 * (inner * 128 + 3 * (inner + 2 * 8 * 128)) * 4  # four 'M' blocks


def test_jamba_attention_period():
    cfg = {"model_type": "jamba", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
           "num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 65536, "attn_layer_period": 8,
           "attn_layer_offset": 4, "mamba_d_state": 16, "mamba_d_conv": 4, "mamba_expand": 2,
           "num_experts": 16, "num_experts_per_tok": 2}
    m = model_from_config(cfg, name="jamba-test", source="test")
    assert m.recurrent_layers == 28
    assert m.recurrent_state_bytes == 28 * (8192 * 16 + 3 * 8192) * 4


def test_a_plain_transformer_has_no_recurrent_layers():
    cfg = {**QWEN3_NEXT, "model_type": "qwen2"}
    for k in ("full_attention_interval", "linear_num_value_heads"):
        cfg.pop(k)
    m = model_from_config(cfg, name="plain", source="test")
    assert (m.recurrent_layers, m.recurrent_state_bytes) == (0, 0)
