"""Issue 8, counted right: models whose MLP has no gate (two matrices around a GELU or ReLU) and that learn
their position embeddings (OPT, GPT-2) are counted from config.json within 0.2 % of their published
exact parameter counts (the small rest is biases and layer norms)."""

from __future__ import annotations

import pytest

from gpu_advisor.knowledge import model_from_config

# config.json fields as the Hub's files have them; exact counts as transformers' num_parameters() gives them
GPT2 = ({"model_type": "gpt2", "n_embd": 768, "n_layer": 12, "n_head": 12, "vocab_size": 50257, "n_positions": 1024,
         "n_inner": None}, 124_439_808)
GPT2_XL = ({"model_type": "gpt2", "n_embd": 1600, "n_layer": 48, "n_head": 25, "vocab_size": 50257,
            "n_positions": 1024}, 1_557_611_200)
OPT_1_3B = ({"model_type": "opt", "hidden_size": 2048, "num_hidden_layers": 24, "num_attention_heads": 32,
             "ffn_dim": 8192, "vocab_size": 50272, "max_position_embeddings": 2048, "word_embed_proj_dim": 2048},
            1_315_758_080)


@pytest.mark.parametrize(("cfg", "exact"), [GPT2, GPT2_XL, OPT_1_3B], ids=["gpt2", "gpt2-xl", "opt-1.3b"])
def test_ungated_mlps_and_learned_positions_are_counted(cfg, exact):
    m = model_from_config(cfg, name="x", source="test")
    assert m.tied_embeddings
    assert abs(m.total_params_b * 1e9 - exact) / exact < 0.002, m.total_params_b


def test_a_gated_model_keeps_three_matrices():
    llama = {"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
             "num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 128256}
    m = model_from_config(llama, name="llama-3-8b", source="test")
    assert abs(m.total_params_b - 8.03) < 0.01  # Llama 3 8B: 8,030,261,248
